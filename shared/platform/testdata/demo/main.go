// Command demo is a minimal binary built on platform.Main and platform.Serve, used by the
// platform package's process tests.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/shared/platform"
)

type config struct {
	platform.Common
	Secret string `env:"DEMO_SECRET,required" secret:"true"`
}

func (c config) Validate() error { return c.Common.Validate() }

type service struct{ log *slog.Logger }

func (s service) Register(e *echo.Echo) {
	e.GET("/hello", func(c echo.Context) error { return c.String(200, "hello") })
}

func (s service) Run(ctx context.Context) error { <-ctx.Done(); return nil }

func (s service) Shutdown(ctx context.Context) error {
	s.log.InfoContext(ctx, "demo service shutdown")
	return nil
}

func main() { platform.Exec(run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var cfg config
	app := platform.App{
		Name: "demo", Version: "0.0.1", Config: &cfg,
		Serve: func(ctx context.Context, log *slog.Logger) error {
			opts := cfg.ServeOptions()
			opts.Logger = log
			opts.Registry = prometheus.NewRegistry()
			opts.Services = []platform.Service{service{log}}
			opts.OnListen = func(addr string) { fmt.Fprintln(stdout, "listening on", addr) }
			return platform.Serve(ctx, opts)
		},
	}
	return platform.Main(ctx, app, args, getenv, stdout, stderr)
}
