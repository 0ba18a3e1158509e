package main

import (
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/platform"
)

// config is the binary's configuration, read from the environment.
type config struct {
	platform.Common
	DatabaseURL    string `env:"OPENVIBE_DATABASE_URL"`
	RedisURL       string `env:"OPENVIBE_REDIS_URL"`
	JWTSecret      string `env:"OPENVIBE_JWT_SECRET" secret:"true"`
	JWTIssuer      string `env:"OPENVIBE_JWT_ISSUER" envDefault:"openvibe.live"`
	JWTAudience    string `env:"OPENVIBE_JWT_AUDIENCE" envDefault:"openvibe.live"`
	MigrateOnStart bool   `env:"OPENVIBE_MIGRATE_ON_START" envDefault:"false"`
	Gateway        gateway.Config
}

// Validate reports every invalid setting at once.
func (c *config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Check(c.DatabaseURL != "", "OPENVIBE_DATABASE_URL: required (postgres://… or a SQLite path)")
	if c.RedisURL != "" {
		p.Add(platform.CheckURL("OPENVIBE_REDIS_URL", c.RedisURL, "redis", "rediss", "unix"))
	}
	p.Check(len(c.JWTSecret) >= 32, "OPENVIBE_JWT_SECRET: required, at least 32 bytes")
	p.Check(c.JWTIssuer != "", "OPENVIBE_JWT_ISSUER: must not be empty")
	p.Check(c.JWTAudience != "", "OPENVIBE_JWT_AUDIENCE: must not be empty")
	p.Add(c.Gateway.Validate())
	return p.Err()
}
