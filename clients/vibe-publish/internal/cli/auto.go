package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/aider"
	"openvibe.live/backend/clients/vibe-publish/internal/claudecode"
	"openvibe.live/backend/clients/vibe-publish/internal/codex"
	"openvibe.live/backend/clients/vibe-publish/internal/gemini"
	"openvibe.live/backend/clients/vibe-publish/internal/opencode"
	"openvibe.live/backend/clients/vibe-publish/internal/session"
	"openvibe.live/backend/clients/vibe-publish/internal/specstory"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

// candidate is one agent's newest session of the project.
type candidate struct {
	adapter, label, path string
	mod                  time.Time
	size                 int64 // what the session holds, in bytes: writing grows it, touching does not
}

// autoDirs are where each agent keeps its sessions (empty: its default).
type autoDirs struct{ claude, codex, gemini, opencode string }

// looker finds each agent's newest session of a project.
type looker struct {
	project string
	dirs    autoDirs
	codex   *codex.Finder // remembers which project each rollout belongs to
}

func newLooker(project string, d autoDirs) (*looker, error) {
	f, err := codex.NewFinder(project, d.codex)
	if err != nil {
		return nil, err
	}
	return &looker{project: project, dirs: d, codex: f}, nil
}

// newest lists, for each agent that has one, its newest session of the project.
func (l *looker) newest() []candidate {
	project, d := l.project, l.dirs
	var out []candidate
	add := func(adapter, label, path string, mod time.Time, err error) {
		if err != nil {
			return
		}
		c := candidate{adapter: adapter, label: label, path: path, mod: mod}
		if adapter == "opencode" {
			c.size = opencode.Written(path)
		} else if info, err := os.Stat(path); err == nil {
			c.size = info.Size()
		}
		out = append(out, c)
	}
	if dir, err := claudecode.ProjectTranscriptDir(claudecode.Options{ProjectDir: project, ClaudeDir: d.claude}); err == nil {
		p, m, err := claudecode.NewestTranscript(dir)
		add("claude-code", "Claude Code", p, m, err)
	}
	p, m, err := l.codex.Newest()
	add("codex", "Codex CLI", p, m, err)
	p, m, err = gemini.Newest(project, d.gemini)
	add("gemini", "Gemini CLI", p, m, err)
	p, m, err = aider.Newest(project)
	add("aider", "aider", p, m, err)
	p, m, err = opencode.Newest(opencode.StorageDir(d.opencode), project)
	add("opencode", "opencode", p, m, err)
	p, m, err = specstory.Newest(project)
	add("specstory", "SpecStory", p, m, err)
	return out
}

// pick is the candidate written to last.
func pick(cs []candidate) (candidate, bool) {
	var best candidate
	for _, c := range cs {
		if best.adapter == "" || c.mod.After(best.mod) {
			best = c
		}
	}
	return best, best.adapter != ""
}

// autoAdapter finds the agent whose newest session belongs to the project (waiting for one
// when following) and runs that agent's adapter on it. Following, it switches to another
// session of the project when that one becomes the one written to (see switcher).
func autoAdapter(ctx context.Context, fs *flag.FlagSet, args []string, g *globalFlags, stdio IO, st *status) (adapter, error) {
	af := registerAgentFlags(fs)
	var d autoDirs
	fs.StringVar(&d.claude, "claude-dir", "", "Claude Code's config dir")
	fs.StringVar(&d.codex, "codex-home", "", "Codex's home")
	fs.StringVar(&d.gemini, "gemini-dir", "", "Gemini CLI's directory")
	fs.StringVar(&d.opencode, "opencode-dir", "", "opencode's data directory")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if err := noArgs(fs, ""); err != nil {
		return adapter{}, err
	}
	project, err := filepath.Abs(af.dir())
	if err != nil {
		return adapter{}, err
	}
	look, err := newLooker(project, d)
	if err != nil {
		return adapter{}, err
	}
	started := time.Now() // before waiting: a session that begins meanwhile is published whole
	c, err := waitForSession(ctx, look, !*af.once, st)
	if err != nil {
		return adapter{}, err
	}
	st.infof("auto: %s (%s, last written %s)", c.label, filepath.Base(c.path), c.mod.Local().Format("2006-01-02 15:04:05"))
	if *af.once {
		sub := []string{"--project", project, "--once"}
		if *af.replay || c.fresh {
			sub = append(sub, "--replay")
		}
		return parseAdapter(ctx, c.adapter, append(sub, dirFlags(c.adapter, d)...), g, stdio, st)
	}
	a := &autoRun{project: project, dirs: d, look: look, g: g, stdio: stdio, st: st, replay: *af.replay, started: started,
		seen: map[string]map[string]bool{}, keys: map[string]string{c.path: ""},
		sw: newSwitcher(c.candidate, c.all, switchMargin)}
	first, err := a.session(ctx, c.candidate)
	if err != nil {
		return adapter{}, err
	}
	if !*af.replay && !c.fresh {
		for _, o := range c.all {
			a.baseline(ctx, o)
		}
	}
	a.first = first.publisher
	return adapter{name: first.name, project: first.project, publisher: first.publisher,
		run:      func(ctx context.Context, emit emitFunc) error { return a.run(ctx, c.candidate, first, emit) },
		useFlush: func(flush func(context.Context) error) { a.flush = flush }}, nil
}

