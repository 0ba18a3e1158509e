package aider

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/session"
	"openvibe.live/backend/shared/vibe"
)

// HistoryFile is aider's default chat history file name.
const HistoryFile = ".aider.chat.history.md"

// Options configures Run.
type Options struct {
	ProjectDir string // a directory of the repository aider runs in; default: the working directory
	History    string // the history file; default <repository root>/.aider.chat.history.md
	Follow     bool
	Replay     bool
	Poll       time.Duration

	OnBadLine func(line int64, err error)
	OnHistory func(path string)
	OnWaiting func(path string)
	// Stop, when set, ends Run (with nil) at a moment when everything written so far was
	// read; the calls still open are ended as at the end of a session.
	Stop func() bool
}

// ErrNoHistory means the repository has no aider chat history (and not following).
var ErrNoHistory = errors.New("no aider chat history found")

// ErrNotHistory means the file read is not an aider chat history.
var ErrNotHistory = errors.New("not an aider chat history (no \"# aider chat started at\", \"#### \" or \"> \" line)")

// Run publishes the repository's aider chat history.
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	path, root, err := Locate(opt.ProjectDir, opt.History)
	if err != nil {
		return err
	}
	newest := func() (string, time.Time, error) {
		info, err := os.Stat(path)
		if err != nil {
			return "", time.Time{}, fmt.Errorf("%w: %s does not exist (pass --history FILE, or run aider in %s first)", ErrNoHistory, path, root)
		}
		return path, info.ModTime(), nil
	}
	read := func(ctx context.Context, path string, history bool, stop func() bool) error {
		if err := checkHistory(path); err != nil {
			return err
		}
		if opt.OnHistory != nil {
			opt.OnHistory(path)
		}
		return session.ReadLines(ctx, path, NewMapper(root), session.Lines{Follow: opt.Follow, History: history, Poll: opt.Poll, Stop: stop,
			OnBadLine: opt.OnBadLine, Blank: true}, emit)
	}
	return session.Run(ctx, session.Options{Follow: opt.Follow, Replay: opt.Replay, Poll: opt.Poll, Newest: newest, Read: read, Stop: opt.Stop,
		OnWaiting: func(error) {
			if opt.OnWaiting != nil {
				opt.OnWaiting(path)
			}
		}})
}

// Locate returns the history file and the repository root its paths are relative to: the
// given file's directory, else the git root above dir (else dir).
func Locate(dir, history string) (path, root string, err error) {
	if history != "" {
		abs, err := filepath.Abs(history)
		if err != nil {
			return "", "", err
		}
		return abs, filepath.Dir(abs), nil
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return "", "", err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return "", "", err
	}
	root = dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return filepath.Join(root, HistoryFile), root, nil
}

// Newest returns the repository's history file and when it was last written.
func Newest(dir string) (string, time.Time, error) {
	path, _, err := Locate(dir, "")
	if err != nil {
		return "", time.Time{}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%w: %s", ErrNoHistory, path)
	}
	return path, info.ModTime(), nil
}

// checkHistory refuses a file none of whose first 200 lines is aider's (an empty file is a
// history aider has not written to yet).
func checkHistory(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() && lines < 200 {
		l := sc.Text()
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if strings.HasPrefix(l, "# aider chat started at") || strings.HasPrefix(l, "#### ") || strings.HasPrefix(l, "> ") {
			return nil
		}
	}
	if lines == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrNotHistory, path)
}
