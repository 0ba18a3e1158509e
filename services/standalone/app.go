package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/agent-runner/runner"
	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/vibe"
)

type app struct {
	demo   bool
	cfg    *config
	stdout io.Writer
}

func newApp(demo bool, _ func(string) string, stdout io.Writer) *app {
	return &app{demo: demo, cfg: &config{}, stdout: stdout}
}

func (a *app) main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return platform.Main(ctx, platform.App{
		Name:    "openvibe-live",
		Version: version,
		Config:  a.cfg,
		Serve:   a.serve,
		Migrate: a.migrate,
	}, args, getenv, stdout, stderr)
}

func (a *app) migrate(ctx context.Context, log *slog.Logger) error {
	if err := a.cfg.resolve(); err != nil {
		return err
	}
	return backends.Migrate(ctx, a.cfg.Backends.DatabaseURL, log)
}

// serve wires every service onto one server. Wiring code, longer than most functions on purpose.
func (a *app) serve(ctx context.Context, log *slog.Logger) error {
	cfg := a.cfg
	if err := cfg.resolve(); err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	bc := cfg.Backends
	bc.DatabaseURL = gateway.DatabaseURL(bc.DatabaseURL, cfg.Gateway) // room for the batch writers on PostgreSQL
	b, err := backends.Open(ctx, bc, log, reg)
	if err != nil {
		return err
	}
	defer b.Close()
	san, err := vibe.NewSanitizer()
	if err != nil {
		return fmt.Errorf("sanitizer: %w", err)
	}
	gw, err := gateway.New(gateway.Deps{
		Store: b.Store, Broker: b.Broker, Auth: b.Auth, Sanitizer: san,
		Logger: log.With("component", "publish-gateway"), Registerer: reg, Config: cfg.Gateway,
	})
	if err != nil {
		return err
	}
	ch, err := chat.New(chat.Deps{
		Store: b.Store, Broker: b.Broker, Auth: b.Auth,
		Logger: log.With("component", "chat-socket"), Registerer: reg, Config: cfg.Chat,
	})
	if err != nil {
		return err
	}
	ap, err := api.New(api.Deps{
		Store: b.Store, Broker: b.Broker, Auth: b.Auth, JWT: b.JWT,
		Logger: log.With("component", "api"), Registerer: reg, Config: cfg.API,
	})
	if err != nil {
		return err
	}
	bwrap, err := cfg.bwrap()
	if err != nil {
		return err
	}
	ag, err := runner.New(ctx, runner.Deps{
		Logger: log.With("component", "agent-runner"), Registerer: reg, Database: cfg.Agent.Database,
		Auth: b.Auth, WorkspaceRoot: cfg.Agent.WorkspaceRoot, PerUserWorkspace: true,
		GlobalConfig: cfg.Agent.ConfigFile, DefaultModel: cfg.Agent.Model, Bwrap: bwrap,
		PublishAllowed: cfg.Agent.PublishAllowedServers,
	})
	if err != nil {
		return err
	}
	defer ag.Close()
	services := []platform.Service{gw, ch, ap, ag}
	listening := make(chan string, 1)
	if a.demo {
		services = append(services, newDemo(b.Store, b.JWT, san, listening, cfg.DataDir, a.stdout, log.With("component", "demo")))
	}
	opts := cfg.ServeOptions()
	opts.Logger = log
	opts.Registry = reg
	opts.Services = services
	opts.Ready = append(b.Checks(), platform.Check{Name: "agent_store", Fn: ag.Store().Ping})
	opts.OnListen = func(addr string) {
		base := cfg.baseURL(addr)
		printBanner(a.stdout, base, cfg.DataDir, a.demo)
		listening <- base
	}
	return platform.Serve(ctx, opts)
}

func printBanner(w io.Writer, base, dataDir string, demo bool) {
	fmt.Fprintf(w, `
OpenVibe.Live is running at %[1]s   (data in %[2]s)

  Studio (sign up, create a slot and an API token):  %[1]s/studio
  Agent runner API: %[1]s/agent/   (docs/agent-runner.md)
  Health: %[1]s/healthz   Metrics: %[1]s/metrics
`, base, dataDir)
	if demo {
		fmt.Fprintf(w, "\n  Demo mode: the demo account and a scripted publisher start in a moment.\n")
		return
	}
	fmt.Fprintf(w, `
  Or from a terminal:
    curl -s -X POST %[1]s/api/auth/register -H 'Content-Type: application/json' \
      -d '{"username":"ada","password":"correct horse battery"}'        # → {"token": JWT}
    curl -s -X POST %[1]s/api/managed-streams -H "Authorization: Bearer $JWT" \
      -H 'Content-Type: application/json' -d '{"slug":"camp-code","title":"My stream"}'
    curl -s -X POST %[1]s/api/tokens -H "Authorization: Bearer $JWT" \
      -H 'Content-Type: application/json' -d '{"name":"laptop","scopes":["vibe_coding_publish"]}'
  then publish with vibe-publish (see docs/publishers.md) and watch %[1]s/ada/camp-code

  Run with --demo (make demo) for a demo account and a live scripted publisher.

`, base)
}
