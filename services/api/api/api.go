// Package api builds the OpenVibe.Live api service: accounts and sessions, API tokens,
// managed stream slots, the vibe-coding REST endpoints (public feed, owner history, settings,
// retract, panic) and the viewer and owner web pages.
//
// The service is composed from injected dependencies so that the api binary, the standalone
// binary and tests can all run it on their own echo instance.
package api

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/api/internal/httpapi"
	"openvibe.live/backend/services/api/internal/ratelimit"
	"openvibe.live/backend/services/api/internal/web"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store"
)

// Config holds the api service's own settings. Every field has an OPENVIBE_API_… variable
// whose envDefault tag is its default. New takes a Config as given (a rate of 0 turns that
// limit off): start from DefaultConfig to change a few fields.
type Config struct {
	UserWritesPerMinute   int           `env:"OPENVIBE_API_USER_WRITES_PER_MINUTE" envDefault:"120"`
	UserWriteBurst        int           `env:"OPENVIBE_API_USER_WRITE_BURST" envDefault:"30"`
	IPWritesPerMinute     int           `env:"OPENVIBE_API_IP_WRITES_PER_MINUTE" envDefault:"300"`
	IPWriteBurst          int           `env:"OPENVIBE_API_IP_WRITE_BURST" envDefault:"60"`
	AuthAttemptsPerMinute int           `env:"OPENVIBE_API_AUTH_ATTEMPTS_PER_MINUTE" envDefault:"20"`
	AuthAttemptBurst      int           `env:"OPENVIBE_API_AUTH_ATTEMPT_BURST" envDefault:"10"`
	TrustProxyHeaders     bool          `env:"OPENVIBE_API_TRUST_PROXY_HEADERS" envDefault:"false"`
	PanicMargin           time.Duration `env:"OPENVIBE_API_PANIC_MARGIN" envDefault:"2s"`
	FeedMaxAge            time.Duration `env:"OPENVIBE_API_FEED_MAX_AGE" envDefault:"1s"`
	// EventRetention deletes vibe-coding events older than this (0 keeps them forever),
	// checked every RetentionInterval.
	EventRetention    time.Duration `env:"OPENVIBE_API_EVENT_RETENTION" envDefault:"0s"`
	RetentionInterval time.Duration `env:"OPENVIBE_API_RETENTION_INTERVAL" envDefault:"1h"`
}

// DefaultConfig returns the defaults the env tags declare.
func DefaultConfig() Config { return platform.Defaults[Config]() }

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	for _, v := range []struct {
		name string
		n    int
	}{
		{"OPENVIBE_API_USER_WRITES_PER_MINUTE", c.UserWritesPerMinute}, {"OPENVIBE_API_USER_WRITE_BURST", c.UserWriteBurst},
		{"OPENVIBE_API_IP_WRITES_PER_MINUTE", c.IPWritesPerMinute}, {"OPENVIBE_API_IP_WRITE_BURST", c.IPWriteBurst},
		{"OPENVIBE_API_AUTH_ATTEMPTS_PER_MINUTE", c.AuthAttemptsPerMinute}, {"OPENVIBE_API_AUTH_ATTEMPT_BURST", c.AuthAttemptBurst},
	} {
		p.Check(v.n >= 0, "%s: must not be negative", v.name)
	}
	p.Check(c.PanicMargin >= 0 && c.PanicMargin <= time.Minute, "OPENVIBE_API_PANIC_MARGIN: must be between 0 and 1m")
	p.Check(c.FeedMaxAge >= 0 && c.FeedMaxAge <= time.Minute, "OPENVIBE_API_FEED_MAX_AGE: must be between 0 and 1m")
	p.Check(c.EventRetention == 0 || c.EventRetention >= time.Hour, "OPENVIBE_API_EVENT_RETENTION: must be 0 (keep forever) or at least 1h")
	p.Check(c.EventRetention <= 0 || c.RetentionInterval > 0, "OPENVIBE_API_RETENTION_INTERVAL: must be positive")
	return p.Err()
}

// Deps are what the service needs from its host.
type Deps struct {
	Store      store.Store
	Broker     broker.Broker
	Auth       *auth.Authenticator
	JWT        *auth.JWT
	Logger     *slog.Logger          // discarded when nil
	Registerer prometheus.Registerer // a private registry when nil
	// Now is the clock (time.Now when nil); tests inject one to step through delay windows.
	Now    func() time.Time
	Config Config
}

// API is the api service.
type API struct {
	httpapi   *httpapi.Server
	pages     *web.Pages
	retention *retention
}

var _ platform.Service = (*API)(nil)

// New builds the service.
func New(d Deps) (*API, error) {
	if err := d.Config.Validate(); err != nil {
		return nil, fmt.Errorf("api config: %w", err)
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
	srv, err := httpapi.New(httpapi.Options{
		Store: d.Store, Broker: d.Broker, Auth: d.Auth, JWT: d.JWT, Logger: d.Logger,
		Metrics: httpapi.NewMetrics(d.Registerer), Now: d.Now,
		UserWrites:        ratelimit.New(cfg.UserWritesPerMinute, cfg.UserWriteBurst),
		IPWrites:          ratelimit.New(cfg.IPWritesPerMinute, cfg.IPWriteBurst),
		AuthAttempts:      ratelimit.New(cfg.AuthAttemptsPerMinute, cfg.AuthAttemptBurst),
		TrustProxyHeaders: cfg.TrustProxyHeaders,
		PanicMargin:       cfg.PanicMargin,
		FeedMaxAge:        cfg.FeedMaxAge,
	})
	if err != nil {
		return nil, err
	}
	pages, err := web.New(d.Store, d.Logger)
	if err != nil {
		return nil, err
	}
	return &API{httpapi: srv, pages: pages, retention: newRetention(d, cfg)}, nil
}

// Register mounts the JSON API under /api and the web pages.
func (a *API) Register(e *echo.Echo) {
	a.httpapi.Register(e)
	a.pages.Register(e)
}

// Run runs the retention pruner (when retention is configured) until ctx ends.
func (a *API) Run(ctx context.Context) error {
	a.retention.run(ctx)
	return nil
}

// Shutdown has nothing to flush: every request finishes within HTTP shutdown.
func (a *API) Shutdown(context.Context) error { return nil }
