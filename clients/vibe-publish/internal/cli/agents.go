package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"openvibe.live/backend/clients/vibe-publish/internal/aider"
	"openvibe.live/backend/clients/vibe-publish/internal/codex"
	"openvibe.live/backend/clients/vibe-publish/internal/gemini"
	"openvibe.live/backend/clients/vibe-publish/internal/opencode"
	"openvibe.live/backend/clients/vibe-publish/internal/specstory"
	"openvibe.live/backend/shared/vibe"
)

// agentFlags are the flags the coding-agent adapters share.
type agentFlags struct {
	project      *string
	replay, once *bool
}

func registerAgentFlags(fs *flag.FlagSet) agentFlags {
	return agentFlags{
		project: fs.String("project", "", "project directory (default: the working directory)"),
		replay:  fs.Bool("replay", false, "also publish what the session already holds"),
		once:    fs.Bool("once", false, "publish the session as it is now and exit"),
	}
}

func (a agentFlags) dir() string {
	if *a.project != "" {
		return *a.project
	}
	return "."
}

func agentPublisher(pub vibe.Publisher, id, label, vendor string) vibe.Publisher {
	pub.IntegrationID, pub.IntegrationLabel, pub.Vendor = id, label, vendor
	pub.Capabilities = &vibe.Capabilities{Thinking: true, ToolCalls: true, WorkspaceFileEvents: true}
	return pub
}

func noArgs(fs *flag.FlagSet, hint string) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: %s takes no arguments%s", ErrUsage, fs.Name(), hint)
	}
	return nil
}

func codexAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	af := registerAgentFlags(fs)
	rollout := fs.String("rollout", "", "a rollout file to read instead of the project's newest")
	home := fs.String("codex-home", "", "Codex's home (default $CODEX_HOME or ~/.codex)")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if err := noArgs(fs, " (use --rollout FILE)"); err != nil {
		return adapter{}, err
	}
	opt := codex.Options{ProjectDir: *af.project, CodexHome: *home, Rollout: *rollout, Follow: !*af.once, Replay: *af.replay,
		OnBadLine: func(p string, n int64, err error) { st.logf("%s:%d skipped: %v", filepath.Base(p), n, err) },
		OnSession: func(p string) { st.infof("following %s", p) },
		OnWaiting: func(dir string) { st.infof("waiting for a Codex session of this project in %s", dir) }}
	return adapter{name: "codex", project: af.dir(), publisher: agentPublisher(pub, "codex", "Codex CLI", "OpenAI")}.following(func(ctx context.Context, stop func() bool, emit emitFunc) error {
		o := opt
		o.Stop = stop
		return codex.Run(ctx, o, emit)
	}), nil
}

func geminiAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	af := registerAgentFlags(fs)
	sess := fs.String("session", "", "a session file to read instead of the project's newest")
	dir := fs.String("gemini-dir", "", "Gemini CLI's directory (default ~/.gemini)")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if err := noArgs(fs, " (use --session FILE)"); err != nil {
		return adapter{}, err
	}
	var lastErr string
	opt := gemini.Options{ProjectDir: *af.project, GeminiDir: *dir, Session: *sess, Follow: !*af.once, Replay: *af.replay,
		OnSession: func(p string) { st.infof("following %s", p) },
		OnWaiting: func(dirs string) { st.infof("waiting for a Gemini CLI session of this project in %s", dirs) },
		OnError: func(err error) {
			if msg := err.Error(); msg != lastErr {
				lastErr = msg
				st.logf("%s (read again when it changes)", msg)
			}
		}}
	return adapter{name: "gemini", project: af.dir(), publisher: agentPublisher(pub, "gemini-cli", "Gemini CLI", "Google")}.following(func(ctx context.Context, stop func() bool, emit emitFunc) error {
		o := opt
		o.Stop = stop
		return gemini.Run(ctx, o, emit)
	}), nil
}

func aiderAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	af := registerAgentFlags(fs)
	history := fs.String("history", "", "the chat history file (default <repository root>/"+aider.HistoryFile+")")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if err := noArgs(fs, " (use --history FILE)"); err != nil {
		return adapter{}, err
	}
	_, root, err := aider.Locate(*af.project, *history)
	if err != nil {
		return adapter{}, err
	}
	opt := aider.Options{ProjectDir: *af.project, History: *history, Follow: !*af.once, Replay: *af.replay,
		OnBadLine: func(n int64, err error) { st.logf("line %d skipped: %v", n, err) },
		OnHistory: func(p string) { st.infof("following %s", p) },
		OnWaiting: func(p string) { st.infof("waiting for aider to write %s", p) }}
	return adapter{name: "aider", project: root, publisher: agentPublisher(pub, "aider", "aider", "Aider")}.following(func(ctx context.Context, stop func() bool, emit emitFunc) error {
		o := opt
		o.Stop = stop
		return aider.Run(ctx, o, emit)
	}), nil
}

func opencodeAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	af := registerAgentFlags(fs)
	sess := fs.String("session", "", "a session file (storage/session/<project>/<id>.json) to read instead")
	dir := fs.String("opencode-dir", "", "opencode's data directory (default $XDG_DATA_HOME/opencode or ~/.local/share/opencode)")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if err := noArgs(fs, " (use --session FILE)"); err != nil {
		return adapter{}, err
	}
	opt := opencode.Options{ProjectDir: *af.project, DataDir: *dir, Session: *sess, Follow: !*af.once, Replay: *af.replay,
		OnSession: func(p string) { st.infof("following %s", p) },
		OnWaiting: func(dir string) { st.infof("waiting for an opencode session of this project in %s", dir) }}
	return adapter{name: "opencode", project: af.dir(), publisher: agentPublisher(pub, "opencode", "opencode", "SST")}.following(func(ctx context.Context, stop func() bool, emit emitFunc) error {
		o := opt
		o.Stop = stop
		return opencode.Run(ctx, o, emit)
	}), nil
}

func specstoryAdapter(fs *flag.FlagSet, args []string, pub vibe.Publisher, st *status) (adapter, error) {
	af := registerAgentFlags(fs)
	history := fs.String("history", "", "a history file to read instead of the project's newest (.specstory/history/*.md)")
	if err := parseFlags(fs, args); err != nil {
		return adapter{}, err
	}
	if err := noArgs(fs, " (use --history FILE)"); err != nil {
		return adapter{}, err
	}
	_, root, err := specstory.Locate(*af.project, *history)
	if err != nil {
		return adapter{}, err
	}
	var lastErr string
	opt := specstory.Options{ProjectDir: *af.project, History: *history, Follow: !*af.once, Replay: *af.replay,
		OnHistory: func(p string) { st.infof("following %s", p) },
		OnWaiting: func(dir string) { st.infof("waiting for SpecStory to save a chat in %s", dir) },
		OnError: func(err error) {
			if msg := err.Error(); msg != lastErr {
				lastErr = msg
				st.logf("%s (read again when it changes)", msg)
			}
		}}
	return adapter{name: "specstory", project: root, publisher: agentPublisher(pub, "specstory", "SpecStory", "SpecStory")}.following(func(ctx context.Context, stop func() bool, emit emitFunc) error {
		o := opt
		o.Stop = stop
		return specstory.Run(ctx, o, emit)
	}), nil
}