// dirFlags passes auto's directory flag for the agent on to its adapter.
func dirFlags(agent string, d autoDirs) []string {
	switch agent {
	case "claude-code":
		return appendFlag(nil, "--claude-dir", d.claude)
	case "codex":
		return appendFlag(nil, "--codex-home", d.codex)
	case "gemini":
		return appendFlag(nil, "--gemini-dir", d.gemini)
	case "opencode":
		return appendFlag(nil, "--opencode-dir", d.opencode)
	}
	return nil
}

// How auto looks at the other sessions while following one: every autoPoll, and another
// takes over once written to switchMargin after the followed one was last.
const (
	autoPoll     = 2 * time.Second
	switchMargin = 3 * time.Second
	// startSlack: an event of a session first looked at after auto started is published when
	// it happened at most this long before the start (the agent's clock is the machine's).
	startSlack = 2 * time.Second
)

// autoRun follows one session after another through the same publisher.
type autoRun struct {
	project string
	dirs    autoDirs
	look    *looker
	g       *globalFlags
	stdio   IO
	st      *status
	first   vibe.Publisher // the hello's
	flush   func(context.Context) error
	replay  bool
	started time.Time

	// seen holds, per session file, the ids of the events not to publish (again): those
	// published, and those the session held when auto started (unless --replay). Each
	// session is read whole, so going back to one publishes only what it got meanwhile. Of a
	// session not looked at when auto started (an older one resumed, say), what happened
	// before then is not published either (unless --replay).
	seen map[string]map[string]bool
	keys map[string]string // each session's key; "" is the run's (the hello's)
	sw   *switcher
}

// fileFlag names, per agent, its adapter's flag for one session file.
var fileFlag = map[string]string{"claude-code": "--transcript", "codex": "--rollout", "gemini": "--session",
	"aider": "--history", "opencode": "--session", "specstory": "--history"}

// session is the adapter following the one session c (reading it whole).
func (a *autoRun) session(ctx context.Context, c candidate) (adapter, error) {
	sub := append([]string{"--project", a.project, "--replay", fileFlag[c.adapter], c.path}, dirFlags(c.adapter, a.dirs)...)
	ad, err := parseAdapter(ctx, c.adapter, sub, a.g, a.stdio, a.st)
	if err == nil && ad.follow == nil {
		err = fmt.Errorf("auto: %s cannot be followed", c.adapter)
	}
	return ad, err
}

// baseline records what session c holds now, so that it is not published.
func (a *autoRun) baseline(ctx context.Context, c candidate) {
	ids := map[string]bool{}
	a.seen[c.path] = ids
	sub := append([]string{"--project", a.project, "--once", fileFlag[c.adapter], c.path}, dirFlags(c.adapter, a.dirs)...)
	quiet := newStatus(io.Discard, true)
	ad, err := parseAdapter(ctx, c.adapter, sub, a.g, a.stdio, quiet)
	if err == nil {
		err = ad.run(ctx, func(_ context.Context, ev vibe.Event) error { ids[ev.EventID] = true; return nil })
	}
	if err != nil && ctx.Err() == nil {
		a.st.logf("auto: %s: %v", filepath.Base(c.path), err)
	}
}

func appendFlag(args []string, name, value string) []string {
	if value == "" {
		return args
	}
	return append(args, name, value)
}

// errNoAgentSession says where auto looked.
var errNoAgentSession = errors.New("no session of Claude Code, Codex CLI, Gemini CLI, aider, opencode or SpecStory found")

type found struct {
	candidate
	fresh bool        // the session started while waiting: publish it whole
	all   []candidate // every agent's newest session then
}

func waitForSession(ctx context.Context, look *looker, follow bool, st *status) (found, error) {
	project := look.project
	waited := false
	for {
		cs := look.newest()
		if c, ok := pick(cs); ok {
			return found{c, waited, cs}, nil
		}
		if !follow {
			return found{}, fmt.Errorf("%w for %s (start one there, or name the agent: %s)", errNoAgentSession, project,
				strings.Join([]string{"claude-code", "codex", "gemini", "aider", "opencode", "specstory"}, ", "))
		}
		if !waited {
			st.infof("auto: waiting for a session of Claude Code, Codex CLI, Gemini CLI, aider, opencode or SpecStory in %s", project)
			waited = true
		}
		if err := session.Sleep(ctx, time.Second); err != nil {
			return found{}, err
		}
	}
}

