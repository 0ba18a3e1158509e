// Package cli is the vibe-publish command: it runs an adapter (a coding agent's sessions, a
// git working tree, or canonical JSON lines) and publishes what it produces to a publish
// gateway, or prints it with --dry-run.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

// Version is the client version sent in the hello.
var Version = "0.1.0"

// ErrUsage marks a command-line mistake (exit status 2).
var ErrUsage = errors.New("usage")

const usage = `vibe-publish streams your coding activity to an OpenVibe.Live slot.

Usage:
  vibe-publish [flags] <adapter> [adapter flags] [args]

Adapters (the agent adapters also take --project DIR, --replay and --once):
  auto                                         the agent session of this project written to now
                                               (switching when you use another)
  claude-code [--transcript FILE] [--claude-dir DIR]
                                               follow Claude Code's session transcript
  codex [--rollout FILE] [--codex-home DIR]    follow Codex CLI's session rollout
  gemini [--session FILE] [--gemini-dir DIR]   follow Gemini CLI's chat recording
  aider [--history FILE]                       follow aider's .aider.chat.history.md
  opencode [--session FILE] [--opencode-dir DIR]
                                               follow opencode's session storage
  specstory [--history FILE]                   follow the chat SpecStory (Cursor, VS Code) saves
                                               last in .specstory/history/
  git-watch [--dir DIR] [--debounce 400ms]     file changes in a git working tree
  jsonl [--follow] [--from-end] [FILE|-]       canonical events, one JSON object per line

Flags (also accepted after the adapter name):
  --server URL               gateway base URL            ($VIBE_PUBLISH_SERVER)
  --token hbt_…              API token, scope vibe_coding_publish
                                                         ($VIBE_PUBLISH_TOKEN, $VIBE_PUBLISH_TOKEN_FILE)
  --slot ID|SLUG             the slot to publish into    ($VIBE_PUBLISH_SLOT)
  --managed-stream-id N      the slot's numeric id (skips the slug lookup)
                                                         ($VIBE_PUBLISH_MANAGED_STREAM_ID)
  --config FILE              config file (default ~/.config/vibe-publish/config.json,
                             keys: server, token, tokenFile, slot, managedStreamId)
  --dry-run                  print the sanitized events as JSON lines; send nothing
  --session-key KEY          reuse a session key (default: a new one per run)
  --workspace NAME           workspace name shown with the session (default: the directory name)
  --machine NAME             machine name (default: none; hostnames can identify you)
  --flush-timeout DURATION   how long to wait for acks when the input ends (default 30s)
  --quiet                    no status output

Run "vibe-publish --dry-run <adapter> …" first to see exactly what viewers could receive.
`

// globalFlags are the flags every adapter accepts.
type globalFlags struct {
	server, token, slot, managedStreamID, config string
	sessionKey, workspace, machine               string
	dryRun, quiet, version                       bool
	flushTimeout                                 time.Duration
}

func (g *globalFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.server, "server", g.server, "gateway base URL")
	fs.StringVar(&g.token, "token", g.token, "API token")
	fs.StringVar(&g.slot, "slot", g.slot, "slot id or slug")
	fs.StringVar(&g.managedStreamID, "managed-stream-id", g.managedStreamID, "slot id")
	fs.StringVar(&g.config, "config", g.config, "config file")
	fs.StringVar(&g.sessionKey, "session-key", g.sessionKey, "session key")
	fs.StringVar(&g.workspace, "workspace", g.workspace, "workspace name")
	fs.StringVar(&g.machine, "machine", g.machine, "machine name")
	fs.BoolVar(&g.dryRun, "dry-run", g.dryRun, "print, do not send")
	fs.BoolVar(&g.quiet, "quiet", g.quiet, "no status output")
	fs.BoolVar(&g.version, "version", g.version, "print the version")
	fs.DurationVar(&g.flushTimeout, "flush-timeout", g.flushTimeout, "wait for acks at the end")
}

