package runner

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/livepublish"
	"openvibe.live/backend/services/agent-runner/internal/snapshot"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// Events the snapshot routes publish.
const (
	EventReverted   = "session.reverted"
	EventUnreverted = "session.unreverted"
)

// turnSnapshots records the project before and after every turn (the engine's turn hooks)
// and publishes each turn's diff.
type turnSnapshots struct {
	log     *slog.Logger
	bus     *bus.Bus
	store   store.Store
	tracker *snapshot.Tracker
}

func newTurnSnapshots(dir string, log *slog.Logger, b *bus.Bus, st store.Store) (*turnSnapshots, error) {
	objects, err := snapshot.New(dir)
	if err != nil {
		return nil, err
	}
	tr, err := snapshot.NewTracker(objects)
	if err != nil {
		return nil, err
	}
	return &turnSnapshots{log: log, bus: b, store: st, tracker: tr}, nil
}

// TurnStarted snapshots the project before a turn (engine hook). A failure is logged: a turn
// never fails because its snapshot did.
func (t *turnSnapshots) TurnStarted(ctx context.Context, s store.Session, userMessageID string) {
	p, err := t.store.GetProject(ctx, s.ProjectID)
	if err == nil {
		err = t.tracker.Begin(ctx, s.ID, userMessageID, p.Worktree)
	}
	if err != nil {
		t.log.WarnContext(ctx, "snapshot before the turn failed", "session_id", s.ID, "error", err)
	}
}

// TurnEnded snapshots the project after a turn and publishes the turn's diff.
func (t *turnSnapshots) TurnEnded(ctx context.Context, s store.Session, userMessageID string) {
	d, err := t.tracker.End(context.WithoutCancel(ctx), s.ID, userMessageID)
	if err != nil {
		t.log.WarnContext(ctx, "snapshot after the turn failed", "session_id", s.ID, "error", err)
		return
	}
	t.bus.Publish(bus.Event{Type: livepublish.EventDiff, SessionID: s.ID, OwnerID: s.OwnerID,
		Properties: livepublish.TurnDiff{MessageID: userMessageID, Directory: s.Directory, Changes: d.Changes}})
}

func (r *Runner) sessionSnapshots(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	l, err := r.snaps.tracker.Log(s.ID)
	if err != nil {
		return err
	}
	if l.Turns == nil {
		l.Turns = []snapshot.Turn{}
	}
	return c.JSON(http.StatusOK, l)
}

func (r *Runner) revertSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	var b struct {
		MessageID string `json:"message_id"`
	}
	if err := bind(c, &b); err != nil {
		return err
	}
	if b.MessageID == "" {
		return echo.NewHTTPError(http.StatusBadRequest, "message_id is required")
	}
	if r.engine.Busy(s.ID) {
		return r.apiError(c, engine.ErrBusy)
	}
	rv, err := r.snaps.tracker.Revert(c.Request().Context(), s.ID, b.MessageID)
	if errors.Is(err, snapshot.ErrNoTurn) {
		return echo.NewHTTPError(http.StatusNotFound, "no snapshot for that message: revert takes the id of a user message that started a turn")
	}
	if err != nil {
		return err
	}
	r.bus.Publish(bus.Event{Type: EventReverted, SessionID: s.ID, OwnerID: s.OwnerID, Properties: rv})
	return c.JSON(http.StatusOK, rv)
}

func (r *Runner) unrevertSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	if r.engine.Busy(s.ID) {
		return r.apiError(c, engine.ErrBusy)
	}
	d, err := r.snaps.tracker.Unrevert(c.Request().Context(), s.ID)
	if errors.Is(err, snapshot.ErrNotReverted) {
		return echo.NewHTTPError(http.StatusConflict, err.Error())
	}
	if err != nil {
		return err
	}
	r.bus.Publish(bus.Event{Type: EventUnreverted, SessionID: s.ID, OwnerID: s.OwnerID, Properties: d})
	return c.JSON(http.StatusOK, d)
}

func (r *Runner) undoSession(c echo.Context) error { return r.step(c, r.snaps.tracker.Undo) }

func (r *Runner) redoSession(c echo.Context) error { return r.step(c, r.snaps.tracker.Redo) }

// step moves the session's revert point by one turn, back (undo) or forward (redo).
func (r *Runner) step(c echo.Context, move func(context.Context, string) (snapshot.Revert, error)) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	if r.engine.Busy(s.ID) {
		return r.apiError(c, engine.ErrBusy)
	}
	rv, err := move(c.Request().Context(), s.ID)
	if errors.Is(err, snapshot.ErrNothingToUndo) || errors.Is(err, snapshot.ErrNotReverted) {
		return echo.NewHTTPError(http.StatusConflict, err.Error())
	}
	if err != nil {
		return err
	}
	typ := EventReverted
	if rv.MessageID == "" {
		typ = EventUnreverted
	}
	r.bus.Publish(bus.Event{Type: typ, SessionID: s.ID, OwnerID: s.OwnerID, Properties: rv})
	return c.JSON(http.StatusOK, rv)
}
