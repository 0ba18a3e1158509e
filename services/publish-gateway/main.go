// Command publish-gateway serves the publisher WebSocket (GET /ws/vibe-coding/publish): it
// authenticates publishers, sanitizes and stores their events, publishes them to the broker
// for the chat-socket, and acks them.
package main

import (
	"context"
	"io"
	"log/slog"

	"openvibe.live/backend/services/publish-gateway/internal/app"
	"openvibe.live/backend/shared/platform"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() { platform.Exec(run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg := &app.Config{}
	return platform.Main(ctx, platform.App{
		Name:    "publish-gateway",
		Version: version,
		Config:  cfg,
		Serve:   func(ctx context.Context, log *slog.Logger) error { return app.Serve(ctx, cfg, log) },
		Migrate: func(ctx context.Context, log *slog.Logger) error { return app.Migrate(ctx, cfg, log) },
	}, args, getenv, stdout, stderr)
}
