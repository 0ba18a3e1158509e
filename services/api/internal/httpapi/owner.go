package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// Owner history limits.
const (
	DefaultHistoryLimit = 50
	MaxHistoryLimit     = 200
)

// Viewer statuses of a stored event, as the owner history reports them.
const (
	StatusDelivered = "delivered" // a chat-socket delivered it to viewers
	StatusVisible   = "visible"   // past its delay and in the public feed
	StatusPending   = "pending"   // still inside the delay window
	StatusHidden    = "hidden"    // the current settings do not show it
	StatusPrivate   = "private"   // streamer visibility: never shown
	StatusWithheld  = "withheld"  // stored while paused or disabled, or dropped by panic
	StatusRetracted = "retracted" // retracted by the owner
)

type historyEvent struct {
	Seq              int64           `json:"seq"`
	EventID          string          `json:"event_id"`
	EventType        string          `json:"event_type"`
	Visibility       string          `json:"visibility"`
	SessionKey       string          `json:"session_key"`
	LiveStreamID     *int64          `json:"live_stream_id"`
	OccurredAt       *time.Time      `json:"occurred_at"`
	ReceivedAt       time.Time       `json:"received_at"`
	VisibleAt        time.Time       `json:"visible_at"`
	Withheld         bool            `json:"withheld"`
	WithheldReason   *string         `json:"withheld_reason"`
	RetractedAt      *time.Time      `json:"retracted_at"`
	RetractedBy      *userView       `json:"retracted_by"`
	FirstDeliveredAt *time.Time      `json:"first_delivered_at"`
	ViewerStatus     string          `json:"viewer_status"`
	Stored           json.RawMessage `json:"stored"`
	// Normalized is what the gateway mapped onto the canonical model (field → the value
	// sent), null when the event was canonical as sent.
	Normalized json.RawMessage `json:"normalized"`
	Projected  *vibe.Event     `json:"projected"`
}

// MarshalJSON writes the history fields and, beside them, the stored event's own fields
// (eventId, eventType, summary, …), so that an item is also the stored event the original
// platform's owner history returned.
func (h historyEvent) MarshalJSON() ([]byte, error) {
	type plain historyEvent
	own, err := json.Marshal(plain(h))
	if err != nil {
		return nil, err
	}
	var stored, fields map[string]json.RawMessage
	if json.Unmarshal(h.Stored, &stored) != nil || len(stored) == 0 {
		return own, nil
	}
	if err := json.Unmarshal(own, &fields); err != nil {
		return nil, err
	}
	for k, v := range stored {
		if _, taken := fields[k]; !taken {
			fields[k] = v
		}
	}
	return json.Marshal(fields)
}

type historyResponse struct {
	ManagedStream slotRef        `json:"managed_stream"`
	Settings      vibe.Settings  `json:"settings"`
	Events        []historyEvent `json:"events"`
	// NextBefore is the cursor of the next (older) page, null on the last page.
	NextBefore *int64 `json:"next_before"`

	// The original platform's keys: the slot, its live stream, its latest publisher (whole:
	// this is the owner) and what viewers see now.
	ManagedStreamID int64           `json:"managed_stream_id"`
	LiveStreamID    *int64          `json:"live_stream_id"`
	Publisher       *vibe.Publisher `json:"publisher"`
	PublicEvents    []feedEvent     `json:"public_events"`
}

