package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// overlayData is the overlay page: the slot, and how the widget looks in the broadcast.
type overlayData struct {
	viewerData
	Theme, Align  string
	Width, Height int // px; Height 0: as tall as the entries
	Font          int // px
	Max           int // entries at most (0: the slot's max_events)
	ShowTitle     bool
	ShowEmpty     bool
}

// Overlay query parameters and their bounds.
var (
	overlayThemes = []string{"dark", "light", "glass"}
	overlayAligns = []string{"bottom", "top"}
)

// overlay serves the slot's widget for an OBS browser source: transparent page, no chat, the
// same feed and socket (so the same server-side delay, depth and sanitizing) as the viewer
// page. A parameter out of range is a 400 naming it.
func (p *Pages) overlay(c echo.Context) error {
	o, problems := overlayOptions(c.QueryParams())
	if len(problems) > 0 {
		return echo.NewHTTPError(http.StatusBadRequest, "Invalid overlay parameters: "+strings.Join(problems, "; "))
	}
	d, err := p.slotPage(c)
	if err != nil || d == nil {
		return err
	}
	o.viewerData = *d
	return p.render(c, http.StatusOK, "overlay.html", o)
}

func overlayOptions(q url.Values) (overlayData, []string) {
	o := overlayData{Theme: "dark", Align: "bottom", Width: 360, Font: 15, ShowTitle: true}
	var problems []string
	oneOf := func(name string, dst *string, allowed []string) {
		if v := q.Get(name); v != "" {
			for _, a := range allowed {
				if v == a {
					*dst = v
					return
				}
			}
			problems = append(problems, fmt.Sprintf("%s must be one of %s", name, strings.Join(allowed, ", ")))
		}
	}
	number := func(name string, dst *int, lo, hi int) {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				problems = append(problems, fmt.Sprintf("%s must be a whole number from %d to %d", name, lo, hi))
				return
			}
			*dst = n
		}
	}
	flag := func(name string, dst *bool) {
		switch q.Get(name) {
		case "":
		case "1", "true", "yes":
			*dst = true
		case "0", "false", "no":
			*dst = false
		default:
			problems = append(problems, name+" must be 1 or 0")
		}
	}
	oneOf("theme", &o.Theme, overlayThemes)
	oneOf("align", &o.Align, overlayAligns)
	number("width", &o.Width, 200, 3840)
	number("height", &o.Height, 0, 2160)
	number("font", &o.Font, 10, 48)
	number("max", &o.Max, 0, 50)
	flag("title", &o.ShowTitle)
	flag("empty", &o.ShowEmpty)
	return o, problems
}
