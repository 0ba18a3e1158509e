package claudecode

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"

	"openvibe.live/backend/shared/vibe"
)

func mapFixture(t *testing.T, path string) []vibe.Event {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m := NewMapper("")
	var out []vibe.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		evs, err := m.Line(sc.Bytes())
		require.NoError(t, err)
		out = append(out, evs...)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestMapsTranscript(t *testing.T) {
	t.Parallel()
	evs := mapFixture(t, "testdata/session.jsonl")
	type want struct {
		typ, phase, name, path, op string
		count                      int
	}
	wants := []want{
		{typ: vibe.TypePrompt},
		{typ: vibe.TypeThinking},
		{typ: vibe.TypeResponse},
		{typ: vibe.TypeToolCall, phase: "start", name: "Edit"},
		{typ: vibe.TypeToolCall, phase: "end", name: "Edit"},
		{typ: vibe.TypeFileChange, path: "internal/timetable/parse.go", op: "edit", count: 5},
		{typ: vibe.TypeToolCall, phase: "start", name: "Bash"},
		{typ: vibe.TypeToolCall, phase: "end", name: "Bash"},
		{typ: vibe.TypeToolCall, phase: "start", name: "Write"},
		{typ: vibe.TypeToolCall, phase: "end", name: "Write"},
		{typ: vibe.TypeFileChange, path: "config/local.env", op: "create", count: 3},
		{typ: vibe.TypeToolCall, phase: "start", name: "MultiEdit"},
		{typ: vibe.TypeToolCall, phase: "end", name: "MultiEdit"},
		{typ: vibe.TypeFileChange, path: "internal/timetable/parse_test.go", op: "edit", count: 3},
		{typ: vibe.TypeToolCall, phase: "start", name: "Read"},
		{typ: vibe.TypeToolCall, phase: "error", name: "Read"},
		{typ: vibe.TypeResponse},
	}
	require.Len(t, evs, len(wants))
	ids := map[string]bool{}
	for i, w := range wants {
		ev := evs[i]
		require.Equal(t, w.typ, ev.EventType, "event %d", i)
		require.False(t, ids[ev.EventID], "eventIds are distinct")
		ids[ev.EventID] = true
		require.Equal(t, "4f35e220-c435-4cf7-b9b9-f40426042847", ev.SessionID)
		require.Equal(t, Channel, ev.Source.Channel)
		require.NotEmpty(t, ev.OccurredAt)
		require.NotEmpty(t, ev.Summary)
		switch w.typ {
		case vibe.TypeToolCall:
			require.Equal(t, w.phase, ev.Tool.Phase, "event %d", i)
			require.Equal(t, w.name, ev.Tool.Name, "event %d", i)
		case vibe.TypeFileChange:
			require.Equal(t, w.path, ev.File.RelativePath, "event %d", i)
			require.Equal(t, w.op, ev.File.Operation, "event %d", i)
			require.Equal(t, w.count, ev.File.ChangeCount, "event %d", i)
		}
	}
	require.Contains(t, evs[0].Prompt.Text, "midnight wraparound")
	require.Equal(t, "claude-sonnet-4-20250514", evs[2].Metadata.Model)
	require.Equal(t, "nightbus", evs[2].Metadata.WorkspaceName)
	require.Contains(t, evs[3].Tool.ArgumentsPreview, "old_string")
	require.Contains(t, evs[7].Tool.ResultPreview, "nightbus/internal/timetable")

	again := mapFixture(t, "testdata/session.jsonl")
	for i := range evs {
		require.Equal(t, evs[i].EventID, again[i].EventID, "eventIds are stable across reads")
	}
}

func TestEscapeProjectPath(t *testing.T) {
	t.Parallel()
	require.Equal(t, "-home-streamer-src-night-bus-v2", EscapeProjectPath("/home/streamer/src/night_bus.v2"))
}

func mapLines(t *testing.T, m *Mapper, lines ...string) []vibe.Event {
	t.Helper()
	var out []vibe.Event
	for _, l := range lines {
		evs, err := m.Line([]byte(l))
		require.NoError(t, err)
		out = append(out, evs...)
	}
	return out
}

const (
	head     = `"sessionId":"s1","cwd":"/home/streamer/src/nightbus","timestamp":"2026-11-29T21:00:00.000Z"`
	bashUse  = `{"type":"assistant",` + head + `,"uuid":"a1","message":{"id":"m1","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"go test ./...","description":"Run the tests"}}]}}`
	toolDone = `{"type":"user",` + head + `,"uuid":"u2","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"Exit code 1\n--- FAIL: TestWrap (0.00s)\n--- FAIL: TestMidnight (0.00s)\nFAIL"}]}}`
)

func TestPromptsTheStreamerDidNotType(t *testing.T) {
	t.Parallel()
	evs := mapLines(t, NewMapper(""),
		`{"type":"user",`+head+`,"uuid":"u1","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"message":{"content":"This session is being continued from a previous conversation that ran out of context."}}`,
		`{"type":"user",`+head+`,"uuid":"u2","message":{"content":"<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>"}}`,
		`{"type":"user",`+head+`,"uuid":"u3","message":{"content":[{"type":"text","text":"<ide_selection>The user selected the lines 3 to 4 from /home/streamer/src/nightbus/.env:\nDB_PASSWORD=hunter2\n</ide_selection>"},{"type":"text","text":"<ide_opened_file>The user opened the file /home/streamer/src/nightbus/x.go in the IDE.</ide_opened_file>"},{"type":"text","text":"make the bus wrap at midnight"}]}}`,
		`{"type":"user",`+head+`,"uuid":"u4","message":{"content":"<ide_opened_file>The user opened x.go</ide_opened_file> and fix the tests"}}`,
		`{"type":"assistant",`+head+`,"uuid":"a5","message":{"content":[{"type":"thinking","thinking":"","signature":"EqoBCkgIBxABGAIiQ"}]}}`,
		`{"type":"user",`+head+`,"uuid":"u6","message":{"content":"<bash-input>git status</bash-input>"}}`,
	)
	require.Len(t, evs, 3)
	require.Equal(t, "make the bus wrap at midnight", evs[0].Prompt.Text)
	require.Equal(t, "and fix the tests", evs[1].Prompt.Text)
	require.Equal(t, vibe.TypeToolCall, evs[2].EventType, "a command run with ! is a tool call")
	require.Equal(t, "Ran git status", evs[2].Summary)
}

func TestToolSummariesNeedNoArguments(t *testing.T) {
	t.Parallel()
	evs := mapLines(t, NewMapper(""), bashUse, toolDone)
	require.Len(t, evs, 2)
	require.Equal(t, "Running tests (go test)", evs[0].Summary)
	require.Equal(t, "Ran tests (go test) — 2 failed", evs[1].Summary)
	require.Equal(t, "error", evs[1].Tool.Phase)
}

func TestLongToolResultClosesTheCall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "s1.jsonl")
	big := `{"type":"user",` + head + `,"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"` + strings.Repeat("x", 4096) + `"}]},"uuid":"u2"}`
	require.NoError(t, os.WriteFile(p, []byte(bashUse+"\n"+big+"\n"), 0o600))
	var s fixture.Sink
	var skipped []int64
	require.NoError(t, Run(t.Context(), Options{Transcript: p, maxLine: 1024, OnBadLine: func(_ string, n int64, _ error) { skipped = append(skipped, n) }}, s.Emit))
	evs := s.Events()
	require.Len(t, evs, 2)
	require.Equal(t, "end", evs[1].Tool.Phase)
	require.Contains(t, evs[1].Tool.ResultPreview, "too large")
	require.Equal(t, []int64{2}, skipped, "the streamer is told a line was skipped")
}

func TestUnfinishedCallsAreClosedAtTheEnd(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "s1.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(bashUse+"\n"), 0o600))
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), Options{Transcript: p}, s.Emit))
	evs := s.Events()
	require.Len(t, evs, 2)
	require.Equal(t, "Running tests (go test) — no result", evs[1].Summary)
}
