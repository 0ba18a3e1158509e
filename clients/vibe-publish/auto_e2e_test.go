package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

// auto follows the agent being written to: a Claude Code session that was there when it
// started (followed from its end), then a Codex session started an hour into the stream,
// then a new Claude Code session, all through one connection and in that order.
func TestAutoSwitchesToTheAgentWrittenTo(t *testing.T) {
	const project = "/home/streamer/src/nightbus"
	claudeFixture := filepath.Join("internal", "claudecode", "testdata", "session.jsonl")
	codexFixture := filepath.Join("testdata", "agents", "codex", "own", "2026", "11", "29",
		"rollout-2026-11-29T21-00-00-019ad2f1-6c3e-7b20-9a41-5d0e8c7b3f12.jsonl")

	// What viewers should get of each: the events of the adapters' dry runs but thinking
	// (hidden by the slot's default settings) and, of Claude Code's, what its transcript
	// held when vibe-publish started (its first two lines: the title and the first prompt).
	claudeLines := lines(t, claudeFixture)
	const held = 2
	_, before := eventIDs(t, write(t, filepath.Join(t.TempDir(), "held.jsonl"), claudeLines[:held]), "claude-code", "--transcript")
	claudeShown, claudeAll := eventIDs(t, claudeFixture, "claude-code", "--transcript")
	codexShown, codexAll := eventIDs(t, codexFixture, "codex", "--rollout")
	// An hour later still, a new Claude Code session (another transcript).
	const newSession = "9a7c41d2-5be0-4f6e-8d13-2c4b7e9f0a58"
	var claude2Lines [][]byte
	for _, l := range claudeLines {
		claude2Lines = append(claude2Lines, bytes.ReplaceAll(l, []byte("4f35e220-c435-4cf7-b9b9-f40426042847"), []byte(newSession)))
	}
	claude2Shown, claude2All := eventIDs(t, write(t, filepath.Join(t.TempDir(), newSession+".jsonl"), claude2Lines), "claude-code", "--transcript")
	want := without(claudeShown, before)
	claudeCount := len(want)
	want = append(want, codexShown...) // its last: the end of the call left open, sent at the switch
	codexCount := len(codexShown)
	want = append(want, claude2Shown...)
	stored := len(without(claudeAll, before)) + len(codexAll) + len(claude2All)
	require.Greater(t, claudeCount, 5)
	require.Greater(t, len(want), claudeCount+5)

	s := startServer(t)
	v := watch(t, s)
	claude, codexHome := t.TempDir(), t.TempDir()
	transcript := write(t, filepath.Join(claude, "projects", "-home-streamer-src-nightbus", "4f35e220-c435-4cf7-b9b9-f40426042847.jsonl"), claudeLines[:held])
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(transcript, old, old))

	cmd := exec.Command(bins.publish, "--server", s.base, "--token", s.token, "--slot", "camp-code",
		"auto", "--project", project, "--claude-dir", claude, "--codex-home", codexHome)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	var out testenv.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "connected to") }, 30*time.Second, 20*time.Millisecond, out.String())
	require.Contains(t, out.String(), "auto: Claude Code (4f35e220-c435-4cf7-b9b9-f40426042847.jsonl")

	// Claude Code goes on writing its session, line by line.
	appendSlowly(t, transcript, claudeLines[held:], 30*time.Millisecond, false)
	require.Eventually(t, func() bool { f, _ := v.snapshot(); return len(f) >= claudeCount }, 30*time.Second, 20*time.Millisecond, out.String())

	// Claude Code is quiet; the streamer opens Codex CLI, which writes its new session
	// over a few seconds (more than two looks).
	time.Sleep(4 * time.Second)
	rollout := filepath.Join(codexHome, "sessions", "2026", "12", "01", filepath.Base(codexFixture))
	require.NoError(t, os.MkdirAll(filepath.Dir(rollout), 0o755))
	appendSlowly(t, rollout, lines(t, codexFixture), 200*time.Millisecond, true)
	require.Eventually(t, func() bool { f, _ := v.snapshot(); return len(f) >= claudeCount+codexCount-1 }, 60*time.Second, 50*time.Millisecond, out.String())

	// Codex is quiet (its last call still open); a new Claude Code session begins.
	time.Sleep(4 * time.Second)
	transcript2 := filepath.Join(filepath.Dir(transcript), newSession+".jsonl")
	appendSlowly(t, transcript2, claude2Lines, 300*time.Millisecond, true) // over more than two looks

	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if f, _ := v.snapshot(); len(f) >= len(want) {
			break
		}
	}
	frames, _ := v.snapshot()
	var got []string
	for _, f := range frames {
		got = append(got, f.Event.EventID)
	}
	require.Equal(t, want, got, "Claude Code's events, then Codex's, in order\n%s", out.String())
	frames = v.waitFrames(t, len(want))
	require.Nil(t, frames[0].Event.Publisher, "the hello names Claude Code")
	require.NotNil(t, frames[claudeCount].Event.Publisher)
	require.Equal(t, "Codex CLI", frames[claudeCount].Event.Publisher.IntegrationLabel, "viewers see which agent it is now")
	require.Contains(t, out.String(), "auto: switching to Codex CLI ("+filepath.Base(rollout)+"): written to after Claude Code (4f35e220-c435-4cf7-b9b9-f40426042847.jsonl)")
	last := frames[claudeCount+codexCount-1].Event
	require.Equal(t, "end", last.Tool.Phase, "the call Codex left open is ended at the switch")
	require.Nil(t, frames[claudeCount+codexCount].Event.Publisher, "Claude Code again")
	require.Contains(t, out.String(), "auto: switching to Claude Code ("+newSession+".jsonl): written to after Codex CLI ("+filepath.Base(rollout)+")")
	require.Equal(t, 1, strings.Count(out.String(), "connected to"), "one connection for both sessions")

	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	select {
	case err := <-exited:
		exited <- err
		require.NoError(t, err, out.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("vibe-publish did not stop:\n%s", out.String())
	}
	require.Contains(t, out.String(), "0 dropped, 0 rejected")
	require.Len(t, s.history(t), stored, "each event published stored once, nothing the transcript held before")
}

