package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// States of a server.
const (
	StateConnecting = "connecting"
	StateConnected  = "connected"
	StateFailed     = "failed" // waiting to reconnect
	StateDisabled   = "disabled"
)

// Registry is where discovered tools go (a *tool.Registry).
type Registry interface {
	Add(t tool.Tool) error
	Remove(name string)
}

// Options configure a Manager.
type Options struct {
	Servers  map[string]ServerConfig
	Registry Registry
	Logger   *slog.Logger
	// Dir is the working directory of local servers ("" = the runner's).
	Dir     string
	Version string
	// BackoffMin and BackoffMax bound the reconnect delay (defaults 500ms and 30s).
	BackoffMin, BackoffMax time.Duration
	// Transport, when set, replaces the transport built from a server's config (tests).
	Transport func(name string, c ServerConfig) (sdk.Transport, error)
}

// Status is one server's state, as GET /mcp shows it.
type Status struct {
	Name          string     `json:"name"`
	Type          string     `json:"type"`
	Transport     string     `json:"transport,omitempty"`
	State         string     `json:"state"`
	Error         string     `json:"error,omitempty"`
	Tools         []string   `json:"tools"`
	Connects      int        `json:"connects"`
	Failures      int        `json:"failures"`
	ConnectedAt   *time.Time `json:"connected_at,omitempty"`
	NextAttemptAt *time.Time `json:"next_attempt_at,omitempty"`
	ServerName    string     `json:"server_name,omitempty"`
	ServerVersion string     `json:"server_version,omitempty"`
}

// Manager supervises every configured server.
type Manager struct {
	opt    Options
	log    *slog.Logger
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	servers map[string]*server
}

type server struct {
	name string
	cfg  ServerConfig
	m    *Manager

	mu      sync.Mutex
	st      Status
	session *sdk.ClientSession
	tools   []string
	kick    chan struct{} // reconnect now
}

// New builds a manager; Start connects the servers.
func New(opt Options) (*Manager, error) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.BackoffMin <= 0 {
		opt.BackoffMin = 500 * time.Millisecond
	}
	if opt.BackoffMax <= 0 {
		opt.BackoffMax = 30 * time.Second
	}
	var errs []error
	for name, c := range opt.Servers {
		errs = append(errs, c.Validate(name))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m := &Manager{opt: opt, log: opt.Logger, servers: map[string]*server{}}
	for name, c := range opt.Servers {
		s := &server{name: name, cfg: c, m: m, kick: make(chan struct{}, 1),
			st: Status{Name: name, Type: c.Type, State: StateConnecting, Tools: []string{}}}
		if c.Type == TypeRemote {
			s.st.Transport = c.Transport
			if s.st.Transport == "" {
				s.st.Transport = TransportHTTP
			}
		}
		if !c.IsEnabled() {
			s.st.State = StateDisabled
		}
		m.servers[name] = s
	}
	return m, nil
}

// Start connects every enabled server in the background. It waits up to wait for the first
// connection attempts to finish, so tools are usually registered before the first prompt;
// servers still connecting keep trying in the background.
func (m *Manager) Start(ctx context.Context, wait time.Duration) {
	ctx, m.cancel = context.WithCancel(context.WithoutCancel(ctx))
	var first sync.WaitGroup
	for _, s := range m.servers {
		if !s.cfg.IsEnabled() {
			continue
		}
		first.Add(1)
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			s.supervise(ctx, first.Done)
		}()
	}
	done := make(chan struct{})
	go func() { first.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(wait):
	case <-ctx.Done():
	}
}

// Close disconnects every server (stopping local subprocesses) and waits for the supervisors.
func (m *Manager) Close() {
	if m.cancel != nil {
		m.cancel()
	}
	m.wg.Wait()
}

// Status returns every server's state, sorted by name.
func (m *Manager) Status() []Status {
	out := make([]Status, 0, len(m.servers))
	for _, name := range slices.Sorted(maps.Keys(m.servers)) {
		s := m.servers[name]
		s.mu.Lock()
		st := s.st
		st.Tools = slices.Clone(s.tools)
		if st.Tools == nil {
			st.Tools = []string{}
		}
		s.mu.Unlock()
		out = append(out, st)
	}
	return out
}

func (s *server) set(f func(st *Status)) {
	s.mu.Lock()
	f(&s.st)
	s.mu.Unlock()
}

// supervise connects, serves until the connection ends, and reconnects with backoff.
func (s *server) supervise(ctx context.Context, firstDone func()) {
	delay := s.m.opt.BackoffMin
	once := sync.OnceFunc(firstDone)
	defer once()
	for ctx.Err() == nil {
		s.set(func(st *Status) { st.State, st.NextAttemptAt = StateConnecting, nil })
		cs, err := s.connect(ctx)
		once()
		if err == nil {
			start := time.Now()
			err = s.serve(ctx, cs)
			if time.Since(start) > 30*time.Second {
				delay = s.m.opt.BackoffMin // it was up for a while: start backing off afresh
			}
		}
		if ctx.Err() != nil {
			return
		}
		jittered := delay/2 + rand.N(delay/2+1)
		next := time.Now().Add(jittered)
		s.set(func(st *Status) {
			st.State, st.Failures, st.NextAttemptAt = StateFailed, st.Failures+1, &next
			if err != nil {
				st.Error = err.Error()
			}
		})
		s.m.log.WarnContext(ctx, "mcp server unavailable; reconnecting", "server", s.name, "err", err, "retry_in", jittered)
		select {
		case <-ctx.Done():
			return
		case <-time.After(jittered):
		case <-s.kick:
		}
		delay = min(delay*2, s.m.opt.BackoffMax)
	}
}

