// Package engine runs sessions: it turns a prompt into model calls, tool calls and stored
// parts, publishes every change on the bus, and owns the turns running in the background.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/project"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// Errors callers map to HTTP statuses.
var (
	ErrBusy         = errors.New("session is busy with another turn")
	ErrClosed       = errors.New("the runner is shutting down")
	ErrAborted      = errors.New("aborted")
	ErrUnknownAgent = errors.New("unknown agent")
	ErrBadDirectory = errors.New("bad directory")
)

// ConfigError is a problem with the prompt or the configuration it runs under (unknown
// model or provider, invalid openvibe.json, empty text): the caller's to fix.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Settings are the effective configuration for one project.
type Settings struct {
	// Model is the default "provider/model".
	Model  string
	Agents map[string]agent.Agent
	// Rules are the project-level rules followed by the global-level rules.
	Rules []permission.Rule
	// Instructions is appended to every agent's system prompt.
	Instructions string
}

// Model is a resolved model: its backend, the ID within its provider, and its prices in
// dollars per million tokens.
type Model struct {
	Backend                         llm.Backend
	ID                              string
	InputPrice, OutputPrice         float64
	CacheReadPrice, CacheWritePrice float64
	MaxTokens                       int64
	// ContextWindow is the model's context size in tokens (0: unknown, no automatic compaction).
	ContextWindow int64
}

// Deps are the engine's collaborators.
type Deps struct {
	Store store.Store
	Bus   *bus.Bus
	// Tools returns the tools a turn of the session may offer (before its agent's filter).
	Tools    func(ctx context.Context, s store.Session, worktree string) ([]tool.Tool, error)
	Shell    *tool.Shell
	Logger   *slog.Logger
	Settings func(ctx context.Context, worktree string) (Settings, error)
	// Models resolves "provider/model" for a project worktree.
	Models func(worktree, name string) (Model, error)
	// Root returns the directory a user's sessions are confined to ("" for none).
	Root func(ownerID int64) string
	// Turns, when set, is told when each turn starts and ends.
	Turns TurnHooks
}

// Engine runs sessions.
type Engine struct {
	d     Deps
	log   *slog.Logger
	perms *permission.Service
	files *tool.FileTimes

	base     context.Context
	stopBase context.CancelCauseFunc
	wg       sync.WaitGroup

	mu       sync.Mutex
	running  map[string]*run
	waiters  map[string]chan TurnResult // queued prompt ID → who waits for its turn
	draining map[string]bool            // sessions whose queue is being drained
	redrain  map[string]bool            // …and asked to be drained again

	scales scales
}

// scales are the token-estimate corrections learned per session (compaction.Calibrate).
// They live in memory: a restart starts again from the plain estimate.
type scales struct {
	mu sync.Mutex
	m  map[string]float64
}

// maxScales bounds how many sessions' corrections are kept; beyond it they are forgotten.
const maxScales = 10_000

func (s *scales) get(session string) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[session]
}

func (s *scales) set(session string, v float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v <= 1 {
		delete(s.m, session)
		return
	}
	if s.m == nil || len(s.m) >= maxScales {
		s.m = map[string]float64{}
	}
	s.m[session] = v
}

type run struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
}

// New builds an engine. Call Recover once the store is ready, and Close to stop.
func New(d Deps) *Engine {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Root == nil {
		d.Root = func(int64) string { return "" }
	}
	base, stop := context.WithCancelCause(context.Background())
	e := &Engine{d: d, log: d.Logger, files: tool.NewFileTimes(), base: base, stopBase: stop, running: map[string]*run{},
		waiters: map[string]chan TurnResult{}, draining: map[string]bool{}, redrain: map[string]bool{}}
	e.perms = permission.NewService(d.Store, d.Bus, d.Logger, e.orphanReply)
	return e
}

// Permissions returns the permission service.
func (e *Engine) Permissions() *permission.Service { return e.perms }

// Recover restores pending permission requests stored before a restart, and starts the
// prompts queued in sessions that do not wait for an answer.
func (e *Engine) Recover(ctx context.Context) error {
	if err := e.perms.Load(ctx); err != nil {
		return err
	}
	qs, err := e.d.Store.ListQueued(ctx, "")
	if err != nil {
		return err
	}
	started := map[string]bool{}
	for _, q := range qs {
		if !started[q.SessionID] && len(e.perms.Pending(q.OwnerID, q.SessionID)) == 0 {
			started[q.SessionID] = true
			e.drain(q.SessionID)
		}
	}
	return nil
}

// Close aborts running turns with permission.ErrShutdown (pending asks stay stored) and waits
// for them to end or ctx to expire.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock() // no turn is claimed (and added to wg) while the engine stops
	e.stopBase(permission.ErrShutdown)
	e.mu.Unlock()
	done := make(chan struct{})
	go func() { e.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for turns to stop: %w", ctx.Err())
	}
}

// CreateInput describes a new session.
type CreateInput struct {
	OwnerID   int64
	Directory string
	Title     string
	Agent     string
	ParentID  string
}

