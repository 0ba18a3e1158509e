// Package runner is the openvibe agent server: it builds the session engine, its store and
// tools from injected dependencies and serves the HTTP API (under a prefix, /agent by
// default) as a platform.Service.
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/platform"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/livepublish"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/store/postgres"
	"openvibe.live/backend/services/agent-runner/internal/store/sqlite"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// Authenticator resolves a bearer credential (platform JWT or hbt_ token).
type Authenticator interface {
	Authenticate(ctx context.Context, bearer string) (auth.Principal, error)
}

// Scope is the API token scope that may drive the runner.
const Scope = "agent"

// LocalUserID owns the sessions of a local (password) server.
const LocalUserID int64 = 1

// Deps are what a Runner is built from.
type Deps struct {
	Logger     *slog.Logger
	Registerer prometheus.Registerer // nil: metrics are not registered anywhere

	// Database is where the runner keeps its state: a SQLite file (or "sqlite:" URL) or a
	// postgres:// URL; ignored when Store is set.
	Database string
	Store    store.Store

	// Auth verifies platform credentials; LocalPassword instead accepts one shared secret
	// (a local `openvibe serve`). At least one is required.
	Auth          Authenticator
	LocalPassword string

	// WorkspaceRoot confines every session directory; with PerUserWorkspace each user gets
	// WorkspaceRoot/<user id>. Empty means no confinement (local use only).
	WorkspaceRoot    string
	PerUserWorkspace bool

	// Config: the global config file, whether project files are trusted (may use ${ENV}
	// and configure providers), the default model and the environment.
	GlobalConfig string
	TrustProject bool
	DefaultModel string
	Getenv       func(string) string

	// Backend, when set, serves every model (tests and demos).
	Backend llm.Backend

	// Bwrap is the bubblewrap binary used to sandbox bash ("" runs bash unsandboxed);
	// SandboxNetwork lets sandboxed commands use the network.
	Bwrap          string
	SandboxNetwork bool
	// SandboxReadOnly are extra paths sandboxed commands may read.
	SandboxReadOnly []string

	// AllowPrivateNetwork lets web_fetch and session links reach loopback and private
	// addresses (a single user's own machine).
	AllowPrivateNetwork bool
	// PublishAllowed are gateways a session may be linked to whatever their address (URLs
	// or host:port): the platform's own, on a private network.
	PublishAllowed []string

	// Prefix is the path prefix of every route (default "/agent").
	Prefix string

	// SnapshotDir keeps the turn snapshots (default ~/.openvibe/snapshots).
	SnapshotDir string
	// Publish, when set, streams every session to this slot.
	Publish *PublishTarget
	// Version is reported to MCP servers and the publish gateway.
	Version string
}

// Runner is the agent server.
type Runner struct {
	d       Deps
	log     *slog.Logger
	store   store.Store
	ownsDB  bool
	bus     *bus.Bus
	engine  *engine.Engine
	tools   *tool.Registry
	loader  config.Loader
	models  *modelCache
	catalog catalogCache
	metrics *metrics
	mcp     *mcpServers
	snaps   *turnSnapshots
	links   *livepublish.Manager

	closing   chan struct{}
	closeOnce sync.Once
	closeErr  error
}

var _ platform.Service = (*Runner)(nil)

// New builds a Runner: opens (and migrates) the store, registers the built-in tools and
// restores permission requests that were pending at the last shutdown.
func New(ctx context.Context, d Deps) (*Runner, error) {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Getenv == nil {
		d.Getenv = os.Getenv
	}
	if d.Prefix == "" {
		d.Prefix = "/agent"
	}
	if d.Auth == nil && d.LocalPassword == "" {
		return nil, errors.New("runner: an authenticator or a local password is required")
	}
	if d.Bwrap != "" {
		if _, err := exec.LookPath(d.Bwrap); err != nil {
			return nil, fmt.Errorf("runner: sandbox: %w", err)
		}
	}
	r := &Runner{d: d, log: d.Logger, bus: bus.New(), closing: make(chan struct{}),
		loader:  config.Loader{Global: d.GlobalConfig, TrustProject: d.TrustProject, Getenv: d.Getenv},
		metrics: newMetrics(d.Registerer)}
	r.models = newModelCache(r)
	r.catalog.entries = map[string]catalogEntry{}
	if d.WorkspaceRoot != "" {
		abs, err := filepath.Abs(d.WorkspaceRoot)
		if err != nil {
			return nil, fmt.Errorf("runner: workspace root: %w", err)
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("runner: workspace root: %w", err)
		}
		r.d.WorkspaceRoot = abs
	}
	gcfg, err := r.loader.Load("")
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	r.store = d.Store
	if r.store == nil {
		if d.Database == "" {
			return nil, errors.New("runner: a database path is required")
		}
		st, err := openStore(ctx, d.Database, d.Logger)
		if err != nil {
			return nil, fmt.Errorf("runner: %w", err)
		}
		r.store, r.ownsDB = st, true
	}
	r.tools, err = tool.NewRegistry(tool.Builtins(tool.Options{AllowPrivateFetch: d.AllowPrivateNetwork})...)
	if err != nil {
		r.Close()
		return nil, err
	}
	if r.snaps, err = newTurnSnapshots(d.SnapshotDir, d.Logger, r.bus, r.store); err != nil {
		r.Close()
		return nil, fmt.Errorf("runner: %w", err)
	}
	r.links = livepublish.New(livepublish.Options{Bus: r.bus, Logger: d.Logger, Version: d.Version})
	if d.Publish != nil {
		if _, err := r.links.Link(livepublish.ScopeAll, *d.Publish, livepublish.LinkOptions{}); err != nil {
			r.Close()
			return nil, fmt.Errorf("runner: publish link: %w", err)
		}
	}
	if r.mcp, err = newMCPServers(ctx, d.Logger, d.Version, r.tools, gcfg.MCP); err != nil {
		r.Close()
		return nil, fmt.Errorf("runner: %w", err)
	}
	shell := &tool.Shell{}
	if d.Bwrap != "" {
		shell.Sandbox = &tool.Sandbox{Bwrap: d.Bwrap, Network: d.SandboxNetwork, ReadOnly: d.SandboxReadOnly}
	}
	r.engine = engine.New(engine.Deps{Store: r.store, Bus: r.bus, Tools: r.sessionTools, Shell: shell, Logger: d.Logger,
		Settings: r.settings, Models: r.models.resolve, Root: r.root, Turns: r.snaps})
	if err := r.engine.Recover(ctx); err != nil {
		r.Close()
		return nil, fmt.Errorf("runner: restore permission requests: %w", err)
	}
	return r, nil
}

