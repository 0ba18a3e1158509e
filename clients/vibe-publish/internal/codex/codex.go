package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/session"
	"openvibe.live/backend/shared/vibe"
)

// Options configures Run.
type Options struct {
	ProjectDir string // the project Codex runs in; default: the working directory
	CodexHome  string // default $CODEX_HOME or ~/.codex
	Rollout    string // a rollout file to read instead of the project's newest
	Follow     bool   // keep following, and switch to a newer session of the project
	Replay     bool   // also publish what the session already holds (implied without Follow)
	Poll       time.Duration

	OnBadLine func(path string, line int64, err error)
	OnSession func(path string)
	OnWaiting func(dir string)
	// Stop, following the given Rollout, ends Run (with nil) at a moment when everything
	// written so far was read; the calls still open are ended as at the end of a session.
	Stop func() bool
}

// ErrNoSession means the project has no Codex session (and not following).
var ErrNoSession = errors.New("no Codex session found")

// ErrNotRollout means the file read is not a Codex rollout.
var ErrNotRollout = errors.New("not a Codex rollout (no line has a type and payload, or a session id)")

// Run publishes the project's newest Codex session (or Options.Rollout).
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	root, err := session.ProjectDir(opt.ProjectDir)
	if err != nil {
		return err
	}
	read := func(ctx context.Context, path string, history bool, stop func() bool) error {
		if err := session.Check(path, looksLikeRollout, ErrNotRollout); err != nil {
			return err
		}
		if opt.OnSession != nil {
			opt.OnSession(path)
		}
		r := root
		if opt.Rollout != "" && opt.ProjectDir == "" {
			r = "" // a given file: its own cwd is the root
		}
		return session.ReadLines(ctx, path, NewMapper(r), session.Lines{Follow: opt.Follow, History: history, Poll: opt.Poll, Stop: stop,
			OnBadLine: func(n int64, err error) {
				if opt.OnBadLine != nil {
					opt.OnBadLine(path, n, err)
				}
			}}, emit)
	}
	if opt.Rollout != "" {
		return read(ctx, opt.Rollout, opt.Follow && !opt.Replay, opt.Stop)
	}
	dir := SessionsDir(opt.CodexHome)
	finder := &finder{dir: dir, project: root, cwds: map[string]string{}}
	return session.Run(ctx, session.Options{Follow: opt.Follow, Replay: opt.Replay, Poll: opt.Poll, Newest: finder.newest, Read: read,
		OnWaiting: func(error) {
			if opt.OnWaiting != nil {
				opt.OnWaiting(dir)
			}
		}})
}

func looksLikeRollout(obj map[string]json.RawMessage) bool {
	_, typ := obj["type"]
	_, payload := obj["payload"]
	_, id := obj["id"]
	_, ts := obj["timestamp"]
	return typ && payload || id && ts
}

// SessionsDir is where Codex keeps its rollouts.
func SessionsDir(home string) string {
	if home == "" {
		home = os.Getenv("CODEX_HOME")
	}
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".codex")
		}
	}
	return filepath.Join(home, "sessions")
}

// Newest returns the project's most recently written rollout.
func Newest(projectDir, codexHome string) (string, time.Time, error) {
	f, err := NewFinder(projectDir, codexHome)
	if err != nil {
		return "", time.Time{}, err
	}
	return f.Newest()
}

// Finder is Newest for a caller that asks again and again: each rollout's cwd is read once.
type Finder struct{ f *finder }

// NewFinder finds the newest rollouts of projectDir in codexHome (default $CODEX_HOME or
// ~/.codex).
func NewFinder(projectDir, codexHome string) (*Finder, error) {
	root, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, err
	}
	return &Finder{&finder{dir: SessionsDir(codexHome), project: root, cwds: map[string]string{}}}, nil
}

// Newest returns the project's most recently written rollout.
func (f *Finder) Newest() (string, time.Time, error) { return f.f.newest() }

// finder picks the newest rollout whose session ran in the project (or below it). The cwd of
// each rollout is read once from its first line.
type finder struct {
	dir, project string
	mu           sync.Mutex
	cwds         map[string]string
}

type rolloutFile struct {
	path string
	mod  time.Time
}

func (f *finder) newest() (string, time.Time, error) {
	var files []rolloutFile
	_ = filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "rollout-") || !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		if info, err := d.Info(); err == nil {
			files = append(files, rolloutFile{p, info.ModTime()})
		}
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, rf := range files {
		cwd, ok := f.cwds[rf.path]
		if !ok {
			cwd = rolloutCwd(rf.path)
			f.cwds[rf.path] = cwd
		}
		if cwd == f.project || strings.HasPrefix(cwd, f.project+string(filepath.Separator)) {
			return rf.path, rf.mod, nil
		}
	}
	return "", time.Time{}, fmt.Errorf("%w for %s in %s (pass --rollout FILE or --project DIR)", ErrNoSession, f.project, f.dir)
}

// rolloutCwd is the cwd of a rollout's session_meta (or of the first turn_context).
func rolloutCwd(path string) string {
	file, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer file.Close()
	dec := json.NewDecoder(file)
	for range 8 {
		var l rolloutLine
		if dec.Decode(&l) != nil {
			return ""
		}
		var meta sessionMeta
		if (l.Type == "session_meta" || l.Type == "turn_context") && json.Unmarshal(l.Payload, &meta) == nil && meta.Cwd != "" {
			return filepath.Clean(meta.Cwd)
		}
	}
	return ""
}
