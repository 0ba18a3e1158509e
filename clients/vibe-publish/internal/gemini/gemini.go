package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/session"
	"openvibe.live/backend/shared/vibe"
)

// Options configures Run.
type Options struct {
	ProjectDir string // the project Gemini CLI runs in; default: the working directory
	GeminiDir  string // default ~/.gemini
	Session    string // a session file to read instead of the project's newest
	Follow     bool   // keep following, and switch to a newer session of the project
	Replay     bool   // also publish what the session already holds (implied without Follow)
	Poll       time.Duration

	OnSession func(path string)
	OnWaiting func(dir string)
	OnError   func(err error) // a read that failed while following (retried)
	// Stop, following the given Session, ends Run (with nil) at a moment when everything
	// written so far was read; the calls still open are ended as at the end of a session.
	Stop func() bool
}

// ErrNoSession means the project has no Gemini CLI session (and not following).
var ErrNoSession = errors.New("no Gemini CLI session found")

// Run publishes the project's newest Gemini CLI session (or Options.Session).
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	if opt.Poll <= 0 {
		opt.Poll = 300 * time.Millisecond
	}
	project, err := session.ProjectDir(opt.ProjectDir)
	if err != nil {
		return err
	}
	read := func(ctx context.Context, path string, history bool, stop func() bool) error {
		root := project
		if opt.Session != "" && opt.ProjectDir == "" {
			root = recordedRoot(path)
		}
		return follow(ctx, opt, path, root, history, stop, emit)
	}
	if opt.Session != "" {
		return read(ctx, opt.Session, opt.Follow && !opt.Replay, opt.Stop)
	}
	dirs := ChatDirs(opt.GeminiDir, project)
	return session.Run(ctx, session.Options{Follow: opt.Follow, Replay: opt.Replay, Poll: opt.Poll, Read: read,
		Newest: func() (string, time.Time, error) { return newestIn(dirs, project) },
		OnWaiting: func(error) {
			if opt.OnWaiting != nil {
				opt.OnWaiting(strings.Join(dirs, ", "))
			}
		}})
}

// Newest returns the project's most recently written session.
func Newest(dir, geminiDir string) (string, time.Time, error) {
	project, err := session.ProjectDir(dir)
	if err != nil {
		return "", time.Time{}, err
	}
	return newestIn(ChatDirs(geminiDir, project), project)
}

func newestIn(dirs []string, project string) (string, time.Time, error) {
	var best string
	var bestMod time.Time
	for _, dir := range dirs {
		p, mod, ok := session.Newest(dir, 0, func(p string, d fs.DirEntry) bool {
			n := d.Name()
			return strings.HasPrefix(n, "session-") && (strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".jsonl"))
		})
		if ok && (best == "" || mod.After(bestMod)) {
			best, bestMod = p, mod
		}
	}
	if best == "" {
		return "", time.Time{}, fmt.Errorf("%w for %s (looked in %s; pass --session FILE or --project DIR)", ErrNoSession, project, strings.Join(dirs, ", "))
	}
	return best, bestMod, nil
}

// ChatDirs lists where Gemini CLI may keep the project's sessions: under the SHA-256 of its
// path, and under the short name the project registry or a .project_root marker gives it.
func ChatDirs(geminiDir, project string) []string {
	if geminiDir == "" {
		if h, err := os.UserHomeDir(); err == nil {
			geminiDir = filepath.Join(h, ".gemini")
		}
	}
	tmp := filepath.Join(geminiDir, "tmp")
	sum := sha256.Sum256([]byte(project))
	dirs := []string{filepath.Join(tmp, hex.EncodeToString(sum[:]), "chats")}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if data, err := os.ReadFile(filepath.Join(geminiDir, "projects.json")); err == nil && json.Unmarshal(data, &reg) == nil {
		if slug := reg.Projects[project]; slug != "" && !strings.ContainsAny(slug, `/\`) {
			dirs = append(dirs, filepath.Join(tmp, slug, "chats"))
		}
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		owner, err := os.ReadFile(filepath.Join(tmp, e.Name(), ".project_root"))
		if err == nil && filepath.Clean(strings.TrimSpace(string(owner))) == project {
			if d := filepath.Join(tmp, e.Name(), "chats"); !contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// recordedRoot is the project a session file belongs to, from the .project_root marker beside
// its chats directory ("" when there is none).
func recordedRoot(path string) string {
	owner, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(path)), ".project_root"))
	if err != nil {
		return ""
	}
	return filepath.Clean(strings.TrimSpace(string(owner)))
}

// follow reads the session file again whenever it changes and emits what is new.
func follow(ctx context.Context, opt Options, path, root string, history bool, stop func() bool, emit func(context.Context, vibe.Event) error) error {
	var last os.FileInfo
	changed := func() bool {
		info, err := os.Stat(path)
		if err != nil {
			return !opt.Follow // without following, load reports it
		}
		if last != nil && info.Size() == last.Size() && info.ModTime().Equal(last.ModTime()) {
			return false
		}
		last = info
		return true
	}
	snap := func() ([]vibe.Event, []vibe.Event, error) {
		evs, open, err := load(path, root)
		if err != nil {
			last = nil // read it again at the next poll
		}
		return evs, open, err
	}
	return session.Poll(ctx, session.Polls{Follow: opt.Follow, History: history, Poll: opt.Poll, Stop: stop, OnError: opt.OnError, OnReady: ready(opt, path)}, changed, snap, emit)
}

// load reads a session file: its events, and the ends of the tool calls still open.
func load(path, root string) (evs, open []vibe.Event, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	c, err := parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	evs, open = events(c, root)
	return evs, open, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ready tells OnSession which session is followed, once what it held is read.
func ready(opt Options, path string) func() {
	return func() {
		if opt.OnSession != nil {
			opt.OnSession(path)
		}
	}
}
