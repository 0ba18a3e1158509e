package livepublish

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"

	"openvibe.live/backend/services/agent-runner/internal/bus"
)

// ScopeAll links every session of the runner.
const ScopeAll = "*"

// Target is where a link publishes: a slot on an OpenVibe.Live gateway.
type Target struct {
	// Server is the gateway's base URL.
	Server string `json:"server"`
	// Token is an hbt_ API token with the vibe_coding_publish scope. It is never shown back.
	Token           string `json:"token,omitempty"`
	ManagedStreamID int64  `json:"managed_stream_id"`
	SlotSlug        string `json:"slot_slug,omitempty"`
}

// Validate checks a target.
func (t Target) Validate() error {
	var errs []error
	if !strings.HasPrefix(t.Server, "http://") && !strings.HasPrefix(t.Server, "https://") &&
		!strings.HasPrefix(t.Server, "ws://") && !strings.HasPrefix(t.Server, "wss://") {
		errs = append(errs, errors.New("server must be an http(s) or ws(s) URL"))
	}
	if strings.TrimSpace(t.Token) == "" {
		errs = append(errs, errors.New("token is required"))
	}
	if t.ManagedStreamID <= 0 {
		errs = append(errs, errors.New("managed_stream_id must be a positive integer"))
	}
	return errors.Join(errs...)
}

// Status is a link's state, as the API shows it.
type Status struct {
	Scope           string     `json:"scope"` // a session ID, or "*" for the whole runner
	Server          string     `json:"server"`
	ManagedStreamID int64      `json:"managed_stream_id"`
	SlotSlug        string     `json:"slot_slug,omitempty"`
	SessionKey      string     `json:"session_key"`
	Connected       bool       `json:"connected"`
	Stopped         bool       `json:"stopped"`
	Published       int64      `json:"published"`
	Acked           int64      `json:"acked"`
	Queued          int        `json:"queued"`
	InFlight        int        `json:"in_flight"`
	Resent          int64      `json:"resent"`
	Dropped         int64      `json:"dropped"`
	Rejected        int64      `json:"rejected"`
	Connects        int64      `json:"connects"`
	LastError       string     `json:"last_error,omitempty"`
	LastErrorAt     *time.Time `json:"last_error_at,omitempty"`
	Linked          time.Time  `json:"linked"`
}

// Options configure a Manager.
type Options struct {
	Bus    *bus.Bus
	Logger *slog.Logger
	// Sanitizer is the process-wide sanitizer; built on first use when nil.
	Sanitizer *vibe.Sanitizer
	Version   string
	// Configure adjusts each publisher config before it is used (tests: fast backoff).
	Configure func(*publisher.Config)
}

// Manager owns the links.
type Manager struct {
	opt Options
	log *slog.Logger

	mu    sync.Mutex
	links map[string]*link
	san   *vibe.Sanitizer
}

type link struct {
	scope  string
	target Target
	client *publisher.Client
	sub    *bus.Subscription
	done   chan struct{}
	linked time.Time
	hints  vibe.SessionHints
}

// New returns a manager with no links.
func New(opt Options) *Manager {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Manager{opt: opt, log: opt.Logger, links: map[string]*link{}, san: opt.Sanitizer}
}

func (m *Manager) sanitizer() (*vibe.Sanitizer, error) {
	if m.san != nil {
		return m.san, nil
	}
	s, err := vibe.NewSanitizer()
	if err != nil {
		return nil, err
	}
	m.san = s
	return s, nil
}

// LinkOptions tune one link.
type LinkOptions struct {
	// Roots are the workspace directories the sanitizer hides.
	Roots []string
	// HTTPClient connects to the gateway (nil: http.DefaultClient); a session's link gets
	// one that refuses internal addresses.
	HTTPClient *http.Client
}

