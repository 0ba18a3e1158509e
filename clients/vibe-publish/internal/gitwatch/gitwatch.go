// Package gitwatch watches a working tree and turns settled file writes into file.change and
// file.save events, for streamers who code without an agent. Paths are relative to the
// repository root; .gitignore'd files are left out; the change count comes from
// git diff --numstat for tracked files and from a line diff for untracked ones.
package gitwatch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"openvibe.live/backend/clients/vibe-publish/internal/linediff"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "git-watch"

// maxRead bounds the bytes read from one file to hash and diff it.
const maxRead = 4 << 20

// Options configures Run.
type Options struct {
	Dir      string        // the working tree; default: the working directory
	Debounce time.Duration // quiet time before a file counts as settled; default 400ms
	OnError  func(error)   // non-fatal problems (a git call failed, a watch could not be added)
	OnReady  func(root string)
}

// Run watches until ctx ends.
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	if opt.Debounce <= 0 {
		opt.Debounce = 400 * time.Millisecond
	}
	dir := opt.Dir
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	r, err := openRepo(ctx, abs)
	if err != nil {
		return err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("start file watcher: %w", err)
	}
	defer w.Close()
	t := &tree{opt: opt, repo: r, w: w, emit: emit, pending: map[string]time.Time{}, seen: map[string]fileState{}}
	if err := t.watchAll(ctx, r.root, false); err != nil {
		return err
	}
	if opt.OnReady != nil {
		opt.OnReady(r.root)
	}
	return t.loop(ctx)
}

type tree struct {
	opt  Options
	repo *repo
	w    *fsnotify.Watcher
	emit func(context.Context, vibe.Event) error

	pending map[string]time.Time // rel path → last write seen
	seen    map[string]fileState // what was last published per rel path
}

type fileState struct {
	hash    [32]byte
	content []byte // kept for untracked text files, to diff the next write against
}

func (t *tree) loop(ctx context.Context) error {
	tick := time.NewTicker(t.opt.Debounce / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-t.w.Events:
			if !ok {
				return errors.New("file watcher stopped")
			}
			t.onEvent(ctx, ev)
		case err, ok := <-t.w.Errors:
			if !ok {
				return errors.New("file watcher stopped")
			}
			t.report(fmt.Errorf("file watcher: %w", err))
		case <-tick.C:
			if err := t.flush(ctx, time.Now()); err != nil {
				return err
			}
		}
	}
}

func (t *tree) onEvent(ctx context.Context, ev fsnotify.Event) {
	rel, ok := t.rel(ev.Name)
	if !ok {
		return
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
			if ign, _ := t.repo.ignored(ctx, []string{rel + "/"}); !ign[rel+"/"] {
				_ = t.watchAll(ctx, ev.Name, true)
			}
			return
		}
	}
	if ev.Op == fsnotify.Chmod || isScratch(filepath.Base(rel)) {
		return
	}
	t.pending[rel] = time.Now()
}

// flush publishes the files whose writes have settled.
func (t *tree) flush(ctx context.Context, now time.Time) error {
	var ready []string
	for rel, at := range t.pending {
		if now.Sub(at) >= t.opt.Debounce {
			ready = append(ready, rel)
		}
	}
	if len(ready) == 0 {
		return nil
	}
	for _, rel := range ready {
		delete(t.pending, rel)
	}
	slices.Sort(ready)
	ign, err := t.repo.ignored(ctx, ready)
	if err != nil {
		t.report(err)
		return nil // without an answer, publish nothing rather than ignored files
	}
	for _, rel := range ready {
		if ign[rel] {
			continue
		}
		ev, ok := t.describe(ctx, rel)
		if !ok {
			continue
		}
		if err := t.emit(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

// describe builds the event for one settled file, or false when there is nothing to say.
func (t *tree) describe(ctx context.Context, rel string) (vibe.Event, bool) {
	abs := filepath.Join(t.repo.root, filepath.FromSlash(rel))
	prev, known := t.seen[rel]
	info, err := os.Lstat(abs)
	if err != nil || !info.Mode().IsRegular() {
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return vibe.Event{}, false
		}
		tracked := t.repo.tracked(ctx, rel)
		if !known && !tracked {
			return vibe.Event{}, false // a temporary file that came and went
		}
		delete(t.seen, rel)
		count := linediff.Count(string(prev.content))
		if tracked {
			_, d, _ := t.repo.numstat(ctx, rel)
			count = d
		}
		return t.event(rel, vibe.TypeFileChange, "delete", count), true
	}
	content, err := readHead(abs)
	if err != nil {
		t.report(err)
		return vibe.Event{}, false
	}
	st := fileState{hash: sha256.Sum256(content)}
	if known && st.hash == prev.hash {
		return t.event(rel, vibe.TypeFileSave, "save", 0), true
	}
	op, count := "edit", 0
	if t.repo.tracked(ctx, rel) {
		a, d, err := t.repo.numstat(ctx, rel)
		if err != nil {
			t.report(err)
		}
		count = a + d
	} else {
		text := !bytes.Contains(content, []byte{0})
		if text {
			st.content = content
		}
		if !known {
			op = "create"
		}
		if text {
			count = linediff.Changed(string(prev.content), string(content))
		}
	}
	t.seen[rel] = st
	return t.event(rel, vibe.TypeFileChange, op, count), true
}

func (t *tree) event(rel, typ, op string, count int) vibe.Event {
	verb := map[string]string{"create": "Created ", "edit": "Edited ", "delete": "Deleted ", "save": "Saved "}[op]
	summary := verb + rel
	switch {
	case count == 1:
		summary += " (1 line changed)"
	case count > 1:
		summary = fmt.Sprintf("%s (%d lines changed)", summary, count)
	}
	return vibe.Event{
		EventType:  typ,
		Visibility: vibe.VisibilityPublic,
		Summary:    summary,
		Source:     &vibe.Source{Channel: Channel, RawType: "fs." + op},
		File:       &vibe.FileBody{Name: filepath.Base(rel), RelativePath: rel, Operation: op, ChangeCount: count},
		Metadata:   &vibe.EventMetadata{WorkspaceName: filepath.Base(t.repo.root)},
	}
}

// watchAll watches dir and every directory below it that is not ignored. For a directory
// that just appeared, markFiles queues the files already in it (written before the watch).
func (t *tree) watchAll(ctx context.Context, dir string, markFiles bool) error {
	ignored, err := t.repo.ignoredDirs(ctx)
	if err != nil {
		t.report(err)
		ignored = map[string]bool{}
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			if rel, ok := t.rel(path); ok && markFiles && !isScratch(d.Name()) {
				t.pending[rel] = time.Now()
			}
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if rel, ok := t.rel(path); ok && ignored[rel+"/"] {
			return filepath.SkipDir
		}
		if err := t.w.Add(path); err != nil {
			t.report(fmt.Errorf("watch %s: %w", path, err))
		}
		return nil
	})
}

// rel makes an absolute path relative to the root (slash-separated); false for the root
// itself, anything outside it and anything under .git.
func (t *tree) rel(path string) (string, bool) {
	rel, err := filepath.Rel(t.repo.root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", false
	}
	return rel, true
}

func (t *tree) report(err error) {
	if t.opt.OnError != nil {
		t.opt.OnError(err)
	}
}

// isScratch matches editors' temporary files.
func isScratch(name string) bool {
	return strings.HasSuffix(name, "~") || strings.HasSuffix(name, ".swp") || strings.HasSuffix(name, ".swx") ||
		strings.HasPrefix(name, ".#") || name == "4913" || strings.HasSuffix(name, ".tmp")
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxRead))
}
