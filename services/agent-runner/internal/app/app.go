// Package app wires the agent-runner service binary: configuration, the platform store for
// authentication, the runner and the HTTP server. It is wiring code and holds no logic of
// its own.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store/stores"

	"openvibe.live/backend/services/agent-runner/internal/tool"
	"openvibe.live/backend/services/agent-runner/runner"
)

// Config is the agent-runner binary's configuration.
type Config struct {
	platform.Common
	DatabaseURL    string `env:"OPENVIBE_DATABASE_URL"`
	JWTSecret      string `env:"OPENVIBE_JWT_SECRET" secret:"true"`
	JWTIssuer      string `env:"OPENVIBE_JWT_ISSUER" envDefault:"openvibe.live"`
	JWTAudience    string `env:"OPENVIBE_JWT_AUDIENCE" envDefault:"openvibe.live"`
	MigrateOnStart bool   `env:"OPENVIBE_MIGRATE_ON_START" envDefault:"false"`
	Agent          Agent
}

// Agent holds the runner's own settings.
type Agent struct {
	Database       string `env:"OPENVIBE_AGENT_DATABASE" envDefault:"data/agent.db"`
	WorkspaceRoot  string `env:"OPENVIBE_AGENT_WORKSPACE_ROOT" envDefault:"data/workspaces"`
	ConfigFile     string `env:"OPENVIBE_AGENT_CONFIG"`
	Model          string `env:"OPENVIBE_AGENT_MODEL"`
	Sandbox        string `env:"OPENVIBE_AGENT_SANDBOX" envDefault:"auto"`
	SandboxNetwork bool   `env:"OPENVIBE_AGENT_SANDBOX_NETWORK" envDefault:"false"`
	// SandboxReadOnly are extra paths sandboxed commands may read (a toolchain or module cache).
	SandboxReadOnly []string `env:"OPENVIBE_AGENT_SANDBOX_READONLY" envSeparator:","`
	TrustProject    bool     `env:"OPENVIBE_AGENT_TRUST_PROJECT_CONFIG" envDefault:"false"`
	Prefix          string   `env:"OPENVIBE_AGENT_PREFIX" envDefault:"/agent"`
	// SnapshotDir keeps turn snapshots; empty means ~/.openvibe/snapshots.
	SnapshotDir string `env:"OPENVIBE_AGENT_SNAPSHOT_DIR"`
	// Publishing every session to one slot (all four empty: off).
	PublishServer   string `env:"OPENVIBE_AGENT_PUBLISH_SERVER"`
	PublishToken    string `env:"OPENVIBE_AGENT_PUBLISH_TOKEN" secret:"true"`
	PublishStreamID int64  `env:"OPENVIBE_AGENT_PUBLISH_STREAM_ID"`
	PublishSlot     string `env:"OPENVIBE_AGENT_PUBLISH_SLOT"`
	// PublishAllowedServers are gateways a session may be linked to although their address
	// is private (the platform's own); other private addresses are refused.
	PublishAllowedServers []string `env:"OPENVIBE_AGENT_PUBLISH_ALLOWED_SERVERS" envSeparator:","`
}

// publishTarget is the runner-wide publishing link, or nil when not configured.
func (a Agent) publishTarget() *runner.PublishTarget {
	if a.PublishServer == "" && a.PublishToken == "" && a.PublishStreamID == 0 {
		return nil
	}
	return &runner.PublishTarget{Server: a.PublishServer, Token: a.PublishToken, ManagedStreamID: a.PublishStreamID, SlotSlug: a.PublishSlot}
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Check(c.DatabaseURL != "", "OPENVIBE_DATABASE_URL: required (the platform database holding accounts and API tokens)")
	p.Check(len(c.JWTSecret) >= auth.MinSecretBytes, "OPENVIBE_JWT_SECRET: required, at least %d bytes", auth.MinSecretBytes)
	p.Check(c.Agent.Database != "", "OPENVIBE_AGENT_DATABASE: required")
	p.Check(c.Agent.WorkspaceRoot != "", "OPENVIBE_AGENT_WORKSPACE_ROOT: required")
	p.Add(platform.CheckOneOf("OPENVIBE_AGENT_SANDBOX", c.Agent.Sandbox, "auto", "bwrap", "none"))
	if t := c.Agent.publishTarget(); t != nil {
		if err := t.Validate(); err != nil {
			p.Check(false, "OPENVIBE_AGENT_PUBLISH_*: %v", err)
		}
	}
	return p.Err()
}

// Migrate applies the runner's schema (and the platform's when asked to on start).
func Migrate(ctx context.Context, cfg *Config, log *slog.Logger) error {
	r, err := runner.New(ctx, runner.Deps{Logger: log, Database: cfg.Agent.Database, LocalPassword: "migrate-only",
		WorkspaceRoot: cfg.Agent.WorkspaceRoot})
	if err != nil {
		return fmt.Errorf("migrate agent database: %w", err)
	}
	return r.Close()
}

// Sandbox resolves the sandbox setting to a bwrap path ("" for none). "auto" uses bwrap
// when it is installed and can create namespaces here.
func Sandbox(ctx context.Context, mode string, log *slog.Logger) (string, error) {
	if mode == "none" {
		return "", nil
	}
	path, err := exec.LookPath("bwrap")
	if err == nil {
		err = (&tool.Sandbox{Bwrap: path}).Probe(ctx)
	}
	if err != nil {
		if mode == "bwrap" {
			return "", fmt.Errorf("OPENVIBE_AGENT_SANDBOX=bwrap: %w", err)
		}
		log.WarnContext(ctx, "bash runs unsandboxed with the service's privileges", "reason", err.Error())
		return "", nil
	}
	return path, nil
}

// Serve runs the agent-runner until ctx ends.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) (err error) {
	st, err := stores.Open(ctx, cfg.DatabaseURL, stores.Options{Migrate: cfg.MigrateOnStart, Logger: log})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(cfg.JWTSecret), Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, TTL: time.Hour})
	if err != nil {
		return fmt.Errorf("session tokens: %w", err)
	}
	bwrap, err := Sandbox(ctx, cfg.Agent.Sandbox, log)
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	r, err := runner.New(ctx, runner.Deps{
		Logger: log, Registerer: reg, Database: cfg.Agent.Database,
		Auth:          auth.NewAuthenticator(st, jwt, time.Now),
		WorkspaceRoot: cfg.Agent.WorkspaceRoot, PerUserWorkspace: true,
		GlobalConfig: cfg.Agent.ConfigFile, TrustProject: cfg.Agent.TrustProject, DefaultModel: cfg.Agent.Model,
		Bwrap: bwrap, SandboxNetwork: cfg.Agent.SandboxNetwork, SandboxReadOnly: cfg.Agent.SandboxReadOnly, Prefix: cfg.Agent.Prefix,
		SnapshotDir: cfg.Agent.SnapshotDir, Publish: cfg.Agent.publishTarget(), PublishAllowed: cfg.Agent.PublishAllowedServers,
	})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	opts := cfg.Common.ServeOptions()
	opts.Logger = log
	opts.Registry = reg
	opts.Services = []platform.Service{r}
	opts.Ready = []platform.Check{{Name: "store", Fn: st.Ping}, {Name: "agent_store", Fn: r.Store().Ping}}
	return platform.Serve(ctx, opts)
}