// Link starts publishing scope (a session ID or ScopeAll) to target, replacing an existing
// link of the same scope.
func (m *Manager) Link(scope string, target Target, o LinkOptions) (Status, error) {
	if scope == "" {
		return Status{}, errors.New("scope is required")
	}
	if err := target.Validate(); err != nil {
		return Status{}, err
	}
	m.Unlink(scope)
	m.mu.Lock()
	defer m.mu.Unlock()
	san, err := m.sanitizer()
	if err != nil {
		return Status{}, fmt.Errorf("building the sanitizer: %w", err)
	}
	cfg := publisher.Config{
		Server: target.Server, Token: target.Token, ManagedStreamID: target.ManagedStreamID, SlotSlug: target.SlotSlug,
		Publisher: vibe.Publisher{IntegrationID: "openvibe", IntegrationLabel: "openvibe", ClientType: "service",
			ClientName: "openvibe", ClientVersion: m.opt.Version,
			Capabilities: &vibe.Capabilities{Thinking: true, ToolCalls: true, WorkspaceFileEvents: true}},
		Sanitizer:  san,
		Hints:      vibe.SessionHints{WorkspaceRoots: o.Roots},
		Logger:     m.log.With("link", scope),
		HTTPClient: o.HTTPClient,
	}
	if m.opt.Configure != nil {
		m.opt.Configure(&cfg)
	}
	client, err := publisher.New(cfg)
	if err != nil {
		return Status{}, err
	}
	filter := func(e bus.Event) bool { return true }
	if scope != ScopeAll {
		filter = func(e bus.Event) bool { return e.SessionID == scope }
	}
	l := &link{scope: scope, target: target, client: client, done: make(chan struct{}), linked: time.Now().UTC(),
		sub: m.opt.Bus.Subscribe(4096, filter)}
	m.links[scope] = l
	go m.pump(l)
	m.log.Info("session linked to a slot", "scope", scope, "server", target.Server, "managed_stream_id", target.ManagedStreamID)
	return l.status(), nil
}

// pump maps the link's bus events and hands them to the publisher (which never blocks).
func (m *Manager) pump(l *link) {
	defer close(l.done)
	mp := NewMapper()
	for e := range l.sub.C() {
		if n := l.sub.Dropped(); n > 0 {
			m.log.Warn("live publishing fell behind the bus; events lost", "scope", l.scope, "dropped", n)
		}
		for _, ev := range mp.Map(e) {
			if err := l.client.Publish(ev); err != nil {
				m.log.Warn("event not published", "scope", l.scope, "event_type", ev.EventType, "err", err)
			}
		}
	}
}

// Unlink stops publishing scope; pending events get a short time to be acked.
func (m *Manager) Unlink(scope string) bool {
	m.mu.Lock()
	l := m.links[scope]
	delete(m.links, scope)
	m.mu.Unlock()
	if l == nil {
		return false
	}
	l.stop(5 * time.Second)
	return true
}

func (l *link) stop(grace time.Duration) {
	l.sub.Close()
	<-l.done
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	_ = l.client.Close(ctx)
}

// Flush waits until every event of scope's link published so far is acked.
func (m *Manager) Flush(ctx context.Context, scope string) error {
	m.mu.Lock()
	l := m.links[scope]
	m.mu.Unlock()
	if l == nil {
		return fmt.Errorf("no link for %q", scope)
	}
	return l.client.Flush(ctx)
}

// Status returns the state of every link, sorted by scope.
func (m *Manager) Status() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []Status{}
	for _, k := range slices.Sorted(maps.Keys(m.links)) {
		out = append(out, m.links[k].status())
	}
	return out
}

// Get returns the status of one scope's link.
func (m *Manager) Get(scope string) (Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.links[scope]
	if l == nil {
		return Status{}, false
	}
	return l.status(), true
}

func (l *link) status() Status {
	st := l.client.Stats()
	s := Status{Scope: l.scope, Server: l.target.Server, ManagedStreamID: l.target.ManagedStreamID, SlotSlug: l.target.SlotSlug,
		SessionKey: st.SessionKey, Connected: st.Connected, Published: st.Published, Acked: st.Acked, Queued: st.Queued,
		InFlight: st.InFlight, Resent: st.Resent, Dropped: st.Dropped, Rejected: st.Rejected, Connects: st.Connects,
		LastError: st.LastError, Linked: l.linked}
	select {
	case <-l.client.Done():
		s.Stopped = true
		if err := l.client.Err(); err != nil {
			var rej *publisher.RejectedError
			if errors.As(err, &rej) {
				s.LastError = rej.Sentence()
			}
		}
	default:
	}
	if !st.LastErrorAt.IsZero() {
		t := st.LastErrorAt
		s.LastErrorAt = &t
	}
	return s
}

// Close stops every link, giving pending events until ctx ends to be acked.
func (m *Manager) Close(ctx context.Context) {
	m.mu.Lock()
	links := slices.Collect(maps.Values(m.links))
	m.links = map[string]*link{}
	m.mu.Unlock()
	grace := 5 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		grace = time.Until(dl)
	}
	var wg sync.WaitGroup
	for _, l := range links {
		wg.Go(func() { l.stop(grace) })
	}
	wg.Wait()
}
