package pubclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/vibe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestURL(t *testing.T) {
	t.Parallel()
	require.Equal(t, "ws://127.0.0.1:8080/ws/vibe-coding/publish?managedStreamId=12&slotSlug=camp-code&token=hbt_x",
		URL("http://127.0.0.1:8080", "hbt_x", 12, "camp-code"))
	require.Equal(t, "wss://openvibe.live/ws/vibe-coding/publish", URL("https://openvibe.live", "", 0, ""))
}

// TestConversation: the client reads ready, says hello, sends an event in its envelope and
// reads the refusal and the close that follow.
func TestConversation(t *testing.T) {
	t.Parallel()
	got := make(chan map[string]any, 2)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"vibe-coding.ready","ok":true,"managed_stream_id":12}`))
		for range 2 {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			got <- m
			if m["type"] == vibe.MsgHello {
				_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"vibe-coding.hello.ack","session_key":"k"}`))
			}
		}
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"vibe-coding.error","error":"Invalid payload","event_id":"e1"}`))
		_ = c.Close(vibe.CloseBadRequest, "Invalid payload")
	}))
	defer hs.Close()
	ctx := context.Background()
	c, err := Dial(ctx, URL(hs.URL, "tok", 12, ""), nil)
	require.NoError(t, err)
	defer c.CloseNow()
	ready, err := c.Ready(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 12, ready.ManagedStreamID)
	ack, err := c.Hello(ctx, vibe.Hello{ProtocolVersion: 1, SessionKey: "k"})
	require.NoError(t, err)
	require.Equal(t, "k", ack.SessionKey)
	require.Equal(t, vibe.MsgHello, (<-got)["type"])

	require.NoError(t, c.Event(ctx, "", map[string]any{"eventId": "e1", "eventType": 42}))
	env := <-got
	require.Equal(t, vibe.MsgEvent, env["type"])
	require.EqualValues(t, 1, env["protocolVersion"])
	require.NotContains(t, env, "sessionKey", "an empty session key is left out")
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, env["timestamp"])
	require.Equal(t, map[string]any{"eventId": "e1", "eventType": float64(42)}, env["event"], "the event as given")

	code, reason, before := c.CloseError(ctx)
	require.EqualValues(t, vibe.CloseBadRequest, code)
	require.Equal(t, "Invalid payload", reason)
	require.Len(t, before, 1)
	var e vibe.Error
	require.NoError(t, before[0].Decode(&e))
	require.Equal(t, vibe.Error{Type: vibe.MsgError, Error: "Invalid payload", EventID: "e1"}, e)
}