// run follows c with ad, then each session the switcher moves to, until ctx ends or the
// adapter fails.
func (a *autoRun) run(ctx context.Context, c candidate, ad adapter, emit emitFunc) error {
	for {
		if err := ad.follow(ctx, a.sw.stop(a.look.newest), a.emitter(c, ad, emit)); err != nil {
			return err
		}
		next, ok := a.sw.take()
		if !ok {
			return ctx.Err() // the session ended by itself
		}
		if a.flush != nil { // what was read of c is acked before the next session starts
			fctx, cancel := context.WithTimeout(ctx, a.g.flushTimeout)
			err := a.flush(fctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				a.st.logf("auto: %v (switching anyway; the events stay queued)", err)
			}
		}
		a.st.infof("auto: switching to %s (%s): written to after %s (%s)", next.label, filepath.Base(next.path), c.label, filepath.Base(c.path))
		var err error
		if ad, err = a.session(ctx, next); err != nil {
			return err
		}
		c = next
	}
}

// emitter publishes c's events not seen before, under c's session key, naming c's agent
// when it is not the one the hello named.
func (a *autoRun) emitter(c candidate, ad adapter, emit emitFunc) emitFunc {
	key, ok := a.keys[c.path]
	if !ok {
		key = publisher.NewSessionKey(time.Now())
		a.keys[c.path] = key
	}
	seen := a.seen[c.path]
	var before time.Time // what the session got before this is not published
	if seen == nil {
		seen = map[string]bool{}
		a.seen[c.path] = seen
		if !a.replay {
			before = a.started.Add(-startSlack)
		}
	}
	var pub *vibe.Publisher
	if ad.publisher.IntegrationID != a.first.IntegrationID {
		pub = &vibe.Publisher{IntegrationID: ad.publisher.IntegrationID, IntegrationLabel: ad.publisher.IntegrationLabel,
			Vendor: ad.publisher.Vendor, ClientType: ad.publisher.ClientType}
	}
	var mu sync.Mutex
	return func(ctx context.Context, ev vibe.Event) error {
		mu.Lock()
		defer mu.Unlock()
		if seen[ev.EventID] {
			return nil
		}
		seen[ev.EventID] = true
		if at, err := time.Parse(time.RFC3339Nano, ev.OccurredAt); err == nil && at.Before(before) {
			return nil
		}
		if key != "" {
			ev.SessionKey = key
		}
		if pub != nil && ev.Publisher == nil {
			ev.Publisher = pub
		}
		return emit(ctx, ev)
	}
}

// switcher decides when auto leaves the session it follows for another: when another
// session grew since the previous look (it is being written to: a file only touched has not
// grown, and a session seen for the first time has nothing to compare with yet) and was last
// written margin or more after the followed one.
type switcher struct {
	margin time.Duration
	cur    candidate
	sizes  map[string]int64 // each session's size at the previous look
	next   *candidate       // the session to switch to, once stop said so

	mu   sync.Mutex
	last time.Time
}

func newSwitcher(cur candidate, all []candidate, margin time.Duration) *switcher {
	s := &switcher{margin: margin, cur: cur, sizes: map[string]int64{}}
	for _, c := range all {
		s.sizes[c.path] = c.size
	}
	return s
}

// consider looks at the newest sessions; true when one of them should take over (then take
// returns it).
func (s *switcher) consider(cs []candidate) bool {
	var best *candidate
	for i := range cs {
		c := &cs[i]
		if c.path == s.cur.path {
			s.cur.mod, s.cur.size = c.mod, c.size
		}
	}
	for i := range cs {
		c := &cs[i]
		before, known := s.sizes[c.path]
		s.sizes[c.path] = c.size
		if c.path == s.cur.path || !known || c.size == before || c.mod.Sub(s.cur.mod) < s.margin {
			continue
		}
		if best == nil || c.mod.After(best.mod) {
			best = c
		}
	}
	if best == nil {
		return false
	}
	n := *best
	s.next, s.cur = &n, n
	return true
}

// stop is the adapter's stop: it looks every autoPoll (look lists the sessions), and keeps
// saying true once it said so.
func (s *switcher) stop(look func() []candidate) func() bool {
	return func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.next != nil {
			return true
		}
		if time.Since(s.last) < autoPoll {
			return false
		}
		s.last = time.Now()
		return s.consider(look())
	}
}

// take returns the session to switch to, if stop said so, and clears it.
func (s *switcher) take() (candidate, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next == nil {
		return candidate{}, false
	}
	n := *s.next
	s.next = nil
	return n, true
}
