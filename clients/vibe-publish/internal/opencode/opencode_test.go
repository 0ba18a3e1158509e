package opencode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
)

const project = "/home/streamer/src/nightbus"

func TestMapsASession(t *testing.T) {
	t.Parallel()
	data := fixture.Unpack(t, fixture.Dir(2, "opencode", "own"), t.TempDir())
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), Options{ProjectDir: project, DataDir: data}, s.Emit))
	evs := s.Events()
	require.Equal(t, []string{
		"prompt: The departures list shows 24:10 before 23:50. Fix @internal/timetable/parse.go and run the tests. My key is sk-ant-api03-Zq8vR2mK9xL4pW7nT1yH6bF3cJ5dG0sA8eU2iO…",
		"thinking: The parser takes hours modulo 24; a 24:10 departure becomes 00:10.",
		"response: I'll reproduce it with the tests first.",
		"tool.call: Running tests (go test)",
		"tool.call: Ran tests (go test) — 1 failed",
		"tool.call: Editing internal/timetable/parse.go",
		"tool.call: Edited internal/timetable/parse.go",
		"file.change: Edited internal/timetable/parse.go (+2 −1)",
		"tool.call: Editing internal/timetable/wrap_test.go",
		"tool.call: Edited internal/timetable/wrap_test.go",
		"file.change: Created internal/timetable/wrap_test.go (+9)",
		"tool.call: Searching for `h%24` in internal",
		"tool.call: Searched for `h%24` in internal — 2 files",
		"tool.call: Reading internal/timetable/missing.go",
		"tool.call: Could not read internal/timetable/missing.go",
		"response: Fixed: hours past 24 are kept, so **24:10** sorts after 23:50, and `wrap_test.go` covers it.",
		"session.status: Conversation compacted to free context",
		"prompt: commit it",
		"tool.call: Updating the plan",
		"tool.call: Updated the plan (1 of 2 done)",
		"tool.call: Commit the fix",
		"tool.call: Commit the fix — no result",
	}, fixture.Summaries(evs), "the synthetic part (the file the prompt mentions) is not a prompt")
	require.Equal(t, "ses_52e1a9c0effeL7dq3XnPbWv2Tz", evs[0].SessionID)
	require.Equal(t, "claude-sonnet-4-5", evs[2].Metadata.Model)
	require.Equal(t, "2025-11-29T21:00:01Z", evs[0].OccurredAt)
	fixture.Check(t, "own", evs)
	var again fixture.Sink
	require.NoError(t, Run(t.Context(), Options{ProjectDir: project, DataDir: data}, again.Emit))
	fixture.SameIDs(t, "own", evs, again.Events())
}

func TestPicksTheProjectsNewestSession(t *testing.T) {
	t.Parallel()
	data := fixture.Unpack(t, fixture.Dir(2, "opencode", "own"), t.TempDir())
	p, _, err := Newest(StorageDir(data), project+"/internal")
	require.NoError(t, err)
	require.Equal(t, "ses_52e1a9c0effeL7dq3XnPbWv2Tz.json", filepath.Base(p), "not the sub-agent's session, not another project's")
	_, _, err = Newest(StorageDir(data), "/home/streamer/src/elsewhere")
	require.ErrorIs(t, err, ErrNoSession)
}

func TestFollowPublishesNewAndChangedParts(t *testing.T) {
	t.Parallel()
	data := fixture.Unpack(t, fixture.Dir(2, "opencode", "own"), t.TempDir())
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	started := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{ProjectDir: project, DataDir: data, Follow: true, Poll: 5 * time.Millisecond, OnSession: func(p string) { started <- p }}, s.Emit)
	}()
	<-started
	time.Sleep(50 * time.Millisecond)
	require.Empty(t, s.Events())
	storage := StorageDir(data)
	// the running commit finishes, and a new text part streams in
	bash := filepath.Join(storage, "part", "msg_52e1a9c50001ZeAsst00000005", "prt_52e1a9c50003ToolBash00002.json")
	var p map[string]any
	raw, err := os.ReadFile(bash)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &p))
	st := p["state"].(map[string]any)
	st["status"], st["output"], st["metadata"] = "completed", "[main 8c1f2e3] timetable: keep hours past 24\n", map[string]any{"exit": 0}
	st["time"] = map[string]any{"start": 1764450082000, "end": 1764450083000}
	raw, _ = json.Marshal(p)
	require.NoError(t, os.WriteFile(bash, raw, 0o600))
	text := filepath.Join(storage, "part", "msg_52e1a9c50001ZeAsst00000005", "prt_52e1a9c50004TextDone00002.json")
	require.NoError(t, os.WriteFile(text, []byte(`{"id":"prt_52e1a9c50004TextDone00002","messageID":"msg_52e1a9c50001ZeAsst00000005","type":"text","text":"Commit`+`","time":{"start":1764450084000}}`), 0o600))
	require.Eventually(t, func() bool { return len(s.Events()) == 1 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	require.Len(t, s.Events(), 1, "a text part still streaming is not published")
	require.NoError(t, os.WriteFile(text, []byte(`{"id":"prt_52e1a9c50004TextDone00002","messageID":"msg_52e1a9c50001ZeAsst00000005","type":"text","text":"Committed as 8c1f2e3.","time":{"start":1764450084000,"end":1764450085000}}`), 0o600))
	require.Eventually(t, func() bool { return len(s.Events()) == 2 }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"tool.call: Commit the fix", "response: Committed as 8c1f2e3."}, fixture.Summaries(s.Events()))
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

// Storage the adapter was not written against (testdata/agents/opencode/README.md).
func TestHeldBackSessions(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, fixture.Dir(2, "opencode", "heldout"), t.TempDir())
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "storage", "session", "*", "*.json"))
	require.NotEmpty(t, files)
	for _, p := range files {
		var s fixture.Sink
		require.NoError(t, Run(t.Context(), Options{Session: p}, s.Emit))
		t.Logf("%s: %v", filepath.Base(p), fixture.Check(t, p, s.Events()))
	}
}
