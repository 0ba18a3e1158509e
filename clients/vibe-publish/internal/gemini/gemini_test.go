package gemini

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

func TestMapsAJSONLinesSession(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, fixture.Dir(2, "gemini", "own"), t.TempDir())
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), Options{ProjectDir: "/home/streamer/src/nightbus", GeminiDir: dir}, s.Emit))
	evs := s.Events()
	require.Equal(t, []string{
		"prompt: The departures list shows 24:10 before 23:50. Fix the sort in @internal/timetable/parse.go and run the tests.",
		"thinking: **Reproducing the failure**",
		"tool.call: Running tests (go test)",
		"tool.call: Ran tests (go test) — 1 failed",
		"response: The hours are taken modulo 24. I'll keep hours past 24 and add a test.",
		"tool.call: Editing internal/timetable/parse.go",
		"tool.call: Edited internal/timetable/parse.go",
		"file.change: Edited internal/timetable/parse.go (+2 −1)",
		"tool.call: Editing internal/timetable/wrap_test.go",
		"tool.call: Edited internal/timetable/wrap_test.go",
		"file.change: Created internal/timetable/wrap_test.go (+9)",
		"thinking: **Verifying**",
		"tool.call: Running tests (go test)",
		"tool.call: Ran tests (go test) — passed",
		"response: Fixed. **24:10** now sorts after 23:50:",
	}, fixture.Summaries(evs), "a rewound prompt is gone, the info line is not published")
	require.Equal(t, "error", evs[3].Tool.Phase)
	require.Equal(t, "9d2e4c1a-3b5f-4e60-8a71-2c9d0e1f4b36", evs[0].SessionID)
	require.Equal(t, "gemini-3-pro-preview", evs[4].Metadata.Model)
	fixture.Check(t, "own", evs)
}

// The JSON sessions of Gemini CLI 0.1x (the SHA-256 of the project's path names the
// directory) recorded by a user in public: /home/mischa is the project.
func TestTunedSessions(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, fixture.Dir(2, "gemini", "tuned"), t.TempDir())
	files, _ := filepath.Glob(filepath.Join(dir, "tmp", "*", "chats", "*.json"))
	require.Len(t, files, 3)
	var created []string
	for _, p := range files {
		read := func() []vibe.Event {
			var s fixture.Sink
			require.NoError(t, Run(t.Context(), Options{Session: p, ProjectDir: "/home/mischa"}, s.Emit))
			return s.Events()
		}
		evs := read()
		t.Logf("%s: %v", filepath.Base(p), fixture.Check(t, filepath.Base(p), evs))
		fixture.SameIDs(t, filepath.Base(p), evs, read())
		for _, ev := range evs {
			if ev.EventType == vibe.TypeFileChange && ev.File.Operation == "create" {
				created = append(created, ev.File.RelativePath)
			}
		}
	}
	sort.Strings(created)
	require.Contains(t, created, "Gemini-Playground/index.html")
}

func TestHeldBackSessions(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, fixture.Dir(2, "gemini", "heldout"), t.TempDir())
	files, _ := filepath.Glob(filepath.Join(dir, "tmp", "*", "chats", "*.json"))
	require.NotEmpty(t, files)
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			var s fixture.Sink
			require.NoError(t, Run(t.Context(), Options{Session: p, ProjectDir: "/home/mischa"}, s.Emit))
			t.Logf("%v", fixture.Check(t, filepath.Base(p), s.Events()))
		})
	}
}

func TestFindsTheProjectsSessions(t *testing.T) {
	t.Parallel()
	own := fixture.Unpack(t, fixture.Dir(2, "gemini", "own"), t.TempDir())
	p, _, err := Newest("/home/streamer/src/nightbus", own)
	require.NoError(t, err, "by the project registry and .project_root")
	require.Equal(t, "session-2026-11-29T21-00-9d2e4c1a.jsonl", filepath.Base(p))
	tuned := fixture.Unpack(t, fixture.Dir(2, "gemini", "tuned"), t.TempDir())
	p, _, err = Newest("/home/mischa", tuned)
	require.NoError(t, err, "by the SHA-256 of the path")
	require.Contains(t, filepath.Base(p), "session-2025-12-24")
	_, _, err = Newest("/home/streamer/src/other", own)
	require.ErrorIs(t, err, ErrNoSession)
}

// Gemini CLI rewrites a JSON session whole: following it publishes what each rewrite adds,
// once.
func TestFollowARewrittenSession(t *testing.T) {
	t.Parallel()
	project := "/home/streamer/src/nightbus"
	home := t.TempDir()
	chats := ChatDirs(home, project)[0]
	require.NoError(t, os.MkdirAll(chats, 0o755))
	path := filepath.Join(chats, "session-2026-11-29T22-00-aa11bb22.json")
	c := conversation{SessionID: "aa11bb22", StartTime: "2026-11-29T22:00:00Z", Messages: []message{
		{ID: "m1", Type: "user", Timestamp: "2026-11-29T22:00:01Z", Content: json.RawMessage(`"list the night lines"`)},
	}}
	write := func() {
		data, err := json.MarshalIndent(c, "", "  ")
		require.NoError(t, err)
		tmp := path + ".tmp"
		require.NoError(t, os.WriteFile(tmp, data, 0o600))
		require.NoError(t, os.Rename(tmp, path))
	}
	write()
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{ProjectDir: project, GeminiDir: home, Follow: true, Poll: 5 * time.Millisecond,
			OnSession: func(string) { close(started) }}, s.Emit)
	}()
	<-started
	time.Sleep(50 * time.Millisecond)
	require.Empty(t, s.Events(), "what the session held is not replayed")

	call := toolCall{ID: "run_shell_command-1", Name: "run_shell_command", Args: json.RawMessage(`{"command":"ls lines/"}`), Status: "executing", Timestamp: "2026-11-29T22:00:03Z"}
	c.Messages = append(c.Messages, message{ID: "m2", Type: "gemini", Timestamp: "2026-11-29T22:00:02Z", ToolCalls: []toolCall{call}})
	write()
	require.Eventually(t, func() bool { return len(s.Events()) == 1 }, 5*time.Second, 5*time.Millisecond)
	call.Status, call.Result = "success", json.RawMessage(`[{"functionResponse":{"response":{"output":"N1\nN2"}}}]`)
	c.Messages[1].ToolCalls[0] = call
	c.Messages[1].Content = json.RawMessage(`"Two lines: N1 and N2."`)
	write()
	require.Eventually(t, func() bool { return len(s.Events()) == 3 }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"tool.call: Running ls", "response: Two lines: N1 and N2.", "tool.call: Ran ls"}, fixture.Summaries(s.Events()))
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}
