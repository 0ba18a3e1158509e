package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/mcp"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

const (
	// mcpConnectWait bounds how long a turn (or the startup) waits for servers to connect.
	mcpConnectWait = 20 * time.Second
	// mcpIdle is how long a directory's servers live without being used.
	mcpIdle = 10 * time.Minute
)

// mcpServers runs the configured MCP servers for sessions. The remote servers of the
// trusted global configuration are shared by every session: connected at startup, their
// tools in the runner's registry. A local server is a process in a session's directory,
// and a project's own servers (or its changes to a global one) are that project's: both run
// per directory, started by the first turn there, stopped after mcpIdle unused and at
// shutdown.
type mcpServers struct {
	log     *slog.Logger
	version string
	base    context.Context
	shared  *mcp.Manager
	global  map[string]mcp.ServerConfig // the shared servers
	tools   *tool.Registry              // built-ins and the shared servers' tools
	now     func() time.Time

	stop chan struct{}
	wg   sync.WaitGroup

	mu   sync.Mutex
	dirs map[string]*dirServers
}

// dirServers are the servers running for one directory.
type dirServers struct {
	dir   string
	key   string // hash of the servers' configurations
	m     *mcp.Manager
	reg   *tool.Registry
	ready chan struct{} // closed once the first connection attempts are over
	inUse int
	used  time.Time
}

func serverConfigs(in map[string]config.MCPServer) map[string]mcp.ServerConfig {
	out := make(map[string]mcp.ServerConfig, len(in))
	for name, s := range in {
		out[name] = mcp.ServerConfig{Type: s.Type, Command: s.Command, Args: s.Args, Environment: s.Env, URL: s.URL,
			Headers: s.Headers, Transport: s.Transport, Enabled: s.Enabled, Timeout: s.Timeout}
	}
	return out
}

// newMCPServers connects the shared (global, remote) servers, registering their tools in reg.
func newMCPServers(ctx context.Context, log *slog.Logger, version string, reg *tool.Registry, global map[string]config.MCPServer) (*mcpServers, error) {
	p := &mcpServers{log: log, version: version, base: context.WithoutCancel(ctx), tools: reg, now: time.Now,
		global: map[string]mcp.ServerConfig{}, stop: make(chan struct{}), dirs: map[string]*dirServers{}}
	for name, c := range serverConfigs(global) {
		if c.Type == mcp.TypeRemote {
			p.global[name] = c
		}
	}
	var err error
	if p.shared, err = mcp.New(mcp.Options{Servers: p.global, Registry: reg, Logger: log, Version: version}); err != nil {
		return nil, err
	}
	p.shared.Start(ctx, mcpConnectWait)
	p.wg.Add(1)
	go p.reap()
	return p, nil
}

// sessionTools returns the tools of a turn in dir, whose effective configuration lists
// servers: the runner's registry without the shared servers the project changed or turned
// off, and the tools of the directory's own servers.
func (p *mcpServers) sessionTools(ctx context.Context, dir string, servers map[string]config.MCPServer) ([]tool.Tool, error) {
	effective := serverConfigs(servers)
	own := map[string]mcp.ServerConfig{}
	for name, c := range effective {
		if c.IsEnabled() && !p.isShared(name, c) {
			own[name] = c
		}
	}
	var out []tool.Tool
	for _, t := range p.tools.All() {
		if srv := mcp.ServerOf(t); srv != "" && !p.isShared(srv, effective[srv]) {
			continue
		}
		out = append(out, t)
	}
	if len(own) == 0 {
		return out, nil
	}
	d, err := p.acquire(ctx, dir, own, true)
	if err != nil {
		return out, err
	}
	defer p.release(d)
	for _, t := range d.reg.All() {
		out = append(out, dirTool{Tool: t, p: p, dir: dir, servers: own})
	}
	return out, nil
}

// isShared reports whether c is exactly the shared server of that name (and enabled).
func (p *mcpServers) isShared(name string, c mcp.ServerConfig) bool {
	g, ok := p.global[name]
	return ok && c.IsEnabled() && reflect.DeepEqual(g, c)
}