// IO bundles the process's streams (replaced in tests).
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// adapter is a parsed adapter invocation.
type adapter struct {
	name      string
	project   string // directory the activity happens in (for sanitizer hints)
	publisher vibe.Publisher
	run       func(ctx context.Context, emit func(context.Context, vibe.Event) error) error
	// follow, for an agent's adapter following one session, is run that also returns (nil)
	// once stop returns true, the session's open calls ended as at its end.
	follow followFunc
	// useFlush, when set, is given the wait for every published event's ack.
	useFlush func(flush func(context.Context) error)
}

// emitFunc hands an event on (to the publisher, or the dry run's output).
type emitFunc = func(context.Context, vibe.Event) error

type followFunc func(ctx context.Context, stop func() bool, emit emitFunc) error

// following sets a's follow, and its run as follow without a stop.
func (a adapter) following(f followFunc) adapter {
	a.follow = f
	a.run = func(ctx context.Context, emit emitFunc) error { return f(ctx, nil, emit) }
	return a
}

// Run is the whole command.
func Run(ctx context.Context, args []string, getenv func(string) string, stdio IO) error {
	g := globalFlags{flushTimeout: 30 * time.Second}
	fs := flag.NewFlagSet("vibe-publish", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdio.Stdout, usage)
			return nil
		}
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if g.version {
		fmt.Fprintln(stdio.Stdout, "vibe-publish", Version)
		return nil
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: name an adapter: %s", ErrUsage, adapterNames)
	}
	st := newStatus(stdio.Stderr, g.quiet)
	ad, err := parseAdapter(ctx, fs.Arg(0), fs.Args()[1:], &g, stdio, st)
	if err != nil {
		return err
	}
	conf, err := resolve(g, getenv)
	if err != nil {
		return err
	}
	for _, w := range conf.warnings {
		st.logf("warning: %s", w)
	}
	san, err := vibe.NewSanitizer()
	if err != nil {
		return fmt.Errorf("build sanitizer: %w", err)
	}
	pcfg := publisher.Config{
		Server: conf.Server, Token: conf.Token, ManagedStreamID: conf.ManagedStreamID, SlotSlug: conf.SlotSlug,
		SessionKey: g.sessionKey, Publisher: ad.publisher, Sanitizer: san, Hints: hints(ad.project, g),
	}
	pcfg.Publisher.WorkspaceName, pcfg.Publisher.MachineName = pcfg.Hints.WorkspaceName, g.machine
	if g.dryRun {
		return dryRun(ctx, ad, &pcfg, stdio.Stdout)
	}
	return live(ctx, ad, conf, pcfg, g, st)
}

func hints(project string, g globalFlags) vibe.SessionHints {
	h := vibe.SessionHints{WorkspaceName: g.workspace, MachineName: g.machine}
	if abs, err := filepath.Abs(project); err == nil {
		h.WorkspaceRoots = []string{abs}
		if h.WorkspaceName == "" {
			h.WorkspaceName = filepath.Base(abs)
		}
	}
	if home, err := os.UserHomeDir(); err == nil && h.WorkspaceName == filepath.Base(home) {
		h.WorkspaceName = "" // never name the home directory (it is the user name)
	}
	if u, err := user.Current(); err == nil {
		h.AccountName = u.Username[strings.LastIndexByte(u.Username, '\\')+1:] // DOMAIN\name on Windows
	}
	return h
}