// history lists the slot's stored events, newest first, each beside what viewers see of it
// under the current settings.
func (s *Server) history(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	limit, err := parseLimit(c.QueryParam("limit"), DefaultHistoryLimit, MaxHistoryLimit)
	if err != nil {
		return err
	}
	var before int64
	if raw := c.QueryParam("before"); raw != "" {
		before, err = strconv.ParseInt(raw, 10, 64)
		if err != nil || before < 1 {
			return echo.NewHTTPError(http.StatusBadRequest, "before must be a positive sequence number")
		}
	}
	oldestFirst := false
	switch c.QueryParam("order") {
	case "", "newest":
	case "oldest":
		oldestFirst = true
	default:
		return echo.NewHTTPError(http.StatusBadRequest, "order must be newest or oldest")
	}
	ctx := c.Request().Context()
	rows, err := s.Store.VibeEventsBefore(ctx, ms.ID, before, limit)
	if err != nil {
		return err
	}
	settings := vibe.SettingsFromBroadcast(ms.BroadcastSettings)
	names := map[int64]*userView{}
	out := historyResponse{
		ManagedStream: slotRef{ID: ms.ID, Slug: ms.Slug, Title: ms.Title}, Settings: settings,
		Events: make([]historyEvent, 0, len(rows)), ManagedStreamID: ms.ID, LiveStreamID: ms.LiveStreamID,
	}
	for _, row := range rows {
		h, err := s.historyEvent(ctx, row, settings, names)
		if err != nil {
			return err
		}
		out.Events = append(out.Events, h)
	}
	if len(rows) == limit && rows[len(rows)-1].Seq > 1 {
		next := rows[len(rows)-1].Seq
		out.NextBefore = &next
	}
	if oldestFirst {
		slices.Reverse(out.Events)
	}
	if out.Publisher, err = s.latestPublisher(ctx, ms.ID); err != nil {
		return err
	}
	if out.PublicEvents, err = s.visibleEvents(ctx, ms.ID, settings, min(limit, MaxFeedLimit), s.Now()); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

func (s *Server) historyEvent(ctx context.Context, row store.VibeEvent, st vibe.Settings, names map[int64]*userView) (historyEvent, error) {
	proj, why := viewerView(row, st, s.Now())
	h := historyEvent{
		Seq: row.Seq, EventID: row.EventID, EventType: row.EventType, Visibility: row.Visibility,
		SessionKey: row.SessionKey, LiveStreamID: row.LiveStreamID, OccurredAt: utcPtr(row.OccurredAt),
		ReceivedAt: row.ReceivedAt.UTC(), VisibleAt: vibe.Due(row.ReceivedAt, st).UTC(),
		Withheld: row.Withheld, RetractedAt: utcPtr(row.RetractedAt), FirstDeliveredAt: utcPtr(row.FirstDeliveredAt),
		Stored: row.Payload, Normalized: row.Normalized, Projected: proj, ViewerStatus: viewerStatus(row, why),
	}
	if row.Withheld && row.WithheldReason != "" {
		h.WithheldReason = &row.WithheldReason
	}
	if row.RetractedBy != nil {
		u, ok := names[*row.RetractedBy]
		if !ok {
			user, err := s.Store.UserByID(ctx, *row.RetractedBy)
			switch {
			case err == nil:
				u = &userView{ID: user.ID, Username: user.Username}
			case errors.Is(err, store.ErrNotFound):
				u = &userView{ID: *row.RetractedBy}
			default:
				return historyEvent{}, fmt.Errorf("look up retracting user: %w", err)
			}
			names[*row.RetractedBy] = u
		}
		h.RetractedBy = u
	}
	return h, nil
}

// viewerStatus names for the owner why viewers see, or do not see, the event (why, from
// viewerView); an event a chat socket delivered is delivered unless it was retracted,
// withheld or is streamer-only.
func viewerStatus(row store.VibeEvent, why vibe.Hidden) string {
	switch {
	case why == vibe.HiddenRetracted:
		return StatusRetracted
	case why == vibe.HiddenWithheld:
		return StatusWithheld
	case why == vibe.HiddenStreamer:
		return StatusPrivate
	case row.FirstDeliveredAt != nil:
		return StatusDelivered
	case why == vibe.HiddenPaused || why == vibe.HiddenType:
		return StatusHidden
	case why == vibe.HiddenDelayed:
		return StatusPending
	}
	return StatusVisible
}

type settingsResponse struct {
	ManagedStreamID int64         `json:"managed_stream_id"`
	Settings        vibe.Settings `json:"settings"`
}

func (s *Server) getSettings(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, settingsResponse{ManagedStreamID: ms.ID, Settings: vibe.SettingsFromBroadcast(ms.BroadcastSettings)})
}

type settingsError struct {
	Error  string            `json:"error"`
	Fields map[string]string `json:"fields"`
}

// putSettings applies a partial, strictly validated settings patch and tells the chat
// sockets, so connected viewers follow the change at once.
func (s *Server) putSettings(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	var in struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if len(in.Settings) == 0 || string(in.Settings) == "null" {
		return c.JSON(http.StatusBadRequest, settingsError{Error: "settings is required", Fields: map[string]string{"settings": "is required"}})
	}
	ctx := c.Request().Context()
	next, err := s.updateSettings(ctx, ms.ID, func(cur vibe.Settings) (vibe.Settings, error) {
		return vibe.ApplySettingsPatch(cur, in.Settings)
	})
	var se *vibe.SettingsError
	if errors.As(err, &se) {
		return c.JSON(http.StatusBadRequest, settingsError{Error: se.Error(), Fields: se.Fields})
	}
	if err != nil {
		return err
	}
	s.Metrics.settingsSaved.Inc()
	s.Logger.InfoContext(ctx, "vibe-coding settings saved", "managed_stream_id", ms.ID, "user_id", principal(c).UserID)
	s.publish(ctx, slotbus.Message{Kind: slotbus.KindSettings, SlotID: ms.ID, Settings: &next})
	return c.JSON(http.StatusOK, settingsResponse{ManagedStreamID: ms.ID, Settings: next})
}

