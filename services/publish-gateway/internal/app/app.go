// Package app wires the publish-gateway binary: configuration, store, broker, authentication,
// the sanitizer and the HTTP server. It is wiring code and holds no logic of its own.
package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/vibe"
)

// Config is the publish-gateway binary's configuration.
type Config struct {
	platform.Common
	Backends backends.Config
	Gateway  gateway.Config
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Add(c.Backends.Validate())
	p.Add(c.Gateway.Validate())
	return p.Err()
}

// Migrate applies the database migrations.
func Migrate(ctx context.Context, cfg *Config, log *slog.Logger) error {
	return backends.Migrate(ctx, cfg.Backends.DatabaseURL, log)
}

// Serve runs the gateway until ctx ends, with a PostgreSQL pool sized for its batch writers.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) error {
	san, err := vibe.NewSanitizer()
	if err != nil {
		return fmt.Errorf("sanitizer: %w", err)
	}
	bc := cfg.Backends
	bc.DatabaseURL = gateway.DatabaseURL(bc.DatabaseURL, cfg.Gateway)
	return backends.Serve(ctx, cfg.Common, bc, log, func(b *backends.Backends, reg prometheus.Registerer) (platform.Service, error) {
		return gateway.New(gateway.Deps{
			Store: b.Store, Broker: b.Broker, Auth: b.Auth, Sanitizer: san,
			Logger: log, Registerer: reg, Config: cfg.Gateway,
		})
	})
}
