// Package backends opens what every platform service shares — the store, the broker and the
// authenticator — from one configuration block, so each binary wires them the same way.
package backends

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
)

// Config is the environment every service reads for its backends.
type Config struct {
	DatabaseURL    string        `env:"OPENVIBE_DATABASE_URL"`
	RedisURL       string        `env:"OPENVIBE_REDIS_URL"`
	JWTSecret      string        `env:"OPENVIBE_JWT_SECRET" secret:"true"`
	JWTIssuer      string        `env:"OPENVIBE_JWT_ISSUER" envDefault:"openvibe.live"`
	JWTAudience    string        `env:"OPENVIBE_JWT_AUDIENCE" envDefault:"openvibe.live"`
	JWTTTL         time.Duration `env:"OPENVIBE_JWT_TTL" envDefault:"168h"`
	MigrateOnStart bool          `env:"OPENVIBE_MIGRATE_ON_START" envDefault:"false"`
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	p.Check(c.DatabaseURL != "", "OPENVIBE_DATABASE_URL: required (postgres://… or a SQLite path)")
	if c.RedisURL != "" {
		p.Add(platform.CheckURL("OPENVIBE_REDIS_URL", c.RedisURL, "redis", "rediss", "unix"))
	}
	p.Check(len(c.JWTSecret) >= auth.MinSecretBytes, "OPENVIBE_JWT_SECRET: required, at least %d bytes", auth.MinSecretBytes)
	p.Check(c.JWTIssuer != "", "OPENVIBE_JWT_ISSUER: must not be empty")
	p.Check(c.JWTAudience != "", "OPENVIBE_JWT_AUDIENCE: must not be empty")
	p.Add(platform.CheckPositive("OPENVIBE_JWT_TTL", c.JWTTTL))
	return p.Err()
}

// Backends are the opened shared dependencies of a service.
type Backends struct {
	Store  store.Store
	Broker broker.Broker
	JWT    *auth.JWT
	Auth   *auth.Authenticator
}

// Open opens the store (migrating it first when MigrateOnStart is set), the broker (its
// metrics registered with reg) and the authenticator. On error everything opened so far is
// closed.
func Open(ctx context.Context, c Config, log *slog.Logger, reg prometheus.Registerer) (*Backends, error) {
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(c.JWTSecret), Issuer: c.JWTIssuer, Audience: c.JWTAudience, TTL: c.JWTTTL})
	if err != nil {
		return nil, fmt.Errorf("session tokens: %w", err)
	}
	st, err := stores.Open(ctx, c.DatabaseURL, stores.Options{Migrate: c.MigrateOnStart, Logger: log})
	if err != nil {
		return nil, err
	}
	br, err := brokers.OpenWith(ctx, c.RedisURL, brokers.Options{Logger: log, Registerer: reg})
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	return &Backends{Store: st, Broker: br, JWT: jwt, Auth: auth.NewAuthenticator(st, jwt, nil)}, nil
}

// Serve is the `serve` subcommand of a service that runs on the backends alone: it opens
// them, builds the service on them (its metrics registered with reg), and serves it with
// the common options until ctx ends, ready while the store and the broker answer. The
// backends are closed after the server stops.
func Serve(ctx context.Context, common platform.Common, c Config, log *slog.Logger,
	build func(b *Backends, reg prometheus.Registerer) (platform.Service, error)) (err error) {
	reg := prometheus.NewRegistry()
	b, err := Open(ctx, c, log, reg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, b.Close()) }()
	svc, err := build(b, reg)
	if err != nil {
		return err
	}
	opts := common.ServeOptions()
	opts.Logger = log
	opts.Registry = reg
	opts.Services = []platform.Service{svc}
	opts.Ready = b.Checks()
	return platform.Serve(ctx, opts)
}

// Migrate applies the store's migrations and closes it: the `migrate` subcommand.
func Migrate(ctx context.Context, databaseURL string, log *slog.Logger) error {
	if databaseURL == "" {
		return errors.New("OPENVIBE_DATABASE_URL: required")
	}
	st, err := stores.Open(ctx, databaseURL, stores.Options{Migrate: true, Logger: log})
	if err != nil {
		return err
	}
	return st.Close()
}

// Checks are the readiness checks of the backends.
func (b *Backends) Checks() []platform.Check {
	return []platform.Check{{Name: "store", Fn: b.Store.Ping}, {Name: "broker", Fn: b.Broker.Ping}}
}

// Close closes the broker, then the store (the shutdown order).
func (b *Backends) Close() error {
	return errors.Join(b.Broker.Close(), b.Store.Close())
}
