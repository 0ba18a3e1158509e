package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/vibe"
)

// The client messages exactly as the protocol document shows them; only the slot id (123
// there) is replaced by the test slot's.
const (
	seedHello = `{
  "type": "vibe-coding.hello",
  "protocolVersion": 1,
  "managedStreamId": 123,
  "slotSlug": "camp-code",
  "timestamp": "2026-04-21T23:10:00.000Z",
  "sessionKey": "openvibe-20260421231000-ab12cd34",
  "publisher": {
    "integrationId": "github-copilot",
    "integrationLabel": "GitHub Copilot",
    "vendor": "GitHub",
    "clientType": "vscode-extension",
    "clientName": "OpenVibe.Live Copilot Companion",
    "clientVersion": "0.0.1",
    "workspaceName": "openvibe",
    "machineName": "streamer-laptop",
    "viewerDepth": "standard",
    "capabilities": {
      "thinking": false,
      "toolCalls": true,
      "workspaceFileEvents": true
    }
  }
}`
	seedEvent = `{
  "type": "vibe-coding.event",
  "protocolVersion": 1,
  "managedStreamId": 123,
  "slotSlug": "camp-code",
  "sessionKey": "openvibe-20260421231000-ab12cd34",
  "timestamp": "2026-04-21T23:10:01.100Z",
  "event": {
    "version": 1,
    "eventId": "28c49b5c-9070-4fd3-b750-b67d84338f64",
    "sessionKey": "openvibe-20260421231000-ab12cd34",
    "sessionId": "7b3e6b3a-78df-40d7-a53d-9acfa1b2cb30",
    "sequence": 17,
    "eventType": "response",
    "visibility": "public",
    "depth": "standard",
    "occurredAt": "2026-04-21T23:10:01.099Z",
    "summary": "Refactored the publish server to sanitize Copilot events before viewer fanout.",
    "source": {
      "channel": "chat-session",
      "rawType": "request.response"
    },
    "publisher": {
      "integrationId": "github-copilot",
      "integrationLabel": "GitHub Copilot",
      "vendor": "GitHub",
      "clientType": "vscode-extension",
      "clientName": "OpenVibe.Live Copilot Companion"
    },
    "response": {
      "text": "Refactored the publish server to sanitize Copilot events before viewer fanout.",
      "truncated": false
    },
    "metadata": {
      "requestId": "req-123",
      "responseId": "resp-456",
      "workspaceName": "openvibe",
      "model": "gpt-5.4"
    }
  }
}`
	seedPing = `{
  "type": "vibe-coding.ping",
  "protocolVersion": 1,
  "timestamp": "2026-04-21T23:10:30.000Z"
}`
	seedSessionKey = "openvibe-20260421231000-ab12cd34"
	seedEventID    = "28c49b5c-9070-4fd3-b750-b67d84338f64"
)

func withSlot(msg string, id int64) []byte {
	return []byte(strings.Replace(msg, `"managedStreamId": 123`, `"managedStreamId": `+itoa(id), 1))
}

func fields(t *testing.T, m pubclient.Message) map[string]any {
	t.Helper()
	f, err := m.Fields()
	require.NoError(t, err)
	return f
}

func requireStamp(t *testing.T, v any) {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "timestamp is a string")
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, s)
	ts, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), ts, time.Minute)
}

