// Package web serves the viewer page (/:username/:slot), the owner's studio (/studio) and
// their static files (/static/...), all embedded in the binary. The pages are plain HTML, CSS
// and JavaScript: no build step, no inline script, no third-party requests.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/api/internal/httpapi"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

//go:embed static templates
var files embed.FS

// Pages serves the web pages.
type Pages struct {
	st     store.Store
	log    *slog.Logger
	tmpl   *template.Template
	static map[string]staticFile
}

type staticFile struct {
	body        []byte
	contentType string
	etag        string
}

// New parses the templates and indexes the static files.
func New(st store.Store, log *slog.Logger) (*Pages, error) {
	if st == nil || log == nil {
		return nil, errors.New("web: store and logger are required")
	}
	tmpl, err := template.ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("parse page templates: %w", err)
	}
	p := &Pages{st: st, log: log, tmpl: tmpl, static: map[string]staticFile{}}
	err = fs.WalkDir(files, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		p.static[strings.TrimPrefix(name, "static/")] = staticFile{body: body, contentType: ct, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index static files: %w", err)
	}
	return p, nil
}

// Register mounts the pages. Static routes take precedence over /:username/:slot in echo's
// router, and usernames that would collide with them are reserved.
func (p *Pages) Register(e *echo.Echo) {
	e.GET("/", p.home)
	e.GET("/studio", p.studio)
	e.GET("/static/*", p.serveStatic)
	e.GET("/:username/:slot", p.viewer)
	e.GET("/:username/:slot/overlay", p.overlay)
}

func (p *Pages) home(c echo.Context) error {
	return p.render(c, http.StatusOK, "home.html", nil)
}

func (p *Pages) studio(c echo.Context) error {
	return p.render(c, http.StatusOK, "studio.html", nil)
}

type viewerData struct {
	Username    string
	SlotID      int64
	SlotSlug    string
	Title       string
	WidgetTitle string
}

func (p *Pages) viewer(c echo.Context) error {
	d, err := p.slotPage(c)
	if err != nil || d == nil {
		return err
	}
	return p.render(c, http.StatusOK, "viewer.html", *d)
}

// slotPage looks up the slot a page is for. It renders the 404 page itself (and returns nil
// data) when there is no such slot.
func (p *Pages) slotPage(c echo.Context) (*viewerData, error) {
	if c.Param("username") == "api" {
		// /api/<unknown>: an API client gets the JSON 404, not the page.
		return nil, echo.NewHTTPError(http.StatusNotFound, "Not found")
	}
	u, ms, err := httpapi.ChannelSlot(c.Request().Context(), p.st, c.Param("username"), c.Param("slot"))
	var he *echo.HTTPError
	if errors.As(err, &he) && he.Code == http.StatusNotFound {
		return nil, p.render(c, http.StatusNotFound, "notfound.html", map[string]any{"Message": he.Message})
	}
	if err != nil {
		return nil, err
	}
	s := vibe.SettingsFromBroadcast(ms.BroadcastSettings)
	return &viewerData{Username: u.Username, SlotID: ms.ID, SlotSlug: ms.Slug, Title: ms.Title, WidgetTitle: s.WidgetTitle}, nil
}

func (p *Pages) render(c echo.Context, status int, name string, data any) error {
	var buf bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.HTMLBlob(status, buf.Bytes())
}

func (p *Pages) serveStatic(c echo.Context) error {
	f, ok := p.static[c.Param("*")]
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, "Not found")
	}
	h := c.Response().Header()
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "public, max-age=300")
	if c.Request().Header.Get("If-None-Match") == f.etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, f.contentType, f.body)
}
