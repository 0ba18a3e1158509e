package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/compaction"
	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/livepublish"
	"openvibe.live/backend/services/agent-runner/internal/netguard"
	"openvibe.live/backend/services/agent-runner/internal/snapshot"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// Events the snapshot routes publish.
const (
	EventReverted   = "session.reverted"
	EventUnreverted = "session.unreverted"
)

// PublishTarget is a slot on an OpenVibe.Live publish gateway that sessions are streamed to.
type PublishTarget = livepublish.Target

// extras are the runner's MCP servers, turn snapshots and live publishing links.
type extras struct {
	log     *slog.Logger
	bus     *bus.Bus
	store   store.Store
	mcp     *mcpServers
	tracker *snapshot.Tracker
	links   *livepublish.Manager
}

type extrasOptions struct {
	Logger      *slog.Logger
	Bus         *bus.Bus
	Store       store.Store
	Tools       *tool.Registry
	MCP         map[string]config.MCPServer
	SnapshotDir string
	Version     string
	Publish     *PublishTarget
}

func newExtras(ctx context.Context, o extrasOptions) (*extras, error) {
	x := &extras{log: o.Logger, bus: o.Bus, store: o.Store}
	st, err := snapshot.New(o.SnapshotDir)
	if err != nil {
		return nil, err
	}
	if x.tracker, err = snapshot.NewTracker(st); err != nil {
		return nil, err
	}
	x.links = livepublish.New(livepublish.Options{Bus: o.Bus, Logger: o.Logger, Version: o.Version})
	if o.Publish != nil {
		if _, err := x.links.Link(livepublish.ScopeAll, *o.Publish, livepublish.LinkOptions{}); err != nil {
			return nil, fmt.Errorf("publish link: %w", err)
		}
	}
	if x.mcp, err = newMCPServers(ctx, o.Logger, o.Version, o.Tools, o.MCP); err != nil {
		x.links.Close(ctx)
		return nil, err
	}
	return x, nil
}

func (x *extras) close(ctx context.Context) {
	x.links.Close(ctx)
	x.mcp.close()
}

// TurnStarted snapshots the project before a turn (engine hook). A failure is logged: a turn
// never fails because its snapshot did.
func (x *extras) TurnStarted(ctx context.Context, s store.Session, userMessageID string) {
	p, err := x.store.GetProject(ctx, s.ProjectID)
	if err == nil {
		err = x.tracker.Begin(ctx, s.ID, userMessageID, p.Worktree)
	}
	if err != nil {
		x.log.WarnContext(ctx, "snapshot before the turn failed", "session_id", s.ID, "error", err)
	}
}

// TurnEnded snapshots the project after a turn and publishes the turn's diff.
func (x *extras) TurnEnded(ctx context.Context, s store.Session, userMessageID string) {
	d, err := x.tracker.End(context.WithoutCancel(ctx), s.ID, userMessageID)
	if err != nil {
		x.log.WarnContext(ctx, "snapshot after the turn failed", "session_id", s.ID, "error", err)
		return
	}
	x.bus.Publish(bus.Event{Type: livepublish.EventDiff, SessionID: s.ID, OwnerID: s.OwnerID,
		Properties: livepublish.TurnDiff{MessageID: userMessageID, Directory: s.Directory, Changes: d.Changes}})
}

func (r *Runner) registerExtras(g *echo.Group) {
	g.GET("/mcp", r.mcpStatus)
	g.POST("/session/:id/compact", r.compactSession)
	g.GET("/session/:id/snapshot", r.sessionSnapshots)
	g.POST("/session/:id/revert", r.revertSession)
	g.POST("/session/:id/unrevert", r.unrevertSession)
	g.POST("/session/:id/undo", r.undoSession)
	g.POST("/session/:id/redo", r.redoSession)
	g.GET("/session/:id/link", r.getLink)
	g.PUT("/session/:id/link", r.putLink)
	g.DELETE("/session/:id/link", r.deleteLink)
	g.GET("/link", r.listLinks)
}

