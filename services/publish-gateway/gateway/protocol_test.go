package gateway

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// TestProtocolErrors sends each kind of bad message and checks the exact error text; the
// connection stays open after every one (a ping still gets its pong).
func TestProtocolErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.MaxConnsPerSlot = 100 }))
	_, tok, ms := h.liveSlot()
	const key = "openvibe-20260421231000-ab12cd34"

	withEvent := func(mod func(ev map[string]any)) string {
		m := eventMsg(key, "ev-1", vibe.TypeResponse, nil)
		mod(m["event"].(map[string]any))
		b, _ := json.Marshal(m)
		return string(b)
	}
	withEnvelope := func(mod func(m map[string]any)) string {
		m := eventMsg(key, "ev-1", vibe.TypeResponse, nil)
		mod(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	cases := []struct {
		name    string
		noHello bool
		msg     string
		want    string
		eventID string
	}{
		{"not json", false, `{"type":`, TextInvalidJSON, ""},
		{"not json at all", false, `hello`, TextInvalidJSON, ""},
		{"json array", false, `[1,2]`, TextInvalidPayload, ""},
		{"json string", false, `"vibe-coding.ping"`, TextInvalidPayload, ""},
		{"missing type", false, `{"sessionKey":"x"}`, TextInvalidPayload, ""},
		{"type not a string", false, `{"type":42}`, TextInvalidPayload, ""},
		{"unknown type", false, `{"type":"vibe-coding.subscribe"}`, "Unsupported message type: vibe-coding.subscribe", ""},
		{"hello without sessionKey", false, `{"type":"vibe-coding.hello","protocolVersion":1}`, TextSessionKeyRequired, ""},
		{"hello with a long sessionKey", false, `{"type":"vibe-coding.hello","sessionKey":"` + strings.Repeat("k", 257) + `"}`, TextSessionKeyTooLong, ""},
		{"hello with a wrong field type", false, `{"type":"vibe-coding.hello","sessionKey":{"k":1}}`, "sessionKey must be a string", ""},
		{"hello with a fractional protocolVersion", false, `{"type":"vibe-coding.hello","sessionKey":"k","protocolVersion":1.5}`, "protocolVersion must be an integer", ""},
		{"keys match exactly: Type", false, `{"Type":"vibe-coding.ping"}`, TextInvalidPayload, ""},
		{"keys match exactly: SessionKey", false, `{"type":"vibe-coding.hello","SessionKey":"k"}`, TextSessionKeyRequired, ""},
		{"hello for another slot", false, `{"type":"vibe-coding.hello","sessionKey":"k","managedStreamId":99999}`, TextSlotMismatch, ""},
		{"hello with another slug", false, `{"type":"vibe-coding.hello","sessionKey":"k","slotSlug":"nope"}`, vibe.ReasonSlugMismatch, ""},
		{"hello from the future", false, `{"type":"vibe-coding.hello","sessionKey":"k","protocolVersion":2}`, "Unsupported protocolVersion: 2", ""},
		{"event before hello without any sessionKey", true, withEnvelope(func(m map[string]any) {
			delete(m, "sessionKey")
			delete(m["event"].(map[string]any), "sessionKey")
		}), "sessionKey must be established before events are accepted", "ev-1"},
		{"event before hello with a long sessionKey", true, withEnvelope(func(m map[string]any) {
			m["sessionKey"] = strings.Repeat("k", 257)
			delete(m["event"].(map[string]any), "sessionKey")
		}), TextSessionKeyTooLong, "ev-1"},
		{"event missing", false, withEnvelope(func(m map[string]any) { delete(m, "event") }), "event payload is required", ""},
		{"event null", false, withEnvelope(func(m map[string]any) { m["event"] = nil }), "event payload is required", ""},
		{"event not an object", false, withEnvelope(func(m map[string]any) { m["event"] = "text" }), "event payload is required", ""},
		{"event without eventId", false, withEvent(func(ev map[string]any) { delete(ev, "eventId") }), "eventId and eventType are required", ""},
		{"event with a blank eventId", false, withEvent(func(ev map[string]any) { ev["eventId"] = "  " }), "eventId and eventType are required", ""},
		{"event with an object eventId", false, withEvent(func(ev map[string]any) { ev["eventId"] = map[string]any{"id": 1} }), "eventId and eventType are required", ""},
		{"event for another slot", false, withEnvelope(func(m map[string]any) { m["managedStreamId"] = 99999 }), TextSlotMismatch, "ev-1"},
		{"event for another slot, as a string", false, withEnvelope(func(m map[string]any) { m["managedStreamId"] = "99999" }), TextSlotMismatch, "ev-1"},
		{"event with another slug", false, withEnvelope(func(m map[string]any) { m["slotSlug"] = "nope" }), vibe.ReasonSlugMismatch, "ev-1"},
		{"event from the future", false, withEnvelope(func(m map[string]any) { m["protocolVersion"] = 2 }), "Unsupported protocolVersion: 2", "ev-1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := h.ctx()
			c := h.dial(tok, ms.ID, "")
			_, err := c.Ready(ctx)
			require.NoError(t, err)
			if !tc.noHello {
				_, err := c.Hello(ctx, helloMsg(key))
				require.NoError(t, err)
			}
			require.NoError(t, c.SendRaw(ctx, []byte(tc.msg)))
			m, err := c.Next(ctx)
			require.NoError(t, err)
			e := protoError(t, m)
			require.Equal(t, tc.want, e.Error)
			require.Equal(t, tc.eventID, e.EventID)

			require.NoError(t, c.Send(ctx, vibe.Ping{Type: vibe.MsgPing, ProtocolVersion: 1}))
			_, err = c.Expect(ctx, vibe.MsgPong, nil)
			require.NoError(t, err, "the connection stays open after an error")
		})
	}
	var stored []store.VibeEvent
	stored, err := h.st.VibeEventsAfter(t.Context(), ms.ID, 0, 100)
	require.NoError(t, err)
	require.Empty(t, stored, "no rejected message is stored")
}

