// Package httpapi holds the api service's JSON endpoints: accounts, API tokens, slots, the
// public vibe-coding feed, the owner's history and settings, retract and panic.
package httpapi

import (
	"errors"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/singleflight"

	"openvibe.live/backend/services/api/internal/ratelimit"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/store"
)

// Options configure a Server.
type Options struct {
	Store   store.Store
	Broker  broker.Broker
	Auth    *auth.Authenticator
	JWT     *auth.JWT
	Logger  *slog.Logger
	Metrics *Metrics
	Now     func() time.Time

	UserWrites   *ratelimit.Limiter // per user, on every authenticated write
	IPWrites     *ratelimit.Limiter // per client IP, on every write
	AuthAttempts *ratelimit.Limiter // per client IP, on register and login

	// TrustProxyHeaders takes the client IP from X-Forwarded-For / X-Real-IP.
	TrustProxyHeaders bool
	// PanicMargin widens the panic button's withholding window beyond the slot's delay, to
	// cover events stored while the request was in flight and clock skew between replicas.
	PanicMargin time.Duration
	// FeedMaxAge is the public feed's Cache-Control max-age.
	FeedMaxAge time.Duration
}

// Server serves the JSON API.
type Server struct {
	Options
	feeds singleflight.Group // public feed computations in flight, by feed
}

// New checks opts.
func New(opts Options) (*Server, error) {
	var errs []error
	if opts.Store == nil {
		errs = append(errs, errors.New("httpapi: store is required"))
	}
	if opts.Broker == nil {
		errs = append(errs, errors.New("httpapi: broker is required"))
	}
	if opts.Auth == nil {
		errs = append(errs, errors.New("httpapi: authenticator is required"))
	}
	if opts.JWT == nil {
		errs = append(errs, errors.New("httpapi: jwt is required"))
	}
	if opts.Logger == nil {
		errs = append(errs, errors.New("httpapi: logger is required"))
	}
	if opts.Metrics == nil {
		errs = append(errs, errors.New("httpapi: metrics are required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Server{Options: opts}, nil
}

// Register mounts the routes.
func (s *Server) Register(e *echo.Echo) {
	g := e.Group("/api")
	authed := s.authenticate
	session := s.requireSession
	publish := s.requireScope(store.ScopeVibeCodingPublish)
	ipw, userw := s.limitIPWrites, s.limitUserWrites

	g.POST("/auth/register", s.register, s.limitAuthAttempts)
	g.POST("/auth/login", s.login, s.limitAuthAttempts)
	g.POST("/auth/logout", s.logout)
	g.GET("/me", s.me, authed)

	g.POST("/tokens", s.createToken, ipw, authed, session, userw)
	g.GET("/tokens", s.listTokens, authed, session)
	g.DELETE("/tokens/:id", s.revokeToken, ipw, authed, session, userw)

	g.POST("/managed-streams", s.createSlot, ipw, authed, publish, userw)
	g.GET("/managed-streams", s.listSlots, authed)
	g.GET("/managed-streams/:id", s.getSlot, authed)
	g.POST("/managed-streams/:id/live", s.goLive, ipw, authed, publish, userw)
	g.DELETE("/managed-streams/:id/live", s.endLive, ipw, authed, publish, userw)

	g.GET("/vibe-coding/channel/:username/:slot/events", s.publicFeed)
	g.GET("/vibe-coding/managed/:id/events", s.history, authed)
	g.GET("/vibe-coding/managed/:id/settings", s.getSettings, authed)
	g.PUT("/vibe-coding/managed/:id/settings", s.putSettings, ipw, authed, publish, userw)
	g.DELETE("/vibe-coding/managed/:id/events/:eventId", s.retract, ipw, authed, publish, userw)
	// The panic button is never rate limited: it must work when the streamer needs it most.
	g.POST("/vibe-coding/managed/:id/panic", s.panicButton, authed, publish)

	// The original platform's owner and chat flows, for its clients.
	g.GET("/streams/broadcast-settings", s.getBroadcastSettings, authed)
	g.PUT("/streams/broadcast-settings", s.putBroadcastSettings, ipw, authed, publish, userw)
	g.GET("/chat/:streamId/history", s.chatHistory)
}
