package codex

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
)

const rollout = "2026/11/29/rollout-2026-11-29T21-00-00-019ad2f1-6c3e-7b20-9a41-5d0e8c7b3f12.jsonl"

// home lays out the fixture rollouts as $CODEX_HOME/sessions.
func home(t *testing.T) string {
	t.Helper()
	h := t.TempDir()
	fixture.Unpack(t, fixture.Dir(2, "codex", "own"), filepath.Join(h, "sessions"))
	return h
}

func TestMapsARollout(t *testing.T) {
	t.Parallel()
	h := home(t)
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), Options{Rollout: filepath.Join(h, "sessions", rollout)}, s.Emit))
	evs := s.Events()
	require.Equal(t, []string{
		"prompt: The timetable parser breaks on midnight wraparound: a 24:10 departure sorts before 23:50. Fix it and add a test. The staging key is AKIAZ7QW3RT5YU8IOPLK if you…",
		"thinking: **Locating the parser**",
		"tool.call: Running rg",
		"tool.call: Ran rg",
		"tool.call: Updating the plan",
		"tool.call: Updated the plan (0 of 3 done)",
		"tool.call: Editing 3 files",
		"tool.call: Edited 3 files",
		"file.change: Edited internal/timetable/parse.go (+2 −1)",
		"file.change: Created internal/timetable/wrap_test.go (+9)",
		"file.change: Deleted internal/timetable/legacy_wrap.go",
		"tool.call: Running tests (go test)",
		"tool.call: Ran tests (go test) — 2 failed",
		"tool.call: Editing internal/timetable/parse.go",
		"tool.call: Edited internal/timetable/parse.go",
		"file.change: Edited internal/timetable/parse.go (+1 −1)",
		"tool.call: Running tests (go test)",
		"tool.call: Ran tests (go test) — passed",
		"tool.call: Searched the web for “go time.Duration modulo negative”",
		"response: Fixed: `parseTime` keeps hours past 24 so that **24:10** sorts after 23:50, and `wrap_test.go` covers it.",
		"session.status: Conversation compacted to free context",
		"prompt: commit it",
		"tool.call: Running git commit",
		"tool.call: Running git commit — no result",
	}, fixture.Summaries(evs))
	for _, ev := range evs {
		require.Equal(t, "019ad2f1-6c3e-7b20-9a41-5d0e8c7b3f12", ev.SessionID)
		require.NotEmpty(t, ev.OccurredAt)
	}
	require.Equal(t, "error", evs[12].Tool.Phase)
	require.Equal(t, "gpt-5.1-codex", evs[20].Metadata.Model)
	require.Equal(t, "@@\n \th, m, err := split(s)\n-\treturn time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, err\n+\td := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute\n+\treturn d % (24 * time.Hour), err", *evs[8].File.Snippet)

	var again fixture.Sink
	require.NoError(t, Run(t.Context(), Options{Rollout: filepath.Join(h, "sessions", rollout)}, again.Emit))
	for i, ev := range again.Events() {
		require.Equal(t, evs[i].EventID, ev.EventID, "ids are stable across reads")
	}
}

func TestLegacyRollout(t *testing.T) {
	t.Parallel()
	h := home(t)
	var s fixture.Sink
	p := filepath.Join(h, "sessions", "2025/05/20/rollout-2025-05-20-5f1c9e2a-0d3b-4a7e-9c18-2b6d4e8f0a13.jsonl")
	require.NoError(t, Run(t.Context(), Options{Rollout: p, ProjectDir: "/home/streamer/src/nightbus"}, s.Emit))
	require.Equal(t, []string{
		"prompt: print the bus lines we know about",
		"tool.call: Editing lines.txt",
		"tool.call: Edited lines.txt",
		"file.change: Created lines.txt (+2)",
		"response: Wrote lines.txt with the two night lines.",
	}, fixture.Summaries(s.Events()))
}

func TestPicksTheProjectsNewestSession(t *testing.T) {
	t.Parallel()
	h := home(t)
	other := filepath.Join(h, "sessions", "2026/11/30/rollout-2026-11-30T08-00-00-other.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(other), 0o755))
	require.NoError(t, os.WriteFile(other, []byte(`{"timestamp":"2026-11-30T08:00:00Z","type":"session_meta","payload":{"id":"other","cwd":"/home/streamer/src/other"}}`+"\n"), 0o600))
	p, _, err := Newest("/home/streamer/src/nightbus", h)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(h, "sessions", rollout), p)
	_, _, err = Newest("/home/streamer/src/elsewhere", h)
	require.ErrorIs(t, err, ErrNoSession)
}

func TestFollowPublishesWhatCodexAppends(t *testing.T) {
	t.Parallel()
	h := home(t)
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	started := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{ProjectDir: "/home/streamer/src/nightbus", CodexHome: h, Follow: true, Poll: 5 * time.Millisecond,
			OnSession: func(p string) { started <- p }}, s.Emit)
	}()
	p := <-started
	time.Sleep(50 * time.Millisecond)
	require.Empty(t, s.Events(), "what the session held is not replayed")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"timestamp":"2026-11-29T21:09:00.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_G1","output":"Exit code: 0\nOutput:\n[main 4be1f0c] timetable: keep hours past 24\n"}}` + "\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Eventually(t, func() bool { return len(s.Events()) == 1 }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, "Ran git commit", s.Events()[0].Summary, "the call started before following is matched")
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

func TestNotARollout(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "rollout-x.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"eventType":"prompt"}`+"\n"), 0o600))
	require.ErrorIs(t, Run(t.Context(), Options{Rollout: p}, (&fixture.Sink{}).Emit), ErrNotRollout)
}
