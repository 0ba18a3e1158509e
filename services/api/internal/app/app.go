// Package app wires the api binary: configuration, store, broker, authentication and the
// HTTP server. It is wiring code, so it is longer than the rest and holds no logic of its own.
package app

import (
	"context"
	"errors"
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
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) (err error) {
	reg := prometheus.NewRegistry()
	b, err := backends.Open(ctx, cfg.Backends, log, reg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, b.Close()) }()
	svc, err := api.New(api.Deps{
		Store: b.Store, Broker: b.Broker, Auth: b.Auth, JWT: b.JWT,
		Logger: log, Registerer: reg, Config: cfg.API,
	})
	if err != nil {
		return err
	}
	opts := cfg.Common.ServeOptions()
	opts.Logger = log
	opts.Registry = reg
	opts.Services = []platform.Service{svc}
	opts.Ready = b.Checks()
	return platform.Serve(ctx, opts)
}
