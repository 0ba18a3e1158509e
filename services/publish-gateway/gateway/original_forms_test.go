package gateway

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// originalForm is an event in a form the original platform's publishers send, the canonical
// value it must be stored with, and the normalized record the owner sees.
type originalForm struct {
	name  string
	event map[string]any
	check func(t *testing.T, ev vibe.Event)
	norm  string
}

func originalForms() []originalForm {
	tool := func(phase string) map[string]any {
		return map[string]any{"eventType": "tool.call", "tool": map[string]any{"name": "run_in_terminal", "phase": phase}}
	}
	return []originalForm{
		{"tool phase completed", tool("completed"), func(t *testing.T, ev vibe.Event) { require.Equal(t, "end", ev.Tool.Phase) }, `{"tool.phase":"completed"}`},
		{"tool phase failed", tool("failed"), func(t *testing.T, ev vibe.Event) { require.Equal(t, "error", ev.Tool.Phase) }, `{"tool.phase":"failed"}`},
		{"tool phase running", tool("running"), func(t *testing.T, ev vibe.Event) { require.Equal(t, "start", ev.Tool.Phase) }, `{"tool.phase":"running"}`},
		{"file operation modify", map[string]any{"eventType": "file.change", "file": map[string]any{"name": "a.go", "relativePath": "src/a.go", "operation": "modify"}},
			func(t *testing.T, ev vibe.Event) { require.Equal(t, "edit", ev.File.Operation) }, `{"file.operation":"modify"}`},
		{"sequence as a string", map[string]any{"eventType": "prompt", "sequence": "17", "prompt": map[string]any{"text": "go"}},
			func(t *testing.T, ev vibe.Event) { require.EqualValues(t, 17, ev.Sequence) }, `{"sequence":"17"}`},
		{"changeCount as a string", map[string]any{"eventType": "file.change", "file": map[string]any{"name": "a.go", "changeCount": "3"}},
			func(t *testing.T, ev vibe.Event) { require.Equal(t, 3, ev.File.ChangeCount) }, `{"file.changeCount":"3"}`},
		{"occurredAt in epoch milliseconds", map[string]any{"eventType": "prompt", "occurredAt": 1776813001099},
			func(t *testing.T, ev vibe.Event) { require.Equal(t, "2026-04-21T23:10:01.099Z", ev.OccurredAt) }, `{"occurredAt":1776813001099}`},
		{"occurredAt in another date form", map[string]any{"eventType": "prompt", "occurredAt": "2026-04-21 23:10:01"},
			func(t *testing.T, ev vibe.Event) { require.Equal(t, "2026-04-21T23:10:01.000Z", ev.OccurredAt) }, `{"occurredAt":"2026-04-21 23:10:01"}`},
		{"depth verbose", map[string]any{"eventType": "response", "depth": "verbose", "response": map[string]any{"text": "done"}},
			func(t *testing.T, ev vibe.Event) { require.Equal(t, vibe.DepthDeep, ev.Depth) }, `{"depth":"verbose"}`},
		{"a custom eventType", map[string]any{"eventType": "terminal.output", "summary": "go test ./... passed"},
			func(t *testing.T, ev vibe.Event) {
				require.Equal(t, "terminal.output", ev.EventType)
				require.Equal(t, "go test ./... passed", ev.Summary)
			}, ``},
	}
}

// TestOriginalValueForms: every value form of the original platform's publishers is acked,
// stored canonical with its normalized record, and published for viewers.
func TestOriginalValueForms(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	col := h.subscribe(ms.ID)
	ctx := h.ctx()
	const key = "openvibe-20260421231000-ab12cd34"
	c := h.connect(tok, ms, key)
	forms := originalForms()
	for i, f := range forms {
		ev := map[string]any{"eventId": numbered(i), "sessionKey": key, "summary": "step"}
		for k, v := range f.event {
			ev[k] = v
		}
		require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent, "sessionKey": key, "event": ev}))
		a := ack(t, must(c.Next(ctx)))
		require.Equal(t, numbered(i), a.EventID, f.name)
		require.True(t, a.Delivered, f.name)
	}
	stored, err := h.st.VibeEventsAfter(t.Context(), ms.ID, 0, 100)
	require.NoError(t, err)
	require.Len(t, stored, len(forms))
	for i, f := range forms {
		var ev vibe.Event
		require.NoError(t, json.Unmarshal(stored[i].Payload, &ev))
		f.check(t, ev)
		if f.norm == "" {
			require.Empty(t, stored[i].Normalized, f.name)
		} else {
			require.JSONEq(t, f.norm, string(stored[i].Normalized), f.name)
		}
	}
	require.Eventually(t, func() bool { return len(col.snapshot()) == len(forms) }, 5*time.Second, 10*time.Millisecond, "every event published")
	n := h.gw.met.normalizations
	require.Equal(t, 3.0, h.counter(n.WithLabelValues("tool.phase")))
	require.Equal(t, 1.0, h.counter(n.WithLabelValues("file.operation")))
	require.Equal(t, 2.0, h.counter(n.WithLabelValues("occurredAt")))
}

