// Command publish-gateway serves the publisher WebSocket (GET /ws/vibe-coding/publish): it
// authenticates publishers, sanitizes and stores their events, acks them, and publishes them
// to the broker for the chat-socket.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/vibe"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() { platform.Exec(run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg := &config{}
	return platform.Main(ctx, platform.App{
		Name:    "publish-gateway",
		Version: version,
		Config:  cfg,
		Serve:   func(ctx context.Context, log *slog.Logger) error { return serve(ctx, cfg, log) },
		Migrate: func(ctx context.Context, log *slog.Logger) error { return migrate(ctx, cfg, log) },
	}, args, getenv, stdout, stderr)
}

func migrate(ctx context.Context, cfg *config, log *slog.Logger) error {
	return backends.Migrate(ctx, cfg.Backends.DatabaseURL, log)
}

// serve wires the gateway from the configuration and runs it until ctx ends.
func serve(ctx context.Context, cfg *config, log *slog.Logger) error {
	san, err := vibe.NewSanitizer()
	if err != nil {
		return fmt.Errorf("sanitizer: %w", err)
	}
	bc := cfg.Backends
	bc.DatabaseURL = gateway.DatabaseURL(bc.DatabaseURL, cfg.Gateway)
	return backends.Serve(ctx, cfg.Common, bc, log, func(b *backends.Backends, reg prometheus.Registerer) (platform.Service, error) {
		return gateway.New(gateway.Deps{
			Store:      b.Store,
			Broker:     b.Broker,
			Auth:       b.Auth,
			Sanitizer:  san,
			Logger:     log,
			Registerer: reg,
			Config:     cfg.Gateway,
		})
	})
}