func TestPingAndHelloAckFields(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", false, "")
	ctx := h.ctx()
	c := h.dial(tok, ms.ID, "")
	_, err := c.Ready(ctx)
	require.NoError(t, err)

	require.NoError(t, c.Send(ctx, vibe.Ping{Type: vibe.MsgPing, ProtocolVersion: 1, Timestamp: "2026-04-21T23:10:30.000Z"}))
	m, err := c.Expect(ctx, vibe.MsgPong, nil)
	require.NoError(t, err)
	f, err := m.Fields()
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"type", "timestamp"}, keys(f))
	requireTimestamp(t, f["timestamp"])

	require.NoError(t, c.Send(ctx, helloMsg("  key-1  ")))
	m, err = c.Expect(ctx, vibe.MsgHelloAck, nil)
	require.NoError(t, err)
	f, err = m.Fields()
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"type", "session_key", "timestamp"}, keys(f))
	require.Equal(t, "key-1", f["session_key"])
	requireTimestamp(t, f["timestamp"])

	sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "key-1")
	require.NoError(t, err)
	require.Equal(t, store.SessionActive, sess.Status)
	var pub vibe.Publisher
	require.NoError(t, json.Unmarshal(sess.Publisher, &pub))
	require.Equal(t, "vscode-extension", pub.ClientType)
	require.Equal(t, "streamer-laptop", pub.MachineName)
	require.Equal(t, &vibe.Capabilities{ToolCalls: true, WorkspaceFileEvents: true}, pub.Capabilities)
}

func TestHelloNormalizesPublisher(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", false, "")
	ctx := h.ctx()
	c := h.dial(tok, ms.ID, "")
	_, err := c.Ready(ctx)
	require.NoError(t, err)
	hello := helloMsg("key-2")
	hello.Publisher = json.RawMessage(`{"clientType":"emacs","clientName":"` + strings.Repeat("n", 500) + `"}`)
	_, err = c.Hello(ctx, hello)
	require.NoError(t, err)
	sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "key-2")
	require.NoError(t, err)
	var pub vibe.Publisher
	require.NoError(t, json.Unmarshal(sess.Publisher, &pub))
	require.Equal(t, "other", pub.ClientType)
	require.Len(t, []rune(pub.ClientName), 128)
}

func TestRejectionsAreCounted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.dial(tok, ms.ID, "")
	_, err := c.Ready(ctx)
	require.NoError(t, err)
	for _, msg := range []string{`nope`, `[]`, string(must(json.Marshal(eventMsg("", "ev", vibe.TypeResponse, nil))))} {
		require.NoError(t, c.SendRaw(ctx, []byte(msg)))
		protoError(t, must(c.Next(ctx)))
	}
	rejected := h.gw.met.eventsRejected
	require.Equal(t, 1.0, h.counter(rejected.WithLabelValues(reasonInvalidJSON)))
	require.Equal(t, 1.0, h.counter(rejected.WithLabelValues(reasonInvalidPayload)))
	require.Equal(t, 1.0, h.counter(rejected.WithLabelValues(reasonNoSession)), "an event with no sessionKey anywhere")
	require.Equal(t, 1.0, h.counter(h.gw.met.connections))
}
