// Command publish-gateway serves the publisher WebSocket (GET /ws/vibe-coding/publish): it
// authenticates publishers, sanitizes and stores their events, acks them, and publishes them
// to the broker for the chat-socket.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/vibe"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		os.Exit(1)
	}
}

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
	st, err := stores.Open(ctx, cfg.DatabaseURL, stores.Options{Migrate: true, Logger: log})
	if err != nil {
		return err
	}
	return st.Close()
}

// serve wires the gateway from the configuration and runs it until ctx ends. Wiring code,
// longer than most functions on purpose.
func serve(ctx context.Context, cfg *config, log *slog.Logger) error {
	st, err := stores.Open(ctx, gateway.DatabaseURL(cfg.DatabaseURL, cfg.Gateway), stores.Options{Migrate: cfg.MigrateOnStart, Logger: log})
	if err != nil {
		return err
	}
	defer st.Close()
	br, err := brokers.Open(ctx, cfg.RedisURL, log)
	if err != nil {
		return err
	}
	defer br.Close()
	// The gateway only verifies session tokens; TTL matters to the issuer (the api) alone.
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(cfg.JWTSecret), Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, TTL: time.Hour})
	if err != nil {
		return fmt.Errorf("jwt: %w", err)
	}
	san, err := vibe.NewSanitizer()
	if err != nil {
		return fmt.Errorf("sanitizer: %w", err)
	}
	reg := prometheus.NewRegistry()
	gw, err := gateway.New(gateway.Deps{
		Store:     st,
		Broker:    br,
		Auth:      auth.NewAuthenticator(st, jwt, nil),
		Sanitizer: san,
		Logger:    log,
		Registry:  reg,
		Config:    cfg.Gateway,
	})
	if err != nil {
		return err
	}
	opts := cfg.ServeOptions()
	opts.Logger = log
	opts.Registry = reg
	opts.Services = []platform.Service{gw}
	opts.Ready = []platform.Check{{Name: "store", Fn: st.Ping}, {Name: "broker", Fn: br.Ping}}
	return platform.Serve(ctx, opts)
}
