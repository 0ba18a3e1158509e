// Package app wires the api binary: configuration, store, broker, authentication and the
// HTTP server. It is wiring code and holds no logic of its own.
package app

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
)

// Config is the api binary's configuration.
type Config struct {
	platform.Common
	Backends backends.Config
	API      api.Config
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Add(c.Backends.Validate())
	p.Add(c.API.Validate())
	return p.Err()
}

// Migrate applies the database migrations.
func Migrate(ctx context.Context, cfg *Config, log *slog.Logger) error {
	return backends.Migrate(ctx, cfg.Backends.DatabaseURL, log)
}

// Serve runs the api until ctx ends.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) error {
	return backends.Serve(ctx, cfg.Common, cfg.Backends, log, func(b *backends.Backends, reg prometheus.Registerer) (platform.Service, error) {
		return api.New(api.Deps{
			Store: b.Store, Broker: b.Broker, Auth: b.Auth, JWT: b.JWT,
			Logger: log, Registerer: reg, Config: cfg.API,
		})
	})
}