// TestSeedExample drives the real binary with the protocol document's own messages and
// checks every field of every answer.
func TestSeedExample(t *testing.T) {
	databases(t, func(t *testing.T, dbURL string) {
		f := newFixture(t, dbURL, true)
		gw := startGateway(t, dbURL)
		ctx := timeout(t)
		c, err := pubclient.Dial(ctx, gw.url+"/ws/vibe-coding/publish?token="+f.token+"&managedStreamId="+itoa(f.slot.ID)+"&slotSlug=camp-code", nil)
		require.NoError(t, err)
		defer c.CloseNow()

		m, err := c.Expect(ctx, vibe.MsgReady, nil)
		require.NoError(t, err)
		ready := fields(t, m)
		wantSettings := map[string]any{}
		b, _ := json.Marshal(vibe.DefaultSettings())
		require.NoError(t, json.Unmarshal(b, &wantSettings))
		requireStamp(t, ready["timestamp"])
		delete(ready, "timestamp")
		require.Equal(t, map[string]any{
			"type": "vibe-coding.ready", "ok": true, "managed_stream_id": float64(f.slot.ID),
			"slot_slug": "camp-code", "live_stream_id": float64(f.live), "settings": wantSettings,
		}, ready)
		require.Len(t, wantSettings, 21, "the seed's 19 fields, redact_personal_data and show_custom_events")

		require.NoError(t, c.SendRaw(ctx, withSlot(seedHello, f.slot.ID)))
		m, err = c.Expect(ctx, vibe.MsgHelloAck, nil)
		require.NoError(t, err)
		helloAck := fields(t, m)
		requireStamp(t, helloAck["timestamp"])
		delete(helloAck, "timestamp")
		require.Equal(t, map[string]any{"type": "vibe-coding.hello.ack", "session_key": seedSessionKey}, helloAck)

		require.NoError(t, c.SendRaw(ctx, withSlot(seedEvent, f.slot.ID)))
		m, err = c.Expect(ctx, vibe.MsgAck, nil)
		require.NoError(t, err)
		evAck := fields(t, m)
		requireStamp(t, evAck["timestamp"])
		delete(evAck, "timestamp")
		require.Equal(t, map[string]any{
			"type": "vibe-coding.ack", "event_id": seedEventID, "live_stream_id": float64(f.live),
			"delivered": true, "sequence": float64(1),
		}, evAck)

		require.NoError(t, c.SendRaw(ctx, []byte(seedPing)))
		m, err = c.Expect(ctx, vibe.MsgPong, nil)
		require.NoError(t, err)
		pong := fields(t, m)
		requireStamp(t, pong["timestamp"])
		delete(pong, "timestamp")
		require.Equal(t, map[string]any{"type": "vibe-coding.pong"}, pong)

		// Resending the event (a publisher retrying after a lost ack) is acked the same way.
		require.NoError(t, c.SendRaw(ctx, withSlot(seedEvent, f.slot.ID)))
		var again vibe.Ack
		_, err = c.Expect(ctx, vibe.MsgAck, &again)
		require.NoError(t, err)
		require.True(t, again.Duplicate)
		require.EqualValues(t, 1, again.Sequence)
		require.True(t, again.Delivered)

		row, err := f.st.VibeEventByEventID(ctx, f.slot.ID, seedEventID)
		require.NoError(t, err)
		require.EqualValues(t, 1, row.Seq)
		require.Equal(t, seedSessionKey, row.SessionKey)
		var ev vibe.Event
		require.NoError(t, json.Unmarshal(row.Payload, &ev))
		require.Equal(t, "Refactored the publish server to sanitize Copilot events before viewer fanout.", ev.Response.Text)
		sess, err := f.st.VibeSessionByKey(ctx, f.slot.ID, seedSessionKey)
		require.NoError(t, err)
		require.NotNil(t, sess.LastEventAt)

		metrics := getMetrics(t, gw.url)
		for _, want := range []string{
			`openvibe_gateway_connections 1`,
			`openvibe_gateway_events_accepted_total{delivered="true",result="stored"} 1`,
			`openvibe_gateway_events_accepted_total{delivered="true",result="duplicate"} 1`,
			`openvibe_gateway_ack_latency_seconds_count 2`,
			`openvibe_gateway_broker_publish_failures_total 0`,
			`openvibe_gateway_connect_attempts_total{result="accepted"} 1`,
		} {
			require.Contains(t, metrics, want)
		}

		require.NoError(t, c.Close())
		require.Eventually(t, func() bool {
			s, err := f.st.VibeSessionByKey(ctx, f.slot.ID, seedSessionKey)
			return err == nil && s.Status == "ended"
		}, 10*time.Second, 50*time.Millisecond, "the session ends with its connection")
		gw.stop(t)
	})
}

func getMetrics(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}
