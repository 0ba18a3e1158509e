// Command api serves the OpenVibe.Live REST API (accounts, API tokens, slots, the vibe-coding
// feed, history and settings, retract and panic) and the viewer and studio web pages.
package main

import (
	"context"
	"io"
	"log/slog"

	"openvibe.live/backend/services/api/internal/app"
	"openvibe.live/backend/shared/platform"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() { platform.Exec(run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg := &app.Config{}
	return platform.Main(ctx, platform.App{
		Name:    "api",
		Version: version,
		Config:  cfg,
		Serve:   func(ctx context.Context, log *slog.Logger) error { return app.Serve(ctx, cfg, log) },
		Migrate: func(ctx context.Context, log *slog.Logger) error { return app.Migrate(ctx, cfg, log) },
	}, args, getenv, stdout, stderr)
}
