package livepublish

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/snapshot"
)

func TestMapperTurn(t *testing.T) {
	t.Parallel()
	now := time.Now()
	end := now
	m := NewMapper()
	var got []vibe.Event
	feed := func(typ string, props any) {
		got = append(got, m.Map(bus.Event{Type: typ, SessionID: "ses_1", Time: now, Properties: props})...)
	}
	meta := func(id, msg string, typ message.PartType) message.PartMeta {
		return message.PartMeta{ID: id, MessageID: msg, SessionID: "ses_1", Type: typ}
	}
	feed(bus.SessionCreated, map[string]any{"directory": "/home/ada/proj"})
	feed(bus.SessionStatus, map[string]any{"status": "busy"})
	feed(bus.MessageUpdated, message.Message{ID: "msg_u", Role: message.RoleUser})
	feed(bus.PartUpdated, &message.TextPart{PartMeta: meta("prt_1", "msg_u", message.TypeText), Text: "fix the bug", Time: message.Span{Start: now, End: &end}})
	feed(bus.MessageUpdated, message.Message{ID: "msg_a", Role: message.RoleAssistant})
	feed(bus.PartUpdated, &message.ReasoningPart{PartMeta: meta("prt_2", "msg_a", message.TypeReasoning), Text: "hmm", Time: message.Span{Start: now, End: &end}})
	feed(bus.PartUpdated, &message.TextPart{PartMeta: meta("prt_3", "msg_a", message.TypeText), Text: "Looking", Time: message.Span{Start: now}}) // streaming: nothing
	tp := &message.ToolPart{PartMeta: meta("prt_4", "msg_a", message.TypeTool), Tool: "edit", State: message.ToolPending,
		Input: json.RawMessage(`{"file_path": "/home/ada/proj/src/a.go", "old_string": "x", "new_string": "y"}`)}
	feed(bus.PartUpdated, tp)
	tp.State = message.ToolRunning
	feed(bus.PartUpdated, tp)
	feed(bus.PartUpdated, tp) // repeated update: no duplicate
	tp.State, tp.Output = message.ToolCompleted, "Edited src/a.go"
	feed(bus.PartUpdated, tp)
	feed(bus.PartUpdated, &message.TextPart{PartMeta: meta("prt_3", "msg_a", message.TypeText), Text: "Looking done", Time: message.Span{Start: now, End: &end}})
	feed(EventDiff, TurnDiff{MessageID: "msg_a", Changes: []snapshot.Change{{Path: "src/a.go", Op: snapshot.Modified, Lines: 2}, {Path: "new.txt", Op: snapshot.Added}}})
	feed(bus.SessionStatus, map[string]any{"status": "idle"})

	var types []string
	for _, ev := range got {
		types = append(types, ev.EventType)
		_, err := vibe.ParseEvent(mustJSON(t, ev))
		require.NoError(t, err, "%s is a valid protocol event", ev.EventID)
	}
	require.Equal(t, []string{"session.status", "prompt", "thinking", "tool.call", "tool.call", "file.save", "response", "file.change", "file.change", "session.status"}, types)
	require.Equal(t, "ov-prt_1-prompt", got[1].EventID)
	require.Equal(t, "fix the bug", got[1].Prompt.Text)
	require.Equal(t, "start", got[3].Tool.Phase)
	require.Equal(t, "ov-prt_4-start", got[3].EventID)
	require.Equal(t, "end", got[4].Tool.Phase)
	require.Equal(t, "Edited src/a.go", got[4].Tool.ResultPreview)
	require.Equal(t, "src/a.go", got[5].File.RelativePath)
	require.Equal(t, "Looking done", got[6].Response.Text)
	require.Equal(t, &vibe.FileBody{Name: "a.go", RelativePath: "src/a.go", Operation: "edit", ChangeCount: 2}, got[7].File)
	require.Equal(t, "create", got[8].File.Operation)
	require.Equal(t, "idle", got[9].Status.State)
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