// updateSettings changes the slot's vibe-coding settings under the store's row lock.
func (s *Server) updateSettings(ctx context.Context, slotID int64, change func(vibe.Settings) (vibe.Settings, error)) (vibe.Settings, error) {
	var next vibe.Settings
	_, err := s.writeSettings(ctx, slotID, func(cur json.RawMessage) (json.RawMessage, error) {
		n, err := change(vibe.SettingsFromBroadcast(cur))
		if err != nil {
			return nil, err
		}
		next = n
		return vibe.BroadcastWithSettings(cur, n)
	})
	return next, err
}

// retract withdraws one event from viewers: the feed stops returning it, delay queues drop
// it, and connected widgets remove it. The stored row stays for the owner.
func (s *Server) retract(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := principal(c)
	ev, err := s.Store.RetractVibeEvent(ctx, ms.ID, c.Param("eventId"), p.UserID, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, "Event not found")
	}
	if err != nil {
		return err
	}
	s.Metrics.retractions.Inc()
	s.Logger.InfoContext(ctx, "vibe-coding event retracted", "managed_stream_id", ms.ID, "event_id", ev.EventID, "seq", ev.Seq, "user_id", p.UserID)
	s.publish(ctx, slotbus.Message{Kind: slotbus.KindRetract, SlotID: ms.ID, Retract: &slotbus.Retract{Seq: ev.Seq, EventID: ev.EventID}})
	h, err := s.historyEvent(ctx, ev, vibe.SettingsFromBroadcast(ms.BroadcastSettings), map[int64]*userView{})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"event": h})
}

type panicResponse struct {
	ManagedStreamID int64         `json:"managed_stream_id"`
	Settings        vibe.Settings `json:"settings"`
	Withheld        int64         `json:"withheld"`
	WithheldSince   time.Time     `json:"withheld_since"`
	At              time.Time     `json:"at"`
}

// panicButton pauses the slot, then withholds every event that could still be waiting in a
// delay queue (received within the delay plus a margin), then tells every chat socket to drop
// its pending events. Pausing first means the gateway withholds anything stored after this
// point on its own.
func (s *Server) panicButton(c echo.Context) error {
	ms, err := s.ownedSlot(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	now := s.Now()
	next, err := s.updateSettings(ctx, ms.ID, func(cur vibe.Settings) (vibe.Settings, error) {
		cur.Paused = 1
		return cur, nil
	})
	if err != nil {
		return err
	}
	since := now.Add(-time.Duration(next.DelayMs)*time.Millisecond - s.PanicMargin)
	n, err := s.Store.WithholdVibeEvents(ctx, store.Withhold{ManagedStreamID: ms.ID, ReceivedFrom: since, Reason: vibe.WithheldPanic})
	if err != nil {
		return err
	}
	s.Metrics.panics.Inc()
	s.Metrics.withheld.Add(float64(n))
	s.Logger.WarnContext(ctx, "panic button pressed", "managed_stream_id", ms.ID, "user_id", principal(c).UserID, "withheld", n)
	s.publish(ctx, slotbus.Message{Kind: slotbus.KindPanic, SlotID: ms.ID, Panic: &slotbus.Panic{At: now, Since: since, Settings: next}})
	return c.JSON(http.StatusOK, panicResponse{ManagedStreamID: ms.ID, Settings: next, Withheld: n, WithheldSince: since.UTC(), At: now.UTC()})
}

// publish sends a slot message, retrying twice (after 50 ms and 200 ms): retract and panic must reach every chat
// socket now, not at its next store refresh. The store already holds the change, so a broker
// that stays down is logged and counted, not returned: chat sockets reconcile from the store
// after a gap and on their periodic refresh.
func (s *Server) publish(ctx context.Context, m slotbus.Message) {
	err := slotbus.Publish(ctx, s.Broker, m)
	for pause := 50 * time.Millisecond; err != nil && pause <= 200*time.Millisecond; pause *= 4 {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			s.publishFailed(ctx, m, err)
			return
		case <-t.C:
		}
		err = slotbus.Publish(ctx, s.Broker, m)
	}
	if err != nil {
		s.publishFailed(ctx, m, err)
	}
}

func (s *Server) publishFailed(ctx context.Context, m slotbus.Message, err error) {
	s.Metrics.publishErrors.WithLabelValues(m.Kind).Inc()
	s.Logger.ErrorContext(ctx, "publish slot message", "kind", m.Kind, "managed_stream_id", m.SlotID, "error", err)
}