func lines(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return bytes.SplitAfter(bytes.TrimRight(data, "\n"), []byte("\n"))
}

func write(t *testing.T, path string, ls [][]byte) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, withNewline(bytes.Join(ls, nil)), 0o644))
	return path
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}

var timestamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

// appendSlowly appends the lines to path one at a time, as an agent writes its session; with
// now, its timestamps say when (a session begun after vibe-publish started is published
// from the time it started).
func appendSlowly(t *testing.T, path string, ls [][]byte, every time.Duration, now bool) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer f.Close()
	for _, l := range ls {
		if now {
			l = timestamp.ReplaceAll(l, []byte(time.Now().UTC().Format("2006-01-02T15:04:05.000Z")))
		}
		_, err := f.Write(withNewline(l))
		require.NoError(t, err)
		time.Sleep(every)
	}
}

// eventIDs are the ids of the events an adapter makes of one file, in order: those viewers
// see with the default settings (no thinking), and all.
func eventIDs(t *testing.T, path, adapter, flag string) (shown, all []string) {
	t.Helper()
	out, err := publish(t, nil, "--dry-run", "--quiet", adapter, flag, path, "--project", "/home/streamer/src/nightbus", "--once")
	require.NoError(t, err, out)
	for _, ev := range decode(t, out) {
		all = append(all, ev.EventID)
		if ev.EventType != vibe.TypeThinking {
			shown = append(shown, ev.EventID)
		}
	}
	return shown, all
}

// without is list without the ids in drop.
func without(list, drop []string) []string {
	var out []string
	for _, id := range list {
		if !slices.Contains(drop, id) {
			out = append(out, id)
		}
	}
	return out
}