// dryRun prints each prepared (stamped and sanitized) event as one JSON line.
func dryRun(ctx context.Context, ad adapter, cfg *publisher.Config, out io.Writer) error {
	prep, err := publisher.NewPreparer(cfg)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	err = ad.run(ctx, func(_ context.Context, ev vibe.Event) error {
		return enc.Encode(prep.Prepare(ev))
	})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// live publishes until the adapter ends (then flushes) or ctx ends, and fails fast with a
// human sentence when the gateway refuses the token, scope or slot.
func live(ctx context.Context, ad adapter, conf settings, cfg publisher.Config, g globalFlags, st *status) error {
	if err := conf.validateLive(); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if conf.ManagedStreamID == 0 {
		lctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		id, err := resolveSlot(lctx, http.DefaultClient, conf.Server, conf.Token, conf.SlotSlug)
		cancel()
		if err != nil {
			return err
		}
		cfg.ManagedStreamID = id
	}
	label := "slot " + first(conf.Slot, fmt.Sprint(cfg.ManagedStreamID))
	closing := reportTo(&cfg, st, conf.Server, label)
	client, err := publisher.New(cfg)
	if err != nil {
		return err
	}
	st.attach(label, client.Stats)
	if ad.useFlush != nil {
		ad.useFlush(client.Flush)
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // a permanent refusal stops the adapter
		select {
		case <-client.Done():
			cancel()
		case <-runCtx.Done():
		}
	}()
	statusCtx, stopStatus := context.WithCancel(context.Background())
	statusDone := make(chan struct{})
	go func() { defer close(statusDone); st.run(statusCtx) }()
	defer func() { stopStatus(); <-statusDone; st.finish() }()

	aerr := ad.run(runCtx, client.PublishWait)
	if err := client.Err(); err != nil {
		_ = client.Close(context.Background())
		return err
	}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), g.flushTimeout)
	defer cancelClose()
	if ctx.Err() != nil { // interrupted: a short grace period for what is in flight
		closeCtx, cancelClose = context.WithTimeout(context.Background(), 3*time.Second)
		defer cancelClose()
	}
	if aerr == nil && ctx.Err() == nil {
		// The input ended. Even with nothing to send, say whether the gateway took us: a wrong
		// token must not look like success.
		if _, err := client.WaitReady(closeCtx); err != nil {
			closing.Store(true)
			_ = client.Close(context.Background())
			return err
		}
	}
	closing.Store(true)
	cerr := client.Close(closeCtx)
	s := client.Stats()
	if !st.quiet {
		st.finish()
		st.logf("%d events sent, %d acked, %d dropped, %d rejected", s.Published, s.Acked, s.Dropped, s.Rejected)
		if s.Undelivered > 0 {
			st.logf("%d events were stored but not shown to viewers (slot not live, paused, or the type hidden by its settings)", s.Undelivered)
		}
	}
	if aerr != nil && !(errors.Is(aerr, context.Canceled) && ctx.Err() != nil) {
		return aerr
	}
	if cerr != nil && ctx.Err() == nil {
		return cerr
	}
	return nil
}

// reportTo wires the client's callbacks to the status output. The returned flag, once set,
// silences disconnection notices (a clean shutdown is not a disconnection).
func reportTo(cfg *publisher.Config, st *status, server, label string) *atomic.Bool {
	closing := new(atomic.Bool)
	cfg.OnState = func(up bool) {
		if st.tty || st.quiet || closing.Load() {
			return
		}
		if up {
			st.logf("connected to %s (%s)", server, label)
		} else {
			st.logf("disconnected; reconnecting")
		}
	}
	var lastLogged atomic.Value
	cfg.OnError = func(err error) {
		var rej *publisher.RejectedError
		if st.quiet || errors.As(err, &rej) { // a rejection is returned, not logged twice
			return
		}
		if msg := err.Error(); lastLogged.Swap(msg) != msg { // not every retry of the same failure
			st.logf("%s", msg)
		}
	}
	var warned atomic.Bool
	cfg.OnReady = func(r vibe.Ready) {
		if st.quiet || warned.Swap(true) {
			return
		}
		if msg := readyWarning(r, server); msg != "" {
			st.logf("%s", msg)
		}
	}
	return closing
}

// readyWarning explains, once, why viewers would see nothing of what is published.
func readyWarning(r vibe.Ready, server string) string {
	switch {
	case r.Settings.Enabled != 1:
		return "vibe coding is switched off for this slot: events are stored but viewers see nothing until it is enabled in the studio"
	case r.Settings.Paused == 1:
		return "this slot is paused: events are stored but never shown to viewers; resume it in the studio"
	case r.LiveStreamID == nil:
		return fmt.Sprintf("this slot is not live: viewers see nothing until you go live (studio, or POST %s/api/managed-streams/%d/live)", strings.TrimRight(server, "/"), r.ManagedStreamID)
	}
	return ""
}
