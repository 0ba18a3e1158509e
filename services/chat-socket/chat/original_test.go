package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/viewerclient"
)

// wholeMessages reads n WebSocket messages and decodes each, whole, as one JSON object: what
// a client that does JSON.parse(e.data) on every message gets (the client's default framing
// refuses a message that holds anything else).
func (c *client) wholeMessages(n int) []map[string]any {
	c.t.Helper()
	out := make([]map[string]any, 0, n)
	for range n {
		out = append(out, c.next())
	}
	return out
}

// wholeOf reads whole messages until one of type typ.
func (c *client) wholeOf(typ string) map[string]any {
	c.t.Helper()
	return c.nextOf(typ)
}

func (e *env) burst(n int) {
	e.t.Helper()
	for i := range n {
		e.publish(fmt.Sprintf(`{"eventId":"burst-%02d","eventType":"prompt","prompt":{"text":"step %d"}}`, i, i))
	}
}

// TestOneFramePerMessageByDefault: a replay of 30 events and a 30-event burst reach a
// default viewer as one JSON object per WebSocket message; batch=1 coalesces.
func TestOneFramePerMessageByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	live := e.dial(slot())
	live.wholeOf("chat.history")
	e.burst(30)
	for i, m := range live.wholeMessages(30) {
		require.Equal(t, "vibe-coding", m["type"])
		require.EqualValues(t, i+1, m["seq"])
	}

	resume := slot()
	resume.Resume = true
	replay := e.dial(resume)
	msgs := replay.wholeMessages(32)
	require.Equal(t, "welcome", msgs[0]["type"])
	require.Equal(t, true, msgs[0]["resumed"])
	for i, m := range msgs[2:] {
		require.EqualValues(t, i+1, m["seq"])
	}

	resume.Batch = true
	batched := e.dial(resume)
	messages, frames := 0, 0
	for frames < 32 {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		err := batched.c.ReadMessage(ctx, func(line []byte, _ time.Time) {
			require.NoError(t, json.Unmarshal(line, new(map[string]any)), "one frame per line")
			frames++
		})
		cancel()
		require.NoError(t, err)
		messages++
	}
	require.Less(t, messages, frames, "batch=1: queued frames share a message")

	bad := slot()
	bad.Query = url.Values{"batch": {"yes"}}
	err := e.dial(bad).closed(t.Context())
	require.EqualValues(t, 4400, websocket.CloseStatus(err))
}

func (e *env) goLive() int64 {
	e.t.Helper()
	ls, _, err := e.st.StartLiveStream(e.t.Context(), e.slot.ID, time.Now())
	require.NoError(e.t, err)
	return ls.ID
}

// TestOriginalSocket: the original chat client's flow — /ws/chat?stream=<live stream id>,
// then join — gets auth, the stream's chat, the viewer count and the slot's vibe-coding
// frames, each message one JSON object.
func TestOriginalSocket(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.ChatMaxChars = 20 })
	streamID := e.goLive()
	bob, err := e.st.CreateUser(t.Context(), "bob", "x")
	require.NoError(t, err)
	_, err = e.st.InsertChatMessage(t.Context(), store.ChatMessage{ManagedStreamID: e.slot.ID, UserID: bob.ID, Text: "earlier", CreatedAt: time.Now()})
	require.NoError(t, err)
	original := viewerclient.Options{Stream: streamID}

	anon := e.dial(original)
	h := anon.wholeOf("chat.history")
	history := h["messages"].([]any)
	require.Len(t, history, 1)
	require.Equal(t, "earlier", history[0].(map[string]any)["message"])
	require.Equal(t, "bob", history[0].(map[string]any)["username"])
	require.EqualValues(t, 1, anon.wholeOf("user-count")["count"])

	anon.send(map[string]any{"type": "join", "streamId": streamID})
	auth := anon.wholeOf("auth")
	require.Equal(t, false, auth["authenticated"])
	require.Regexp(t, `^anon\d{4}$`, auth["username"])
	require.Equal(t, "anon", auth["role"])

	original.Token = e.token(e.user)
	me := e.dial(original)
	me.send(map[string]any{"type": "join", "streamId": fmt.Sprint(streamID)})
	auth = me.wholeOf("auth")
	require.Equal(t, true, auth["authenticated"])
	require.Equal(t, "Ada", auth["username"])
	require.Equal(t, "streamer", auth["role"], "the slot's owner")
	require.EqualValues(t, 2, anon.wholeOf("user-count")["count"])

	e.publish(seedEvent)
	for _, c := range []*client{anon, me} {
		f := c.wholeOf("vibe-coding")
		require.EqualValues(t, e.slot.ID, f["managed_stream_id"])
		require.Equal(t, "camp-code", f["slot_slug"])
		require.Contains(t, f, "delay_ms")
		require.Equal(t, "file.change", f["event"].(map[string]any)["eventType"])
	}

	me.send(map[string]any{"type": "chat", "message": "nice refactor", "streamId": streamID})
	for _, c := range []*client{anon, me} {
		m := c.wholeOf("chat")
		require.Equal(t, "nice refactor", m["message"])
		require.Equal(t, "Ada", m["username"])
		require.EqualValues(t, e.user.ID, m["user_id"])
		require.Equal(t, "streamer", m["role"])
		require.NotEmpty(t, m["timestamp"])
		require.NotNil(t, m["id"])
	}
	native := e.dial(slot())
	require.Equal(t, "nice refactor", native.nextOf("chat.history")["messages"].([]any)[1].(map[string]any)["text"],
		"the same chat on the slot's own socket")

	anon.send(map[string]any{"type": "chat", "message": "hi"})
	require.Equal(t, "This channel requires a logged-in account to chat.", anon.wholeOf("system")["message"])
	me.send(map[string]any{"type": "chat", "message": "this message is far too long"})
	require.Equal(t, "Message too long. Max 20 characters.", me.wholeOf("system")["message"])
	me.send(map[string]any{"type": "get-users"})
	me.send(map[string]any{"type": "warp"})
	require.Equal(t, "unknown message type", me.wholeOf("error")["message"], "get-users is ignored, warp is refused")
}

