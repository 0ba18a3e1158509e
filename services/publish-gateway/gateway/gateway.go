// Package gateway is the publish-gateway service: the publisher WebSocket
// (GET /ws/vibe-coding/publish) that authenticates a publisher, checks that it owns the slot,
// sanitizes and stores every event before acking it, and publishes stored events to the
// broker for the chat-socket to deliver.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// PublishPath is the publisher WebSocket route.
const PublishPath = "/ws/vibe-coding/publish"

// Deps are the gateway's collaborators. Store, Broker, Auth and Sanitizer are required.
type Deps struct {
	Store      store.Store
	Broker     broker.Broker
	Auth       *auth.Authenticator
	Sanitizer  *vibe.Sanitizer
	Logger     *slog.Logger          // nil: discard
	Registerer prometheus.Registerer // nil: a private registry
	Now        func() time.Time      // nil: time.Now
	Config     Config
}

// Gateway is the publish-gateway service; it implements platform.Service.
type Gateway struct {
	st     store.Store
	br     broker.Broker
	auth   *auth.Authenticator
	san    *vibe.Sanitizer
	log    *slog.Logger
	met    *metrics
	cfg    Config
	now    func() time.Time
	writer *batchWriter
	slots  *slotRegistry

	sessions sessionRefs
	conns    platform.Conns[*conn]
}

var _ platform.Service = (*Gateway)(nil)

// New builds the gateway from its dependencies.
func New(d Deps) (*Gateway, error) {
	var missing []error
	if d.Store == nil {
		missing = append(missing, errors.New("gateway: Store is required"))
	}
	if d.Broker == nil {
		missing = append(missing, errors.New("gateway: Broker is required"))
	}
	if d.Auth == nil {
		missing = append(missing, errors.New("gateway: Auth is required"))
	}
	if d.Sanitizer == nil {
		missing = append(missing, errors.New("gateway: Sanitizer is required"))
	}
	if err := d.Config.Validate(); err != nil {
		missing = append(missing, fmt.Errorf("gateway config: %w", err))
	}
	if len(missing) > 0 {
		return nil, errors.Join(missing...)
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Registerer == nil {
		d.Registerer = prometheus.NewRegistry()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	met := newMetrics(d.Registerer)
	g := &Gateway{
		st: d.Store, br: d.Broker, auth: d.Auth, san: d.Sanitizer,
		log: d.Logger, met: met, cfg: d.Config, now: d.Now,
		writer:   newBatchWriter(d.Store, d.Broker, d.Logger, met, d.Config, d.Now),
		slots:    newSlotRegistry(d.Store, d.Broker, d.Logger, met, d.Config),
		sessions: sessionRefs{n: map[int64]int{}},
	}
	return g, nil
}

// Register mounts the publisher socket.
func (g *Gateway) Register(e *echo.Echo) {
	e.GET(PublishPath, g.handlePublish)
}

// Run runs the batch writer and the idle-session reaper until ctx ends, then stores and
// answers every event still queued before returning.
func (g *Gateway) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	wg.Go(g.writer.run)
	wg.Go(func() { g.reap(ctx) })
	<-ctx.Done()
	stopCtx, cancel := context.WithTimeout(context.Background(), g.cfg.StoreTimeout+g.cfg.PublishTimeout+5*time.Second)
	defer cancel()
	err := g.writer.stop(stopCtx)
	wg.Wait()
	return err
}

// Shutdown stops taking connections and events, answers every event in flight (acked once
// stored, or refused with an error), closes each publisher socket with 1001, and stops the
// slot watchers. Connections still open when ctx ends are dropped.
func (g *Gateway) Shutdown(ctx context.Context) error {
	g.conns.Close(func(c *conn) { c.requestClose(closeRequest{code: closeGoingAway, reason: closeShutdown}) })
	var err error
	if werr := g.conns.Wait(ctx); werr != nil {
		g.conns.Each(func(c *conn) { c.requestClose(closeRequest{abort: true}) })
		_ = g.conns.Wait(context.Background()) // an aborted connection returns at once
		err = fmt.Errorf("closing publisher connections: %w", werr)
	}
	g.slots.close()
	return err
}

// reap ends sessions that have shown no sign of life for IdleSessionTimeout: those of a
// gateway that crashed. Live connections refresh their sessions well within that time.
func (g *Gateway) reap(ctx context.Context) {
	t := time.NewTicker(g.cfg.ReapInterval)
	defer t.Stop()
	for {
		g.reapOnce(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (g *Gateway) reapOnce(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.StoreTimeout)
	defer cancel()
	now := g.now()
	n, err := g.st.EndIdleVibeSessions(ctx, now.Add(-g.cfg.IdleSessionTimeout), now)
	if err != nil {
		if ctx.Err() == nil {
			g.log.Warn("ending idle sessions failed", "error", err)
		}
		return
	}
	if n > 0 {
		g.met.sessionsReaped.Add(float64(n))
		g.log.Info("ended idle sessions", "count", n)
	}
}

// sessionRefs counts this gateway's connections per session, so a session is ended only
// when the last connection using it closes (a publisher may reconnect before the old
// connection is noticed dead).
type sessionRefs struct {
	mu sync.Mutex
	n  map[int64]int
}

func (s *sessionRefs) acquire(id int64) {
	s.mu.Lock()
	s.n[id]++
	s.mu.Unlock()
}

// release reports whether id is no longer used by any connection.
func (s *sessionRefs) release(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n[id]--
	if s.n[id] > 0 {
		return false
	}
	delete(s.n, id)
	return true
}

// eventSanitizer is what a connection needs of a vibe.SessionSanitizer.
type eventSanitizer interface {
	SanitizeEvent(ev vibe.Event) vibe.Event
	SanitizeNormalized(n vibe.Normalized) vibe.Normalized
}

func (g *Gateway) sessionSanitizer(p vibe.Publisher) eventSanitizer {
	return g.san.NewSession(vibe.SessionHints{WorkspaceName: p.WorkspaceName, MachineName: p.MachineName})
}
