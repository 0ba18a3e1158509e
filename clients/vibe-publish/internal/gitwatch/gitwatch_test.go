package gitwatch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

type sink struct {
	mu  sync.Mutex
	evs []vibe.Event
}

func (s *sink) emit(_ context.Context, ev vibe.Event) error {
	s.mu.Lock()
	s.evs = append(s.evs, ev)
	s.mu.Unlock()
	return nil
}

func (s *sink) take() []vibe.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.evs
	s.evs = nil
	return out
}

func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.invalid", "-c", "user.name=t"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	run("init", "-q")
	write(t, dir, ".gitignore", "node_modules/\n*.log\n.env\n")
	write(t, dir, "src/main.go", "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "node_modules", "left-pad"), 0o755))
	run("add", ".")
	run("commit", "-q", "-m", "init")
	return dir
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func TestWatchPublishesSettledChanges(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	var s sink
	ctx, cancel := context.WithCancel(t.Context())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Dir: filepath.Join(dir, "src"), Debounce: 80 * time.Millisecond, OnReady: func(r string) { ready <- r }}, s.emit)
	}()
	root := <-ready
	realDir, _ := filepath.EvalSymlinks(dir)
	require.Equal(t, realDir, root, "the repository root, found from a subdirectory")

	wait := func(n int) []vibe.Event {
		t.Helper()
		var got []vibe.Event
		require.Eventually(t, func() bool { got = append(got, s.take()...); return len(got) >= n }, 15*time.Second, 10*time.Millisecond)
		time.Sleep(200 * time.Millisecond) // nothing more should come
		got = append(got, s.take()...)
		require.Len(t, got, n, "%+v", got)
		return got
	}

	// A tracked file written several times in a burst: one event, numstat against HEAD.
	for i := range 3 {
		write(t, dir, "src/main.go", "package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln("+strings.Repeat("1", i+1)+")\n}\n")
	}
	evs := wait(1)
	require.Equal(t, vibe.TypeFileChange, evs[0].EventType)
	require.Equal(t, "src/main.go", evs[0].File.RelativePath)
	require.Equal(t, "edit", evs[0].File.Operation)
	require.Equal(t, 3, evs[0].File.ChangeCount, "1 deleted + 2 added against HEAD")

	// Saving the same content again is a file.save.
	write(t, dir, "src/main.go", "package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(111)\n}\n")
	evs = wait(1)
	require.Equal(t, vibe.TypeFileSave, evs[0].EventType)

	// Ignored files (by pattern, by ignored directory) and editor scratch files: nothing.
	write(t, dir, "debug.log", "x\n")
	write(t, dir, ".env", "TOKEN=hbt_x\n")
	write(t, dir, "node_modules/left-pad/index.js", "module.exports = 1\n")
	write(t, dir, "src/.main.go.swp", "x")
	// An untracked file in a new directory: create, then a line diff for the next write.
	write(t, dir, "docs/notes.md", "a\nb\n")
	evs = wait(1)
	require.Equal(t, "docs/notes.md", evs[0].File.RelativePath)
	require.Equal(t, "create", evs[0].File.Operation)
	require.Equal(t, 2, evs[0].File.ChangeCount)
	write(t, dir, "docs/notes.md", "a\nB\nc\n")
	evs = wait(1)
	require.Equal(t, "edit", evs[0].File.Operation)
	require.Equal(t, 3, evs[0].File.ChangeCount)

	// Deleting a tracked file.
	require.NoError(t, os.Remove(filepath.Join(dir, "src", "main.go")))
	evs = wait(1)
	require.Equal(t, "delete", evs[0].File.Operation)
	require.Equal(t, "src/main.go", evs[0].File.RelativePath)
	require.Equal(t, 5, evs[0].File.ChangeCount)

	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}
