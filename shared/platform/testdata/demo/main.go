// Command demo is a minimal binary built on platform.Main and platform.Serve, used by the
// platform package's process tests.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var cfg config
	app := platform.App{
		Name: "demo", Version: "0.0.1", Config: &cfg,
		Serve: func(ctx context.Context, log *slog.Logger) error {
			opts := cfg.ServeOptions()
			opts.Logger = log
			opts.Registry = prometheus.NewRegistry()
			opts.Services = []platform.Service{service{log}}
			opts.OnListen = func(addr string) { fmt.Println("listening on", addr) }
			return platform.Serve(ctx, opts)
		},
	}
	if err := platform.Main(ctx, app, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		os.Exit(1)
	}
}
