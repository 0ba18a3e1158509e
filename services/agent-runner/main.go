// Command agent-runner serves openvibe coding-agent sessions over HTTP for platform users
// (JWT or hbt_ tokens with the "agent" scope), each confined to their own workspace.
package main

import (
	"context"
	"io"
	"log/slog"

	"openvibe.live/backend/shared/platform"

	"openvibe.live/backend/services/agent-runner/internal/app"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() { platform.Exec(run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg := &app.Config{}
	return platform.Main(ctx, platform.App{
		Name:    "agent-runner",
		Version: version,
		Config:  cfg,
		Serve:   func(ctx context.Context, log *slog.Logger) error { return app.Serve(ctx, cfg, log) },
		Migrate: func(ctx context.Context, log *slog.Logger) error { return app.Migrate(ctx, cfg, log) },
	}, args, getenv, stdout, stderr)
}
