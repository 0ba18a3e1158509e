// Package app wires the chat-socket binary: configuration, store, broker, authentication and
// the HTTP server. It is wiring code and holds no logic of its own.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/chat-socket/internal/rlimit"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store/stores"
)

// Config is the chat-socket binary's configuration.
type Config struct {
	platform.Common
	DatabaseURL    string `env:"OPENVIBE_DATABASE_URL"`
	RedisURL       string `env:"OPENVIBE_REDIS_URL"`
	JWTSecret      string `env:"OPENVIBE_JWT_SECRET" secret:"true"`
	JWTIssuer      string `env:"OPENVIBE_JWT_ISSUER" envDefault:"openvibe.live"`
	JWTAudience    string `env:"OPENVIBE_JWT_AUDIENCE" envDefault:"openvibe.live"`
	MigrateOnStart bool   `env:"OPENVIBE_MIGRATE_ON_START" envDefault:"false"`
	Chat           chat.Config
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Check(c.DatabaseURL != "", "OPENVIBE_DATABASE_URL: required (postgres://… or a SQLite path)")
	if c.RedisURL != "" {
		p.Add(platform.CheckURL("OPENVIBE_REDIS_URL", c.RedisURL, "redis", "rediss"))
	}
	p.Check(len(c.JWTSecret) >= auth.MinSecretBytes, "OPENVIBE_JWT_SECRET: required, at least %d bytes", auth.MinSecretBytes)
	p.Check(c.JWTIssuer != "", "OPENVIBE_JWT_ISSUER: required")
	p.Check(c.JWTAudience != "", "OPENVIBE_JWT_AUDIENCE: required")
	p.Add(c.Chat.Validate())
	return p.Err()
}

// Migrate applies the database migrations.
func Migrate(ctx context.Context, cfg *Config, log *slog.Logger) error {
	st, err := stores.Open(ctx, cfg.DatabaseURL, stores.Options{Migrate: true, Logger: log})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return st.Close()
}

// Serve runs the chat socket until ctx ends.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) (err error) {
	if n, err := rlimit.RaiseFiles(); err != nil {
		log.WarnContext(ctx, "raise open-file limit", "error", err)
	} else {
		log.InfoContext(ctx, "open-file limit", "limit", n)
	}
	st, err := stores.Open(ctx, cfg.DatabaseURL, stores.Options{Migrate: cfg.MigrateOnStart, Logger: log})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	br, err := brokers.Open(ctx, cfg.RedisURL, log)
	if err != nil {
		return fmt.Errorf("open broker: %w", err)
	}
	defer func() { err = errors.Join(err, br.Close()) }()
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(cfg.JWTSecret), Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, TTL: time.Hour})
	if err != nil {
		return fmt.Errorf("session tokens: %w", err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	svc, err := chat.New(chat.Deps{
		Store: st, Broker: br, Auth: auth.NewAuthenticator(st, jwt, time.Now),
		Logger: log, Registerer: reg, Config: cfg.Chat,
	})
	if err != nil {
		return err
	}
	opts := cfg.Common.ServeOptions()
	opts.Logger = log
	opts.Registry = reg
	opts.Services = []platform.Service{svc}
	opts.Ready = []platform.Check{{Name: "store", Fn: st.Ping}, {Name: "broker", Fn: br.Ping}}
	return platform.Serve(ctx, opts)
}
