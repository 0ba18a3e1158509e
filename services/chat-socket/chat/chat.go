// Package chat is the stream chat WebSocket: viewers join a slot's room and receive its
// vibe-coding frames (delayed, projected and encoded once per slot by internal/room) next to
// ordinary chat, which logged-in viewers can send. New builds it from injected dependencies as
// a platform.Service, so the chat-socket binary, the standalone binary and tests compose it
// the same way.
package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"openvibe.live/backend/services/chat-socket/internal/room"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store"
)

// Route is the viewer socket's path.
const Route = "/ws/chat/:username/:slot"

// Deps are the chat socket's collaborators.
type Deps struct {
	Store      store.Store
	Broker     broker.Broker
	Auth       *auth.Authenticator
	Logger     *slog.Logger
	Registerer prometheus.Registerer
	// Now is the clock (time.Now when nil).
	Now    func() time.Time
	Config Config
}

// Server is the chat socket service.
type Server struct {
	store   store.Store
	broker  broker.Broker
	auth    *auth.Authenticator
	log     *slog.Logger
	now     func() time.Time
	cfg     Config
	metrics *room.Metrics
	chatMsg prometheus.Counter
	hub     *room.Hub
	marker  *room.Marker
	slots   *slotCache
	streams *streamCache

	conns platform.Conns[*connection] // viewer connections

	mu       sync.Mutex // guards limiters
	limiters map[int64]*userLimiter
}

type userLimiter struct {
	lim  *rate.Limiter
	seen time.Time
}

// New builds the service.
func New(d Deps) (*Server, error) {
	var problems []error
	if d.Store == nil || d.Broker == nil || d.Auth == nil {
		problems = append(problems, errors.New("chat: Store, Broker and Auth are required"))
	}
	if err := d.Config.Validate(); err != nil {
		problems = append(problems, fmt.Errorf("chat config: %w", err))
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
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
	cfg := d.Config
	m := room.NewMetrics(d.Registerer)
	s := &Server{
		store: d.Store, broker: d.Broker, auth: d.Auth, log: d.Logger, now: d.Now, cfg: cfg,
		metrics:  m,
		slots:    newSlotCache(d.Store, d.Now),
		streams:  newStreamCache(d.Store, d.Now),
		limiters: map[int64]*userLimiter{},
	}
	s.chatMsg = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "openvibe_chat_messages_total", Help: "Chat messages stored and broadcast.",
	})
	if err := d.Registerer.Register(s.chatMsg); err != nil {
		return nil, err
	}
	s.marker = room.NewMarker(d.Store, cfg.MarkInterval, d.Logger, m)
	s.hub = room.NewHub(room.HubDeps{
		Store: d.Store, Broker: d.Broker, Marker: s.marker, Metrics: m, Logger: d.Logger, Now: d.Now,
		Config: room.Config{
			ResumeLimit:     cfg.ResumeLimit,
			ChatHistory:     cfg.ChatHistory,
			RefreshInterval: cfg.RefreshInterval,
			RetryInterval:   cfg.RetryInterval,
			StoreTimeout:    5 * time.Second,
			FetchPage:       500,
			Linger:          cfg.RoomLinger,
			MaxReplayBytes:  cfg.SendQueueBytes / 2,
		},
	})
	return s, nil
}

// Register mounts the viewer socket and the original platform's chat socket.
func (s *Server) Register(e *echo.Echo) {
	e.GET(Route, s.handleSocket)
	e.GET(OriginalRoute, s.handleOriginalSocket)
}

// Run writes first delivery times and forgets idle rate limiters until ctx ends.
func (s *Server) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	wg.Go(func() { s.marker.Run(ctx) })
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for n := 0; ; n++ {
		select {
		case <-t.C:
			s.cutStalledWrites(time.Now())
			if n%60 == 0 {
				s.sweepLimiters(s.now().Add(-5 * time.Minute))
			}
		case <-ctx.Done():
			wg.Wait()
			return nil
		}
	}
}

// Shutdown closes every viewer socket with 1001 and stops the rooms.
func (s *Server) Shutdown(ctx context.Context) error {
	s.conns.Close(func(cc *connection) { cc.v.Kill(closeGoingAway, reasonShutdown) })
	var err error
	if s.conns.Wait(ctx) != nil {
		err = errors.New("chat: viewer sockets still open at the shutdown deadline")
	}
	s.hub.Close()
	return err
}

func (s *Server) allowChat(userID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.limiters[userID]
	if l == nil {
		l = &userLimiter{lim: rate.NewLimiter(rate.Limit(s.cfg.ChatRate), s.cfg.ChatBurst)}
		s.limiters[userID] = l
	}
	l.seen = s.now()
	return l.lim.AllowN(l.seen, 1)
}

func (s *Server) sweepLimiters(idleSince time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, l := range s.limiters {
		if l.seen.Before(idleSince) {
			delete(s.limiters, id)
		}
	}
}

// cutStalledWrites closes viewers whose current write has been blocked for longer than
// WriteTimeout (4008 slow). One sweep per second replaces a timer per write.
func (s *Server) cutStalledWrites(now time.Time) {
	limit := now.Add(-s.cfg.WriteTimeout).UnixNano()
	var stalled []*connection
	s.conns.Each(func(cc *connection) {
		if t := cc.writeStart.Load(); t != 0 && t < limit {
			stalled = append(stalled, cc)
		}
	})
	for _, cc := range stalled {
		cc.v.Kill(room.CloseSlow, room.ReasonSlow)
		_ = cc.conn.CloseNow() // unblocks the write
	}
}