// openStore opens PostgreSQL for postgres:// URLs, else SQLite.
func openStore(ctx context.Context, url string, log *slog.Logger) (store.Store, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return postgres.Open(ctx, url, log)
	}
	return sqlite.Open(ctx, url, log)
}

// root is the directory a user's sessions are confined to.
func (r *Runner) root(owner int64) string {
	if r.d.WorkspaceRoot == "" {
		return ""
	}
	if !r.d.PerUserWorkspace {
		return r.d.WorkspaceRoot
	}
	dir := filepath.Join(r.d.WorkspaceRoot, strconv.FormatInt(owner, 10))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.log.Error("create user workspace", "owner_id", owner, "error", err)
	}
	return dir
}

// SetLocalPassword sets the password a local server accepts; call it before serving.
func (r *Runner) SetLocalPassword(pw string) { r.d.LocalPassword = pw }

// Engine exposes the session engine to the CLI in this module.
func (r *Runner) Engine() *engine.Engine { return r.engine }

// Store exposes the store to the CLI in this module.
func (r *Runner) Store() store.Store { return r.store }

// Bus exposes the event bus to the CLI in this module.
func (r *Runner) Bus() *bus.Bus { return r.bus }

// Run waits for ctx to end; turns run on the engine's own goroutines.
func (r *Runner) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}

// Shutdown ends SSE streams and stops running turns: permission requests that were waiting
// stay stored and can be answered after a restart.
func (r *Runner) Shutdown(ctx context.Context) error {
	r.closeOnce.Do(func() { close(r.closing) })
	err := r.engine.Close(ctx)
	r.closeParts(ctx) // after the turns: their last events are flushed to the gateway
	return err
}

// closeParts stops the publishing links and the MCP servers.
func (r *Runner) closeParts(ctx context.Context) {
	if r.links != nil {
		r.links.Close(ctx)
	}
	if r.mcp != nil {
		r.mcp.close()
	}
}

// Close shuts down (if not yet) and closes the store the runner opened.
func (r *Runner) Close() error {
	select {
	case <-r.closing:
	default:
		r.closeOnce.Do(func() { close(r.closing) })
		ctx, cancel := context.WithTimeout(context.Background(), defaultCloseWait)
		if r.engine != nil {
			_ = r.engine.Close(ctx)
		}
		r.closeParts(ctx)
		cancel()
	}
	if r.ownsDB && r.store != nil {
		r.closeErr = r.store.Close()
		r.ownsDB = false
	}
	return r.closeErr
}

type metrics struct {
	prompts     *prometheus.CounterVec
	replies     *prometheus.CounterVec
	sseClients  prometheus.Gauge
	sseDropped  prometheus.Counter
	sessionsNew prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	f := promauto.With(reg)
	return &metrics{
		prompts: f.NewCounterVec(prometheus.CounterOpts{Name: "openvibe_agent_prompts_total",
			Help: "Prompts accepted, by mode (async or wait)."}, []string{"mode"}),
		replies: f.NewCounterVec(prometheus.CounterOpts{Name: "openvibe_agent_permission_replies_total",
			Help: "Permission replies, by decision."}, []string{"decision"}),
		sseClients: f.NewGauge(prometheus.GaugeOpts{Name: "openvibe_agent_sse_clients",
			Help: "Connected SSE event streams."}),
		sseDropped: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_agent_sse_dropped_events_total",
			Help: "Events dropped for SSE clients that read too slowly."}),
		sessionsNew: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_agent_sessions_created_total",
			Help: "Sessions created (forks included)."}),
	}
}
