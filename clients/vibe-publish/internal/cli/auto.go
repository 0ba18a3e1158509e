package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/aider"
	"openvibe.live/backend/clients/vibe-publish/internal/claudecode"
	"openvibe.live/backend/clients/vibe-publish/internal/codex"
	"openvibe.live/backend/clients/vibe-publish/internal/gemini"
	"openvibe.live/backend/clients/vibe-publish/internal/opencode"
	"openvibe.live/backend/clients/vibe-publish/internal/session"
)

// candidate is one agent's newest session of the project.
type candidate struct {
	adapter, label, path string
	mod                  time.Time
}

// autoDirs are where each agent keeps its sessions (empty: its default).
type autoDirs struct{ claude, codex, gemini, opencode string }

// newestSessions lists, for each agent that has one, its newest session of the project.
func newestSessions(project string, d autoDirs) []candidate {
	var out []candidate
	add := func(adapter, label, path string, mod time.Time, err error) {
		if err == nil {
			out = append(out, candidate{adapter, label, path, mod})
		}
	}
	if dir, err := claudecode.ProjectTranscriptDir(claudecode.Options{ProjectDir: project, ClaudeDir: d.claude}); err == nil {
		p, m, err := claudecode.NewestTranscript(dir)
		add("claude-code", "Claude Code", p, m, err)
	}
	p, m, err := codex.Newest(project, d.codex)
	add("codex", "Codex CLI", p, m, err)
	p, m, err = gemini.Newest(project, d.gemini)
	add("gemini", "Gemini CLI", p, m, err)
	p, m, err = aider.Newest(project)
	add("aider", "aider", p, m, err)
	p, m, err = opencode.Newest(opencode.StorageDir(d.opencode), project)
	add("opencode", "opencode", p, m, err)
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
// when following) and runs that agent's adapter on it.
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
	c, err := waitForSession(ctx, project, d, !*af.once, st)
	if err != nil {
		return adapter{}, err
	}
	st.infof("auto: %s (%s, last written %s)", c.label, filepath.Base(c.path), c.mod.Local().Format("2006-01-02 15:04:05"))
	sub := []string{"--project", project}
	if *af.once {
		sub = append(sub, "--once")
	}
	if *af.replay || c.fresh {
		sub = append(sub, "--replay")
	}
	switch c.adapter {
	case "claude-code":
		sub = appendFlag(sub, "--claude-dir", d.claude)
	case "codex":
		sub = appendFlag(sub, "--codex-home", d.codex)
	case "gemini":
		sub = appendFlag(sub, "--gemini-dir", d.gemini)
	case "opencode":
		sub = appendFlag(sub, "--opencode-dir", d.opencode)
	}
	return parseAdapter(ctx, c.adapter, sub, g, stdio, st)
}

func appendFlag(args []string, name, value string) []string {
	if value == "" {
		return args
	}
	return append(args, name, value)
}

// errNoAgentSession says where auto looked.
var errNoAgentSession = errors.New("no session of Claude Code, Codex CLI, Gemini CLI, aider or opencode found")

type found struct {
	candidate
	fresh bool // the session started while waiting: publish it whole
}

func waitForSession(ctx context.Context, project string, d autoDirs, follow bool, st *status) (found, error) {
	waited := false
	for {
		if c, ok := pick(newestSessions(project, d)); ok {
			return found{c, waited}, nil
		}
		if !follow {
			return found{}, fmt.Errorf("%w for %s (start one there, or name the agent: %s)", errNoAgentSession, project,
				strings.Join([]string{"claude-code", "codex", "gemini", "aider", "opencode"}, ", "))
		}
		if !waited {
			st.infof("auto: waiting for a session of Claude Code, Codex CLI, Gemini CLI, aider or opencode in %s", project)
			waited = true
		}
		if err := session.Sleep(ctx, time.Second); err != nil {
			return found{}, err
		}
	}
}