// connect starts the transport, initializes the session and registers the server's tools.
func (s *server) connect(ctx context.Context) (*sdk.ClientSession, error) {
	tr, err := s.transport()
	if err != nil {
		return nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "openvibe", Version: s.m.opt.Version}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.requestRefresh() },
	})
	cctx, cancel := context.WithTimeout(ctx, s.cfg.timeout())
	defer cancel()
	cs, err := client.Connect(cctx, tr, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	if err := s.register(cctx, cs); err != nil {
		_ = cs.Close()
		return nil, err
	}
	now := time.Now().UTC()
	s.set(func(st *Status) {
		st.State, st.Error, st.ConnectedAt, st.Connects = StateConnected, "", &now, st.Connects+1
		if ir := cs.InitializeResult(); ir != nil && ir.ServerInfo != nil {
			st.ServerName, st.ServerVersion = ir.ServerInfo.Name, ir.ServerInfo.Version
		}
	})
	s.m.log.InfoContext(ctx, "mcp server connected", "server", s.name, "tools", len(s.toolNames()))
	return cs, nil
}

func (s *server) toolNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tools)
}

// register lists the server's tools and swaps them into the registry.
func (s *server) register(ctx context.Context, cs *sdk.ClientSession) error {
	var found []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list tools: %w", err)
		}
		found = append(found, t)
	}
	s.unregister()
	s.mu.Lock()
	s.session = cs
	s.mu.Unlock()
	var names []string
	for _, t := range found {
		rt := newRemoteTool(s, t)
		if err := s.m.opt.Registry.Add(rt); err != nil {
			s.m.log.WarnContext(ctx, "mcp tool not registered", "server", s.name, "tool", t.Name, "err", err)
			continue
		}
		names = append(names, rt.Name())
	}
	sort.Strings(names)
	s.mu.Lock()
	s.tools = names
	s.mu.Unlock()
	return nil
}

func (s *server) unregister() {
	s.mu.Lock()
	names := s.tools
	s.tools = nil
	s.mu.Unlock()
	for _, n := range names {
		s.m.opt.Registry.Remove(n)
	}
}

// requestRefresh re-lists tools after a tools/list_changed notification.
func (s *server) requestRefresh() {
	s.mu.Lock()
	cs := s.session
	s.mu.Unlock()
	if cs == nil {
		return
	}
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.timeout())
		defer cancel()
		if err := s.register(ctx, cs); err != nil {
			s.m.log.Warn("mcp tool refresh failed", "server", s.name, "err", err)
		}
	}()
}

// serve waits until the session ends (the process exits, the connection drops, a call timed
// out and closed it) or ctx is cancelled; then withdraws the tools.
func (s *server) serve(ctx context.Context, cs *sdk.ClientSession) error {
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }()
	var err error
	select {
	case <-ctx.Done():
		_ = cs.Close()
		<-ended
	case err = <-ended:
		_ = cs.Close() // releases the session's background work (subscriptions, keepalive)
	}
	s.mu.Lock()
	if s.session == cs {
		s.session = nil
	}
	reason := s.st.Error
	s.mu.Unlock()
	s.unregister()
	if err == nil {
		err = errors.New("connection closed")
		if reason != "" {
			err = errors.New(reason)
		}
	}
	return err
}

// drop closes the current session because of err (a timed-out call): the supervisor
// reconnects.
func (s *server) drop(cs *sdk.ClientSession, err error) {
	s.set(func(st *Status) { st.Error = err.Error() })
	_ = cs.Close()
}

func (s *server) transport() (sdk.Transport, error) {
	if s.m.opt.Transport != nil {
		return s.m.opt.Transport(s.name, s.cfg)
	}
	switch s.cfg.Type {
	case TypeLocal:
		argv := append(slices.Clone(s.cfg.Command), s.cfg.Args...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = s.m.opt.Dir
		cmd.Env = os.Environ()
		for k, v := range s.cfg.Environment {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = &logWriter{log: s.m.log, server: s.name}
		return &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
	case TypeRemote:
		hc := &http.Client{Transport: &headerTransport{headers: s.cfg.Headers, base: http.DefaultTransport}}
		if s.cfg.Transport == TransportSSE {
			return &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc}, nil
		}
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc, MaxRetries: 1}, nil
	}
	return nil, fmt.Errorf("unknown server type %q", s.cfg.Type)
}

type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// logWriter forwards a local server's stderr to the log, line by line (bounded).
type logWriter struct {
	log    *slog.Logger
	server string
}

func (w *logWriter) Write(p []byte) (int, error) {
	msg := string(p)
	if len(msg) > 2000 {
		msg = msg[:2000] + "…"
	}
	w.log.Debug("mcp server stderr", "server", w.server, "line", msg)
	return len(p), nil
}