// TestOriginalSocketRefusals: an unknown or ended stream, or a join without one, gets a clear
// error frame and the socket stays open.
func TestOriginalSocketRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	streamID := e.goLive()
	_, err := e.st.EndLiveStream(t.Context(), e.slot.ID, time.Now())
	require.NoError(t, err)

	c := e.dial(viewerclient.Options{})
	for _, tc := range []struct {
		join map[string]any
		want string
	}{
		{map[string]any{"type": "join", "streamId": 999999}, msgStreamNotFound},
		{map[string]any{"type": "join", "streamId": streamID}, msgStreamEnded},
		{map[string]any{"type": "join"}, msgNoStream},
	} {
		c.send(tc.join)
		require.Equal(t, "auth", c.wholeMessages(1)[0]["type"])
		require.Equal(t, map[string]any{"type": "error", "message": tc.want}, c.wholeMessages(1)[0])
	}
	c.send(map[string]any{"type": "chat", "message": "anyone?"})
	require.Equal(t, msgJoinFirst, c.wholeOf("error")["message"])
	c.send(map[string]any{"type": "ping"})
	require.Equal(t, "pong", c.wholeOf("pong")["type"], "the socket stays open")

	ended := e.dial(viewerclient.Options{Stream: streamID})
	require.Equal(t, msgStreamEnded, ended.wholeOf("error")["message"])
}

func TestLeadingInt(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"12": 12, " 7 ": 7, "12abc": 12, "": 0, "abc": 0, "-3": 0, "99999999999999999999": 0} {
		require.Equal(t, want, leadingInt(in), in)
	}
	for in, want := range map[string]int64{`5`: 5, `"6"`: 6, `5.0`: 5, `null`: 0, `{}`: 0, `-1`: 0} {
		require.Equal(t, want, jsonInt(json.RawMessage(in)), in)
	}
}

// slowRoomStart is a store whose rooms cannot load their slot's chat until released: a room
// starting on a loaded node or a slow database.
type slowRoomStart struct {
	store.Store
	released chan struct{}
}

func (s *slowRoomStart) RecentChatMessages(ctx context.Context, id int64, limit int) ([]store.ChatMessage, error) {
	select {
	case <-s.released:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.Store.RecentChatMessages(ctx, id, limit)
}

// TestOriginalAuthMeansInTheRoom: the original socket answers join with auth once the room
// has the viewer, so that an event stored after the client got auth reaches it live even when
// the room was still loading the slot at the join (it became history the client is never
// sent, when auth went out first). A join answers auth before the room's frames, as the
// original did; with the stream in the URL the room's frames come first, as there.
func TestOriginalAuthMeansInTheRoom(t *testing.T) {
	t.Parallel()
	slow := &slowRoomStart{released: make(chan struct{})}
	e := newEnvStore(t, func(s store.Store) store.Store { slow.Store = s; return slow })
	streamID := e.goLive()
	time.AfterFunc(500*time.Millisecond, func() { close(slow.released) })

	joined := e.dial(viewerclient.Options{})
	joined.send(map[string]any{"type": "join", "streamId": streamID})
	require.Equal(t, "auth", joined.next()["type"])
	e.publish(seedEvent)
	require.Equal(t, "chat.history", joined.next()["type"])
	require.Equal(t, "user-count", joined.next()["type"])
	require.Equal(t, "file.change", joined.wholeOf("vibe-coding")["event"].(map[string]any)["eventType"],
		"the event stored after auth")

	inURL := e.dial(viewerclient.Options{Stream: streamID})
	inURL.send(map[string]any{"type": "join", "streamId": streamID})
	require.Equal(t, "chat.history", inURL.next()["type"])
	require.Equal(t, "user-count", inURL.next()["type"])
	require.Equal(t, "auth", inURL.next()["type"])
	e.publish(strings.Replace(seedEvent, "28c49b5c", "38c49b5c", 1))
	require.Equal(t, "file.change", inURL.wholeOf("vibe-coding")["event"].(map[string]any)["eventType"])
}

// TestOriginalAuthWaitsForALoadingRoom: with the stream in the URL, a join sent while the
// room still loads the slot is answered once the room has the viewer.
func TestOriginalAuthWaitsForALoadingRoom(t *testing.T) {
	t.Parallel()
	slow := &slowRoomStart{released: make(chan struct{})}
	e := newEnvStore(t, func(s store.Store) store.Store { slow.Store = s; return slow })
	streamID := e.goLive()
	time.AfterFunc(500*time.Millisecond, func() { close(slow.released) })

	v := e.dial(viewerclient.Options{Stream: streamID})
	v.send(map[string]any{"type": "join", "streamId": streamID})
	var types []string
	for len(types) < 3 {
		types = append(types, fmt.Sprint(v.next()["type"]))
		if types[len(types)-1] == "auth" {
			e.publish(seedEvent)
		}
	}
	require.Contains(t, types, "auth")
	require.Equal(t, "file.change", v.wholeOf("vibe-coding")["event"].(map[string]any)["eventType"],
		"the event stored after auth")
}
