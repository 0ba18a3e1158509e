package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/follow"
	"openvibe.live/backend/clients/vibe-publish/internal/session"
	"openvibe.live/backend/shared/vibe"
)

// Options configures Run.
type Options struct {
	ProjectDir string // the project Claude Code runs in; default: the working directory
	ClaudeDir  string // Claude Code's config dir; default $CLAUDE_CONFIG_DIR or ~/.claude
	Transcript string // a transcript file to follow instead of the newest one
	Follow     bool   // keep following (and switch to a newer session's transcript)
	// Replay publishes what the transcript already holds. Without Follow it is implied.
	Replay bool
	Poll   time.Duration // default 250ms

	OnBadLine    func(path string, line int64, err error)
	OnTranscript func(path string) // told which transcript is being read
	OnWaiting    func(dir string)  // told once when following and no transcript exists yet
	// Stop, following the given Transcript, ends Run (with nil) at a moment when everything
	// written so far was read; the calls still open are ended as at the end of a session.
	Stop func() bool

	maxLine int // tests: follow.MaxLine
}

// ErrNoTranscript means no transcript exists for the project (and not following).
var ErrNoTranscript = errors.New("no Claude Code transcript found")

// ErrNotTranscript means the file read has no line of a Claude Code transcript.
var ErrNotTranscript = errors.New("not a Claude Code transcript")

// Run reads transcripts and emits their events until the input ends (without Follow) or ctx
// ends.
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	if opt.Poll <= 0 {
		opt.Poll = 250 * time.Millisecond
	}
	read := func(ctx context.Context, path string, history bool, stop func() bool) error {
		return readSession(ctx, opt, path, history, stop, emit)
	}
	if opt.Transcript != "" {
		return read(ctx, opt.Transcript, opt.Follow && !opt.Replay, opt.Stop)
	}
	dir, err := ProjectTranscriptDir(opt)
	if err != nil {
		return err
	}
	return session.Run(ctx, session.Options{
		Follow: opt.Follow, Replay: opt.Replay, Poll: opt.Poll,
		Newest: func() (string, time.Time, error) { return NewestTranscript(dir) },
		Read:   read,
		OnWaiting: func(error) {
			if opt.OnWaiting != nil {
				opt.OnWaiting(dir)
			}
		},
	})
}

// ProjectTranscriptDir returns the directory holding the project's transcripts.
func ProjectTranscriptDir(opt Options) (string, error) {
	project := opt.ProjectDir
	if project == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		project = wd
	}
	project, err := filepath.Abs(project)
	if err != nil {
		return "", err
	}
	base := opt.ClaudeDir
	if base == "" {
		base = os.Getenv("CLAUDE_CONFIG_DIR")
	}
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(home, ".claude")
	}
	projects := filepath.Join(base, "projects")
	// Claude Code replaces every character but letters and digits with '-'; older versions
	// replaced only the separators.
	candidates := []string{EscapeProjectPath(project), strings.ReplaceAll(filepath.ToSlash(project), "/", "-")}
	for _, c := range candidates {
		if info, err := os.Stat(filepath.Join(projects, c)); err == nil && info.IsDir() {
			return filepath.Join(projects, c), nil
		}
	}
	return filepath.Join(projects, candidates[0]), nil
}

var notAlnum = regexp.MustCompile(`[^A-Za-z0-9]`)

// EscapeProjectPath is the directory name Claude Code uses for a project path.
func EscapeProjectPath(abs string) string { return notAlnum.ReplaceAllString(abs, "-") }

// NewestTranscript picks the most recently written session transcript in dir (sub-agent
// transcripts, agent-*.jsonl, are not sessions).
func NewestTranscript(dir string) (string, time.Time, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", time.Time{}, err
	}
	var best string
	var bestMod time.Time
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, "agent-") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if best == "" || info.ModTime().After(bestMod) {
			best, bestMod = filepath.Join(dir, name), info.ModTime()
		}
	}
	if best == "" {
		return "", time.Time{}, fmt.Errorf("%w in %s (pass --transcript FILE or --project DIR)", ErrNoTranscript, dir)
	}
	return best, bestMod, nil
}

// TranscriptCwd returns the working directory recorded in a transcript (the first line that
// has one), or "".
func TranscriptCwd(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	found := ""
	_ = follow.Reader(context.Background(), f, follow.Options{}, func(raw []byte, n int64) error {
		var l line
		if json.Unmarshal(raw, &l) == nil && l.Cwd != "" {
			found = l.Cwd
			return errStop
		}
		if n >= 200 {
			return errStop
		}
		return nil
	})
	return found
}

var errStop = errors.New("stop")