// CreateSession makes a session in the project containing Directory.
func (e *Engine) CreateSession(ctx context.Context, in CreateInput) (store.Session, error) {
	root := e.d.Root(in.OwnerID)
	dir, err := e.CheckDir(in.Directory, root)
	if err != nil {
		return store.Session{}, err
	}
	proj, err := e.project(ctx, dir, root)
	if err != nil {
		return store.Session{}, err
	}
	if in.Agent == "" {
		in.Agent = "build"
	}
	st, err := e.d.Settings(ctx, proj.Worktree)
	if err != nil {
		return store.Session{}, &ConfigError{Err: err}
	}
	if a, ok := st.Agents[in.Agent]; !ok || (a.Mode != agent.Primary && in.ParentID == "") {
		return store.Session{}, fmt.Errorf("%w %q", ErrUnknownAgent, in.Agent)
	}
	now := time.Now().UTC()
	s := store.Session{ID: id.New(id.Session), ProjectID: proj.ID, OwnerID: in.OwnerID, ParentID: in.ParentID,
		Title: in.Title, Directory: dir, Agent: in.Agent, Created: now, Updated: now}
	if s.Title == "" {
		s.Title = "New session"
	}
	if err := e.d.Store.CreateSession(ctx, s); err != nil {
		return store.Session{}, err
	}
	e.d.Bus.Publish(bus.Event{Type: bus.SessionCreated, SessionID: s.ID, OwnerID: s.OwnerID, Properties: s})
	return s, nil
}

// project detects and records the project of dir (a checked session directory).
func (e *Engine) project(ctx context.Context, dir, root string) (project.Info, error) {
	proj, err := project.Detect(dir, root)
	if err != nil {
		return proj, fmt.Errorf("%w: %v", ErrBadDirectory, err)
	}
	return proj, e.d.Store.UpsertProject(ctx, store.Project{ID: proj.ID, Worktree: proj.Worktree, VCS: proj.VCS, Created: time.Now()})
}

// CheckDir resolves a session directory: relative paths are taken from root; the result must
// be an existing directory inside root. A path outside root is refused before anything about
// it is looked at (symlinks resolved the same way whether the path exists or not), so the
// answer says nothing about other users' files; messages name a directory inside root
// relative to it.
func (e *Engine) CheckDir(dir, root string) (string, error) {
	if dir == "" {
		if root == "" {
			return "", fmt.Errorf("%w: directory is required", ErrBadDirectory)
		}
		dir = root
	}
	if !filepath.IsAbs(dir) {
		if root == "" {
			return "", fmt.Errorf("%w: directory must be absolute", ErrBadDirectory)
		}
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if root != "" && (!tool.Within(filepath.Clean(root), dir) || !tool.Within(tool.RealPath(root), tool.RealPath(dir))) {
		return "", fmt.Errorf("%w: the directory is outside your workspace", ErrBadDirectory)
	}
	shown := dir
	if root != "" {
		shown, _ = filepath.Rel(filepath.Clean(root), dir)
	}
	real := tool.RealPath(dir)
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("%w: %s does not exist", ErrBadDirectory, shown)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%w: %s is not a directory", ErrBadDirectory, shown)
	}
	return real, nil
}

// DeleteSession aborts the session's turn and deletes it with its children.
func (e *Engine) DeleteSession(ctx context.Context, s store.Session) error {
	e.Abort(ctx, s)
	e.wait(ctx, s.ID)
	if err := e.d.Store.DeleteSession(ctx, s.ID); err != nil {
		return err
	}
	e.perms.Forget(s.ID)
	e.files.Forget(s.ID)
	e.d.Bus.Publish(bus.Event{Type: bus.SessionDeleted, SessionID: s.ID, OwnerID: s.OwnerID, Properties: s})
	return nil
}

// Fork copies a session's history up to and including messageID (everything when empty)
// into a new session.
func (e *Engine) Fork(ctx context.Context, s store.Session, messageID string) (store.Session, error) {
	now := time.Now().UTC()
	title := s.Title
	if !strings.HasSuffix(title, " (fork)") {
		title += " (fork)"
	}
	dst := store.Session{ID: id.New(id.Session), ProjectID: s.ProjectID, OwnerID: s.OwnerID, Title: title,
		Directory: s.Directory, Agent: s.Agent, Created: now, Updated: now}
	if err := e.d.Store.ForkSession(ctx, s.ID, messageID, dst, id.New); err != nil {
		return store.Session{}, err
	}
	e.d.Bus.Publish(bus.Event{Type: bus.SessionCreated, SessionID: dst.ID, OwnerID: dst.OwnerID, Properties: dst})
	return dst, nil
}

// Busy reports whether a turn is running in the session.
func (e *Engine) Busy(sessionID string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.running[sessionID] != nil
}

// Abort cancels the session's running turn and the prompts queued behind it; it reports
// whether a turn was running.
func (e *Engine) Abort(ctx context.Context, s store.Session) bool {
	e.clearQueue(ctx, s)
	return e.cancel(s.ID, ErrAborted)
}

func (e *Engine) wait(ctx context.Context, sessionID string) {
	e.mu.Lock()
	r := e.running[sessionID]
	e.mu.Unlock()
	if r == nil {
		return
	}
	select {
	case <-r.done:
	case <-ctx.Done():
	}
}

// claim registers a turn for the session, failing with ErrBusy when one runs.
func (e *Engine) claim(parent context.Context, s store.Session) (context.Context, func(), error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.base.Err() != nil {
		return nil, nil, ErrClosed
	}
	if e.running[s.ID] != nil {
		return nil, nil, ErrBusy
	}
	ctx, cancel := context.WithCancelCause(parent)
	// Stop with the engine too (shutdown), keeping the shutdown cause.
	stop := context.AfterFunc(e.base, func() { cancel(context.Cause(e.base)) })
	r := &run{cancel: cancel, done: make(chan struct{})}
	e.running[s.ID] = r
	e.wg.Add(1) // under mu: Close cannot be waiting yet
	e.d.Bus.Publish(bus.Event{Type: bus.SessionStatus, SessionID: s.ID, OwnerID: s.OwnerID, Properties: map[string]any{"status": "busy"}})
	release := func() {
		stop()
		cancel(nil)
		e.mu.Lock()
		delete(e.running, s.ID)
		e.mu.Unlock()
		close(r.done)
		e.wg.Done()
	}
	return ctx, release, nil
}
