// Package app wires the chat-socket binary: configuration, store, broker, authentication and
// the HTTP server. It is wiring code and holds no logic of its own.
package app

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/chat-socket/internal/rlimit"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
)

// Config is the chat-socket binary's configuration.
type Config struct {
	platform.Common
	Backends backends.Config
	Chat     chat.Config
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Add(c.Backends.Validate())
	p.Add(c.Chat.Validate())
	return p.Err()
}

// Migrate applies the database migrations.
func Migrate(ctx context.Context, cfg *Config, log *slog.Logger) error {
	return backends.Migrate(ctx, cfg.Backends.DatabaseURL, log)
}

// Serve runs the chat socket until ctx ends.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) error {
	if n, err := rlimit.RaiseFiles(); err != nil {
		log.WarnContext(ctx, "raise open-file limit", "error", err)
	} else {
		log.InfoContext(ctx, "open-file limit", "limit", n)
	}
	return backends.Serve(ctx, cfg.Common, cfg.Backends, log, func(b *backends.Backends, reg prometheus.Registerer) (platform.Service, error) {
		return chat.New(chat.Deps{
			Store: b.Store, Broker: b.Broker, Auth: b.Auth,
			Logger: log, Registerer: reg, Config: cfg.Chat,
		})
	})
}
