package claudecode

import (
	"bufio"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

func mapFixture(t *testing.T, path string) []vibe.Event {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m := NewMapper()
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

func TestRelativeTo(t *testing.T) {
	t.Parallel()
	require.Equal(t, "a/b.go", relativeTo("/w/p", "/w/p/a/b.go"))
	require.Equal(t, "secret.txt", relativeTo("/w/p", "/etc/secret.txt"))
	require.Equal(t, "x.go", relativeTo("/w/p", "/w/p2/x.go"))
	require.Equal(t, "rel/x.go", relativeTo("/w/p", "rel/x.go"))
}

func TestEscapeProjectPath(t *testing.T) {
	t.Parallel()
	require.Equal(t, "-home-streamer-src-night-bus-v2", EscapeProjectPath("/home/streamer/src/night_bus.v2"))
}