func configKey(servers map[string]mcp.ServerConfig) string {
	b, _ := json.Marshal(servers) // map keys are sorted
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// acquire returns dir's servers for servers, starting them and waiting for their first
// connection attempts; with replace, servers running there for another configuration are
// stopped first, else that is an error. release it.
func (p *mcpServers) acquire(ctx context.Context, dir string, servers map[string]mcp.ServerConfig, replace bool) (*dirServers, error) {
	key := configKey(servers)
	p.mu.Lock()
	select {
	case <-p.stop:
		p.mu.Unlock()
		return nil, fmt.Errorf("MCP servers: the runner is shutting down")
	default:
	}
	d := p.dirs[dir]
	if d != nil && d.key != key {
		if !replace {
			p.mu.Unlock()
			return nil, fmt.Errorf("the MCP configuration of %s changed since this turn started; the tool is gone", dir)
		}
		delete(p.dirs, dir)
		p.closeLater(d)
		d = nil
	}
	if d == nil {
		reg, _ := tool.NewRegistry()
		m, err := mcp.New(mcp.Options{Servers: servers, Registry: reg, Dir: dir, Logger: p.log.With("directory", dir), Version: p.version})
		if err != nil {
			p.mu.Unlock()
			return nil, err
		}
		d = &dirServers{dir: dir, key: key, m: m, reg: reg, ready: make(chan struct{})}
		p.dirs[dir] = d
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			m.Start(p.base, mcpConnectWait)
			close(d.ready)
		}()
	}
	d.inUse++
	d.used = p.now()
	p.mu.Unlock()
	select {
	case <-d.ready:
		return d, nil
	case <-ctx.Done():
		p.release(d)
		return nil, context.Cause(ctx)
	}
}

func (p *mcpServers) release(d *dirServers) {
	p.mu.Lock()
	d.inUse--
	d.used = p.now()
	p.mu.Unlock()
}

// closeLater stops d's servers once their start is over (under mu).
func (p *mcpServers) closeLater(d *dirServers) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		<-d.ready
		d.m.Close()
	}()
}

// reap stops the servers of directories unused for mcpIdle.
func (p *mcpServers) reap() {
	defer p.wg.Done()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		p.mu.Lock()
		for dir, d := range p.dirs {
			if d.inUse == 0 && p.now().Sub(d.used) > mcpIdle {
				delete(p.dirs, dir)
				p.closeLater(d)
			}
		}
		p.mu.Unlock()
	}
}

// close stops every server and waits for them.
func (p *mcpServers) close() {
	p.mu.Lock()
	select {
	case <-p.stop:
	default:
		close(p.stop)
		for dir, d := range p.dirs {
			delete(p.dirs, dir)
			p.closeLater(d)
		}
	}
	p.mu.Unlock()
	p.shared.Close()
	p.wg.Wait()
}

// DirStatus is one server's state, with the directory it runs for ("" for a shared one).
type DirStatus struct {
	mcp.Status
	Directory string `json:"directory,omitempty"`
}

// status lists the shared servers and those of the directories visible(dir) allows.
func (p *mcpServers) status(visible func(dir string) bool) []DirStatus {
	var out []DirStatus
	for _, st := range p.shared.Status() {
		out = append(out, DirStatus{Status: st})
	}
	p.mu.Lock()
	dirs := slices.Sorted(maps.Keys(p.dirs))
	var ds []*dirServers
	for _, dir := range dirs {
		if visible(dir) {
			ds = append(ds, p.dirs[dir])
		}
	}
	p.mu.Unlock()
	for _, d := range ds {
		for _, st := range d.m.Status() {
			out = append(out, DirStatus{Status: st, Directory: d.dir})
		}
	}
	if out == nil {
		out = []DirStatus{}
	}
	return out
}

// dirTool is a tool of a directory's server: each call finds the server again (started anew
// if it was stopped as idle meanwhile) and keeps it from being stopped while it runs.
type dirTool struct {
	tool.Tool
	p       *mcpServers
	dir     string
	servers map[string]mcp.ServerConfig
}

func (t dirTool) Run(ctx context.Context, tc *tool.Context, input json.RawMessage) (tool.Result, error) {
	d, err := t.p.acquire(ctx, t.dir, t.servers, false)
	if err != nil {
		return tool.Result{}, err
	}
	defer t.p.release(d)
	cur, ok := d.reg.Get(t.Name())
	if !ok {
		return tool.Result{}, fmt.Errorf("MCP tool %s is not available now (its server is not connected); try again later or use another tool", t.Name())
	}
	return cur.Run(ctx, tc, input)
}

// mcpStatus shows the shared servers and those running for the caller's directories.
func (r *Runner) mcpStatus(c echo.Context) error {
	root := r.root(principal(c).UserID)
	return c.JSON(http.StatusOK, r.mcp.status(func(dir string) bool { return root == "" || tool.Within(root, dir) }))
}

// sessionTools are the tools a turn of s may use: the built-ins and the MCP servers of its
// project's effective configuration (engine hook).
func (r *Runner) sessionTools(ctx context.Context, s store.Session, worktree string) ([]tool.Tool, error) {
	cfg, err := r.loader.Load(worktree)
	if err != nil {
		return nil, err
	}
	return r.mcp.sessionTools(ctx, s.Directory, cfg.MCP)
}