// TestNumericEventID: an id sent as a number is stored as its text, and the ack names it as
// the publisher sent it; sending it again (in either form) is a duplicate.
func TestNumericEventID(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "k")
	send := func(id any) map[string]any {
		require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent, "sessionKey": "k",
			"event": map[string]any{"eventId": id, "eventType": "prompt", "prompt": map[string]any{"text": "hi"}}}))
		m := must(c.Next(ctx))
		require.Equal(t, vibe.MsgAck, m.Type, "%s", m.Raw)
		f, err := m.Fields()
		require.NoError(t, err)
		return f
	}
	f := send(4711)
	require.Equal(t, 4711.0, f["event_id"], "a number stays a number in the ack")
	require.Nil(t, f["duplicate"])
	f = send("4711")
	require.Equal(t, "4711", f["event_id"])
	require.Equal(t, true, f["duplicate"])
	row, err := h.st.VibeEventByEventID(t.Context(), ms.ID, "4711")
	require.NoError(t, err)
	require.JSONEq(t, `{"eventId":4711}`, string(row.Normalized))
}

// TestEventBeforeHello: as on the original platform, an event on a connection without hello
// adopts the envelope's sessionKey, or else the event's own, and later events without one
// use it.
func TestEventBeforeHello(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	for _, tc := range []struct {
		name, envelopeKey, eventKey, want string
	}{
		{"envelope key", "env-key", "", "env-key"},
		{"event key", "", "event-key", "event-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := h.dial(tok, ms.ID, "")
			_, err := c.Ready(ctx)
			require.NoError(t, err)
			msg := map[string]any{"type": vibe.MsgEvent, "event": map[string]any{"eventId": tc.name + "-1", "eventType": "prompt"}}
			if tc.envelopeKey != "" {
				msg["sessionKey"] = tc.envelopeKey
			}
			if tc.eventKey != "" {
				msg["event"].(map[string]any)["sessionKey"] = tc.eventKey
			}
			require.NoError(t, c.Send(ctx, msg))
			require.Equal(t, tc.name+"-1", ack(t, must(c.Next(ctx))).EventID)
			require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent, "event": map[string]any{"eventId": tc.name + "-2", "eventType": "prompt"}}))
			require.Equal(t, tc.name+"-2", ack(t, must(c.Next(ctx))).EventID, "the adopted key serves later events")

			sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, tc.want)
			require.NoError(t, err)
			require.Equal(t, store.SessionActive, sess.Status)
			for _, id := range []string{tc.name + "-1", tc.name + "-2"} {
				row, err := h.st.VibeEventByEventID(t.Context(), ms.ID, id)
				require.NoError(t, err)
				require.Equal(t, sess.ID, row.SessionID)
				require.Equal(t, tc.want, row.SessionKey)
			}
		})
	}
}

// TestEventNamingAnotherSession: an event naming a session key other than the hello's is
// stored in that session, which takes the event's publisher or else the hello's; a session
// already known keeps its own.
func TestEventNamingAnotherSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "first")
	require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent, "sessionKey": "first",
		"event": map[string]any{"eventId": "x-1", "eventType": "prompt", "sessionKey": "second"}}))
	require.Equal(t, "x-1", ack(t, must(c.Next(ctx))).EventID)
	row, err := h.st.VibeEventByEventID(t.Context(), ms.ID, "x-1")
	require.NoError(t, err)
	require.Equal(t, "second", row.SessionKey, "the event's own key names its session, as on the original platform")
	sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "second")
	require.NoError(t, err)
	require.Equal(t, "GitHub Copilot", vibe.NormalizePublisher(sess.Publisher).IntegrationLabel)

	require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent,
		"event": map[string]any{"eventId": "x-2", "eventType": "prompt"}}))
	require.Equal(t, "x-2", ack(t, must(c.Next(ctx))).EventID)
	row, err = h.st.VibeEventByEventID(t.Context(), ms.ID, "x-2")
	require.NoError(t, err)
	require.Equal(t, "first", row.SessionKey, "an event without a key belongs to the hello's session")

	// A new session opened by an event that names its own publisher (one connection carrying
	// two agents' sessions) takes that publisher; a known session keeps its own.
	codex := map[string]any{"integrationId": "codex-cli", "integrationLabel": "Codex CLI\u0007 ", "clientType": "cli"}
	require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent, "event": map[string]any{
		"eventId": "x-3", "eventType": "prompt", "sessionKey": "third", "publisher": codex}}))
	require.Equal(t, "x-3", ack(t, must(c.Next(ctx))).EventID)
	sess, err = h.st.VibeSessionByKey(t.Context(), ms.ID, "third")
	require.NoError(t, err)
	require.Equal(t, vibe.Publisher{IntegrationID: "codex-cli", IntegrationLabel: "Codex CLI", ClientType: "cli"},
		vibe.NormalizePublisher(sess.Publisher), "the event's publisher, cleaned as a hello's is")
	require.NoError(t, c.Send(ctx, map[string]any{"type": vibe.MsgEvent, "event": map[string]any{
		"eventId": "x-4", "eventType": "prompt", "sessionKey": "second", "publisher": codex}}))
	require.Equal(t, "x-4", ack(t, must(c.Next(ctx))).EventID)
	sess, err = h.st.VibeSessionByKey(t.Context(), ms.ID, "second")
	require.NoError(t, err)
	require.Equal(t, "GitHub Copilot", vibe.NormalizePublisher(sess.Publisher).IntegrationLabel)
}
