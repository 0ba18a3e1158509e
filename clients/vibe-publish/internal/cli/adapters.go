package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/claudecode"
	"openvibe.live/backend/clients/vibe-publish/internal/gitwatch"
	"openvibe.live/backend/clients/vibe-publish/internal/jsonl"
	"openvibe.live/backend/shared/vibe"
)

// adapterNames lists the adapters, for messages.
const adapterNames = "auto, claude-code, codex, gemini, aider, opencode, specstory, git-watch, jsonl"

// parseAdapter parses the adapter's flags (global flags allowed among them). auto looks for the
// agent's session already (and waits for one when following), so that the hello names it.
func parseAdapter(ctx context.Context, name string, args []string, g *globalFlags, stdio IO, st *status) (adapter, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.register(fs)
	pub := vibe.Publisher{ClientType: "cli", ClientName: "vibe-publish", ClientVersion: Version, ViewerDepth: vibe.DepthStandard}
	switch name {
	case "jsonl":
		return jsonlAdapter(fs, args, pub, stdio, st)
	case "claude-code":
		return claudeAdapter(fs, args, pub, st)
	case "git-watch":
		return gitWatchAdapter(fs, args, pub, st)
	case "codex":
		return codexAdapter(fs, args, pub, st)
	case "gemini":
		return geminiAdapter(fs, args, pub, st)
	case "aider":
		return aiderAdapter(fs, args, pub, st)
	case "opencode":
		return opencodeAdapter(fs, args, pub, st)
	case "specstory":
		return specstoryAdapter(fs, args, pub, st)
	case "auto":
		return autoAdapter(ctx, fs, args, g, stdio, st)
	}
	return adapter{}, fmt.Errorf("%w: unknown adapter %q (%s)", ErrUsage, name, adapterNames)
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrUsage, fs.Name(), err)
	}
	return nil
}

func jsonlAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, stdio IO, st *status) (adapter, error) {
	follow := fs.Bool("follow", false, "keep reading appended lines")
	fromEnd := fs.Bool("from-end", false, "with --follow, skip existing lines")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	path := fs.Arg(0)
	if fs.NArg() > 1 {
		return adapter{}, fmt.Errorf("%w: jsonl takes one file (or - for stdin)", ErrUsage)
	}
	if *follow && (path == "" || path == "-") {
		return adapter{}, fmt.Errorf("%w: --follow needs a file", ErrUsage)
	}
	pub.IntegrationID, pub.IntegrationLabel = "jsonl", "Custom events"
	pub.Capabilities = &vibe.Capabilities{Thinking: true, ToolCalls: true, WorkspaceFileEvents: true}
	opt := jsonl.Options{Path: path, Stdin: stdio.Stdin, Follow: *follow, FromEnd: *fromEnd,
		OnBadLine: func(n int64, err error) { st.logf("line %d skipped: %v", n, err) }}
	return adapter{name: "jsonl", project: ".", publisher: pub,
		run: func(ctx context.Context, emit func(context.Context, vibe.Event) error) error {
			return jsonl.Run(ctx, opt, emit)
		}}, nil
}

func claudeAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	project := fs.String("project", "", "project directory (default: the working directory)")
	transcript := fs.String("transcript", "", "transcript file to follow")
	replay := fs.Bool("replay", false, "also publish what the transcript already holds")
	once := fs.Bool("once", false, "publish the transcript as it is now and exit")
	claudeDir := fs.String("claude-dir", "", "Claude Code config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if fs.NArg() > 0 {
		return adapter{}, fmt.Errorf("%w: claude-code takes no arguments", ErrUsage)
	}
	pub.IntegrationID, pub.IntegrationLabel, pub.Vendor = "claude-code", "Claude Code", "Anthropic"
	pub.Capabilities = &vibe.Capabilities{Thinking: true, ToolCalls: true, WorkspaceFileEvents: true}
	opt := claudecode.Options{ProjectDir: *project, ClaudeDir: *claudeDir, Transcript: *transcript,
		Follow: !*once, Replay: *replay,
		OnBadLine:    func(p string, n int64, err error) { st.logf("%s:%d skipped: %v", filepath.Base(p), n, err) },
		OnTranscript: func(p string) { st.infof("following %s", p) },
		OnWaiting:    func(dir string) { st.infof("waiting for a Claude Code session in %s", dir) }}
	dir := *project
	if dir == "" && *transcript != "" {
		dir = claudecode.TranscriptCwd(*transcript) // paths in it are relative to this
	}
	if dir == "" {
		dir = "."
	}
	return adapter{name: "claude-code", project: dir, publisher: pub}.following(func(ctx context.Context, stop func() bool, emit emitFunc) error {
		o := opt
		o.Stop = stop
		return claudecode.Run(ctx, o, emit)
	}), nil
}

func gitWatchAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	dir := fs.String("dir", ".", "working tree to watch")
	debounce := fs.Duration("debounce", 400*time.Millisecond, "quiet time before a write counts")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if fs.NArg() > 0 {
		return adapter{}, fmt.Errorf("%w: git-watch takes no arguments (use --dir)", ErrUsage)
	}
	pub.IntegrationID, pub.IntegrationLabel = "git-watch", "File watcher"
	pub.Capabilities = &vibe.Capabilities{WorkspaceFileEvents: true}
	opt := gitwatch.Options{Dir: *dir, Debounce: *debounce,
		OnError: func(err error) { st.logf("%v", err) },
		OnReady: func(root string) { st.infof("watching %s", root) }}
	return adapter{name: "git-watch", project: *dir, publisher: pub,
		run: func(ctx context.Context, emit func(context.Context, vibe.Event) error) error {
			return gitwatch.Run(ctx, opt, emit)
		}}, nil
}
