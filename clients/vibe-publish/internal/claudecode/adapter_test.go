package claudecode

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"

	"openvibe.live/backend/shared/vibe"
)

// layout writes the first n lines of the fixture as the project's transcript.
func layout(t *testing.T, n int) (opt Options, transcript string, rest [][]byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/session.jsonl")
	require.NoError(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	claude, project := t.TempDir(), filepath.Join(t.TempDir(), "night_bus")
	require.NoError(t, os.MkdirAll(project, 0o755))
	dir := filepath.Join(claude, "projects", EscapeProjectPath(project))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	transcript = filepath.Join(dir, "4f35e220-c435-4cf7-b9b9-f40426042847.jsonl")
	require.NoError(t, os.WriteFile(transcript, bytes.Join(lines[:n], nil), 0o600))
	// An older session and a sub-agent transcript that must not be picked.
	old := filepath.Join(dir, "0a6afc57-2f31-4cb4-8ff0-01247f50c64c.jsonl")
	require.NoError(t, os.WriteFile(old, lines[1], 0o600))
	require.NoError(t, os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "agent-a748733.jsonl"), lines[1], 0o600))
	return Options{ProjectDir: project, ClaudeDir: claude, Poll: 5 * time.Millisecond}, transcript, lines[n:]
}

func TestRunPicksNewestTranscriptOfProject(t *testing.T) {
	t.Parallel()
	opt, transcript, _ := layout(t, 19)
	var picked string
	opt.OnTranscript = func(p string) { picked = p }
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), opt, s.Emit))
	require.Equal(t, transcript, picked)
	require.Len(t, s.Events(), 17)
}

func TestRunNoTranscript(t *testing.T) {
	t.Parallel()
	err := Run(t.Context(), Options{ProjectDir: t.TempDir(), ClaudeDir: t.TempDir()}, (&fixture.Sink{}).Emit)
	require.ErrorIs(t, err, ErrNoTranscript)
}

func TestFollowPublishesOnlyNewLinesAndMatchesEarlierToolUses(t *testing.T) {
	t.Parallel()
	// The transcript holds everything up to the Edit tool use (7 lines); following starts
	// after it, and the tool result that arrives later still finds its tool use.
	opt, transcript, rest := layout(t, 7)
	opt.Follow = true
	following := make(chan string, 1)
	opt.OnTranscript = func(p string) { following <- p }
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	done := make(chan error, 1)
	go func() { done <- Run(ctx, opt, s.Emit) }()
	require.Equal(t, transcript, <-following)
	time.Sleep(50 * time.Millisecond)
	require.Empty(t, s.Events(), "history is not replayed")

	f, err := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.Write(rest[0]) // the Edit's tool_result
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Eventually(t, func() bool { return len(s.Events()) == 2 }, 2*time.Second, 5*time.Millisecond)
	evs := s.Events()
	require.Equal(t, "Edit", evs[0].Tool.Name)
	require.Equal(t, "end", evs[0].Tool.Phase)
	require.Equal(t, "internal/timetable/parse.go", evs[1].File.RelativePath)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

func TestFollowSwitchesToANewSession(t *testing.T) {
	t.Parallel()
	opt, transcript, _ := layout(t, 19)
	opt.Follow = true
	following := make(chan string, 4)
	opt.OnTranscript = func(p string) { following <- p }
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	done := make(chan error, 1)
	go func() { done <- Run(ctx, opt, s.Emit) }()
	require.Equal(t, transcript, <-following)

	// A new session starts: its transcript is published from its first line.
	data, err := os.ReadFile("testdata/session.jsonl")
	require.NoError(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	next := filepath.Join(filepath.Dir(transcript), "9d1e2f3a-0000-4000-8000-00000000abcd.jsonl")
	require.NoError(t, os.WriteFile(next, bytes.ReplaceAll(lines[1], []byte("4f35e220"), []byte("9d1e2f3a")), 0o600))
	future := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(next, future, future))
	select {
	case p := <-following:
		require.Equal(t, next, p)
	case <-time.After(10 * time.Second):
		t.Fatal("did not switch to the newer transcript")
	}
	require.Eventually(t, func() bool { return len(s.Events()) == 1 }, 5*time.Second, 5*time.Millisecond)
	ev := s.Events()[0]
	require.Equal(t, vibe.TypePrompt, ev.EventType)
	require.Equal(t, "9d1e2f3a-c435-4cf7-b9b9-f40426042847", ev.SessionID)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

// A sub-agent that starts while following is picked up: its edits reach viewers, its
// instructions from the main agent do not.
func TestFollowPicksUpSubAgents(t *testing.T) {
	t.Parallel()
	opt, transcript, _ := layout(t, 19)
	opt.Follow = true
	following := make(chan string, 1)
	opt.OnTranscript = func(p string) { following <- p }
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	done := make(chan error, 1)
	go func() { done <- Run(ctx, opt, s.Emit) }()
	<-following

	sub := filepath.Join(filepath.Dir(transcript), "4f35e220-c435-4cf7-b9b9-f40426042847", "subagents")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	h := `"isSidechain":true,"agentId":"a1","sessionId":"4f35e220-c435-4cf7-b9b9-f40426042847","cwd":"/home/streamer/src/nightbus","timestamp":"2026-11-29T21:05:00.000Z"`
	lines := []string{
		`{"type":"user",` + h + `,"uuid":"s1","message":{"content":"Rename the parser's helper"}}`,
		`{"type":"assistant",` + h + `,"uuid":"s2","message":{"content":[{"type":"text","text":"I'll rename it."},{"type":"tool_use","id":"toolu_s","name":"Edit","input":{"file_path":"/home/streamer/src/nightbus/internal/timetable/parse.go","old_string":"func h(","new_string":"func hours("}}]}}`,
		`{"type":"user",` + h + `,"uuid":"s3","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_s","content":"ok"}]}}`,
	}
	require.NoError(t, os.WriteFile(filepath.Join(sub, "agent-a1.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	require.Eventually(t, func() bool { return len(s.Events()) == 3 }, 10*time.Second, 10*time.Millisecond)
	evs := s.Events()
	require.Equal(t, []string{vibe.TypeToolCall, vibe.TypeToolCall, vibe.TypeFileChange}, []string{evs[0].EventType, evs[1].EventType, evs[2].EventType})
	require.Equal(t, "internal/timetable/parse.go", evs[2].File.RelativePath)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}
