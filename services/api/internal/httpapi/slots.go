package httpapi

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// Slot rules.
const MaxTitleChars = 120

var (
	slugRE    = regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
	digitsRE  = regexp.MustCompile(`^[0-9]+$`)
	msgNoSlot = "Managed stream not found"
)

// ValidSlug reports what is wrong with a slot slug ("" when it is acceptable). An all-digit
// slug is refused because slot URLs accept a numeric id in the same place.
func ValidSlug(slug string) string {
	switch {
	case !slugRE.MatchString(slug):
		return "slug must be 1 to 64 characters: lowercase letters, digits or -"
	case digitsRE.MatchString(slug):
		return "slug must contain a letter or -"
	}
	return ""
}

type createSlotRequest struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

type slotView struct {
	ID           int64     `json:"id"`
	Slug         string    `json:"slug"`
	Title        string    `json:"title"`
	LiveStreamID *int64    `json:"live_stream_id"`
	LastSeq      int64     `json:"last_seq"`
	ViewerPath   string    `json:"viewer_path"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

func viewSlot(ms store.ManagedStream, owner string) slotView {
	return slotView{
		ID: ms.ID, Slug: ms.Slug, Title: ms.Title, LiveStreamID: ms.LiveStreamID, LastSeq: ms.LastSeq,
		ViewerPath: "/" + owner + "/" + ms.Slug, CreatedAt: ms.CreatedAt.UTC(), UpdatedAt: ms.UpdatedAt.UTC(),
	}
}

func (s *Server) createSlot(c echo.Context) error {
	var in createSlotRequest
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	slug := strings.TrimSpace(in.Slug)
	if msg := ValidSlug(slug); msg != "" {
		return echo.NewHTTPError(http.StatusBadRequest, msg)
	}
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = slug
	}
	if utf8.RuneCountInString(title) > MaxTitleChars || strings.ContainsFunc(title, isControl) {
		return echo.NewHTTPError(http.StatusBadRequest, "title must be at most 120 printable characters")
	}
	settings, err := vibe.BroadcastWithSettings(nil, vibe.DefaultSettings())
	if err != nil {
		return err
	}
	p := principal(c)
	ctx := c.Request().Context()
	ms, err := s.Store.CreateManagedStream(ctx, p.UserID, slug, title, settings)
	if errors.Is(err, store.ErrConflict) {
		return echo.NewHTTPError(http.StatusConflict, "You already have a slot with this slug")
	}
	if err != nil {
		return err
	}
	s.Metrics.slotsCreated.Inc()
	s.Logger.InfoContext(ctx, "slot created", "user_id", p.UserID, "managed_stream_id", ms.ID, "slug", ms.Slug)
	return c.JSON(http.StatusCreated, viewSlot(ms, p.Username))
}

func (s *Server) listSlots(c echo.Context) error {
	p := principal(c)
	list, err := s.Store.ListManagedStreams(c.Request().Context(), p.UserID)
	if err != nil {
		return err
	}
	out := make([]slotView, 0, len(list))
	for _, ms := range list {
		out = append(out, viewSlot(ms, p.Username))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"managed_streams": out})
}

func (s *Server) getSlot(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, struct {
		slotView
		Settings vibe.Settings `json:"settings"`
	}{viewSlot(ms, principal(c).Username), vibe.SettingsFromBroadcast(ms.BroadcastSettings)})
}

// ownedSlot loads the :id slot if the caller owns it; any other case is the same 404.
func (s *Server) ownedSlot(c echo.Context) (store.ManagedStream, error) {
	id, err := parseID(c.Param("id"), msgNoSlot)
	if err != nil {
		return store.ManagedStream{}, err
	}
	ms, err := s.Store.ManagedStreamByID(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && ms.UserID != principal(c).UserID) {
		return store.ManagedStream{}, echo.NewHTTPError(http.StatusNotFound, msgNoSlot)
	}
	return ms, err
}

type liveView struct {
	ManagedStreamID int64      `json:"managed_stream_id"`
	LiveStreamID    int64      `json:"live_stream_id"`
	StartedAt       time.Time  `json:"started_at"`
	EndedAt         *time.Time `json:"ended_at,omitempty"`
}

func (s *Server) goLive(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	ls, started, err := s.Store.StartLiveStream(ctx, ms.ID, s.Now())
	if err != nil {
		return err
	}
	status := http.StatusOK
	if started {
		status = http.StatusCreated
		s.Logger.InfoContext(ctx, "slot went live", "managed_stream_id", ms.ID, "live_stream_id", ls.ID)
	}
	return c.JSON(status, liveView{ManagedStreamID: ms.ID, LiveStreamID: ls.ID, StartedAt: ls.StartedAt.UTC()})
}

func (s *Server) endLive(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	ls, err := s.Store.EndLiveStream(ctx, ms.ID, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		return echo.NewHTTPError(http.StatusConflict, "Managed stream is not live")
	}
	if err != nil {
		return err
	}
	s.Logger.InfoContext(ctx, "slot live stream ended", "managed_stream_id", ms.ID, "live_stream_id", ls.ID)
	return c.JSON(http.StatusOK, liveView{ManagedStreamID: ms.ID, LiveStreamID: ls.ID, StartedAt: ls.StartedAt.UTC(), EndedAt: utcPtr(ls.EndedAt)})
}