// mcpStatus shows the shared servers and those running for the caller's directories.
func (r *Runner) mcpStatus(c echo.Context) error {
	root := r.root(principal(c).UserID)
	return c.JSON(http.StatusOK, r.x.mcp.status(func(dir string) bool { return root == "" || tool.Within(root, dir) }))
}

// sessionTools are the tools a turn of s may use: the built-ins and the MCP servers of its
// project's effective configuration (engine hook).
func (r *Runner) sessionTools(ctx context.Context, s store.Session, worktree string) ([]tool.Tool, error) {
	cfg, err := r.loader.Load(worktree)
	if err != nil {
		return nil, err
	}
	return r.x.mcp.sessionTools(ctx, s.Directory, cfg.MCP)
}

func (r *Runner) compactSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	m, err := r.engine.Compact(c.Request().Context(), s, compaction.Config{})
	switch {
	case errors.Is(err, compaction.ErrNothingToCompact), errors.Is(err, compaction.ErrNoProgress):
		return echo.NewHTTPError(http.StatusConflict, err.Error())
	case err != nil:
		return r.apiError(c, err)
	}
	return c.JSON(http.StatusOK, m)
}

func (r *Runner) sessionSnapshots(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	l, err := r.x.tracker.Log(s.ID)
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
	rv, err := r.x.tracker.Revert(c.Request().Context(), s.ID, b.MessageID)
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
	d, err := r.x.tracker.Unrevert(c.Request().Context(), s.ID)
	if errors.Is(err, snapshot.ErrNotReverted) {
		return echo.NewHTTPError(http.StatusConflict, err.Error())
	}
	if err != nil {
		return err
	}
	r.bus.Publish(bus.Event{Type: EventUnreverted, SessionID: s.ID, OwnerID: s.OwnerID, Properties: d})
	return c.JSON(http.StatusOK, d)
}

func (r *Runner) undoSession(c echo.Context) error { return r.step(c, r.x.tracker.Undo) }

func (r *Runner) redoSession(c echo.Context) error { return r.step(c, r.x.tracker.Redo) }

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

func (r *Runner) getLink(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	st, ok := r.x.links.Get(s.ID)
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, "the session is not linked to a slot")
	}
	return c.JSON(http.StatusOK, st)
}

func (r *Runner) putLink(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	var t PublishTarget
	if err := bind(c, &t); err != nil {
		return err
	}
	if err := t.Validate(); err != nil {
		return r.badRequest(c, err)
	}
	policy := r.publishPolicy(c)
	if err := policy.Check(c.Request().Context(), t.Server); err != nil {
		return r.badRequest(c, fmt.Errorf("server: %w", err))
	}
	st, err := r.x.links.Link(s.ID, t, livepublish.LinkOptions{Roots: []string{s.Directory}, HTTPClient: policy.Client()})
	if err != nil {
		return r.badRequest(c, err)
	}
	return c.JSON(http.StatusOK, st)
}

// publishPolicy is where a session link may connect: public addresses, the gateways the
// operator allowed, and the server the request came in on (in the standalone binary the
// gateway shares the runner's listener; reaching it again exposes nothing new).
func (r *Runner) publishPolicy(c echo.Context) netguard.Policy {
	p := netguard.Policy{AllowPrivate: r.d.AllowPrivateNetwork, Allowed: r.d.PublishAllowed}
	if a, ok := c.Request().Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		p = p.With(a.String())
	}
	return p
}

func (r *Runner) deleteLink(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	if !r.x.links.Unlink(s.ID) {
		return echo.NewHTTPError(http.StatusNotFound, "the session is not linked to a slot")
	}
	return c.NoContent(http.StatusNoContent)
}

// listLinks shows the caller's session links, and the runner-wide link to the local user.
func (r *Runner) listLinks(c echo.Context) error {
	p := principal(c)
	out := []livepublish.Status{}
	for _, st := range r.x.links.Status() {
		if st.Scope == livepublish.ScopeAll {
			if p.UserID == LocalUserID && p.Username == "local" {
				out = append(out, st)
			}
			continue
		}
		s, err := r.store.GetSession(c.Request().Context(), st.Scope)
		if err == nil && s.OwnerID == p.UserID {
			out = append(out, st)
		}
	}
	return c.JSON(http.StatusOK, out)
}
