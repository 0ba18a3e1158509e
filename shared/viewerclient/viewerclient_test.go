package viewerclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		base string
		o    Options
		want string
	}{
		{"slot path", "http://127.0.0.1:8080", Options{Username: "@ada", Slot: "camp-code"}, "ws://127.0.0.1:8080/ws/chat/@ada/camp-code"},
		{"escaped, resumed from 0, batched, logged in", "127.0.0.1:9", Options{Username: "a b", Slot: "7", Resume: true, Batch: true, Token: "jwt"},
			"ws://127.0.0.1:9/ws/chat/a%20b/7?batch=1&since=0&token=jwt"},
		{"original join", "https://openvibe.live", Options{Stream: 456, Token: "jwt"}, "wss://openvibe.live/ws/chat?stream=456&token=jwt"},
		{"bare original socket", "ws://h:1", Options{}, "ws://h:1/ws/chat"},
		{"bad parameters as given", "ws://h:1", Options{Username: "ada", Slot: "x", Query: url.Values{"since": {"x"}}}, "ws://h:1/ws/chat/ada/x?since=x"},
	} {
		require.Equal(t, tc.want, URL(tc.base, tc.o), tc.name)
	}
}

// server answers each connection with handle, and reports what it was asked for.
func server(t *testing.T, handle func(ctx context.Context, c *websocket.Conn)) (string, <-chan *http.Request) {
	t.Helper()
	reqs := make(chan *http.Request, 8)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") == "https://evil.example" {
			http.Error(w, `{"error":"origin not allowed"}`, http.StatusForbidden)
			return
		}
		reqs <- r
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		handle(r.Context(), c)
	}))
	t.Cleanup(hs.Close)
	return hs.URL, reqs
}

func write(ctx context.Context, c *websocket.Conn, msgs ...string) {
	for _, m := range msgs {
		_ = c.Write(ctx, websocket.MessageText, []byte(m))
	}
}

func TestFramings(t *testing.T) {
	t.Parallel()
	msgs := []string{`{"type":"welcome","seq":3}`, `{"type":"vibe-coding","seq":4}` + "\n" + `{"type":"vibe-coding","seq":5}`, `{"type":"pong"}`}
	base, _ := server(t, func(ctx context.Context, c *websocket.Conn) {
		write(ctx, c, msgs...)
		_ = c.Close(websocket.StatusGoingAway, "server shutting down")
	})
	ctx := t.Context()

	batched, err := Dial(ctx, base, Options{Username: "ada", Slot: "camp-code", Batch: true})
	require.NoError(t, err)
	defer batched.CloseNow()
	var got []string
	for {
		f, err := batched.Next(ctx)
		if err != nil {
			require.EqualValues(t, websocket.StatusGoingAway, CloseStatus(err))
			break
		}
		got = append(got, f.Type+":"+string(rune('0'+f.Seq)))
	}
	require.Equal(t, []string{"welcome:3", "vibe-coding:4", "vibe-coding:5", "pong:0"}, got)

	single, err := Dial(ctx, base, Options{Username: "ada", Slot: "camp-code"})
	require.NoError(t, err)
	defer single.CloseNow()
	f, err := single.Next(ctx)
	require.NoError(t, err)
	require.Equal(t, FrameWelcome, f.Type)
	_, err = single.Next(ctx)
	var fe *FramingError
	require.ErrorAs(t, err, &fe, "two objects in one message break the default framing")
	require.Equal(t, msgs[1], string(fe.Message))
	f, err = single.Next(ctx)
	require.NoError(t, err, "the connection stays usable")
	require.Equal(t, FramePong, f.Type)

	raw, err := Dial(ctx, base, Options{Username: "ada", Slot: "camp-code", Batch: true})
	require.NoError(t, err)
	defer raw.CloseNow()
	var frames []string
	for raw.ReadMessage(ctx, func(b []byte, _ time.Time) { frames = append(frames, string(b)) }) == nil {
	}
	require.Equal(t, []string{msgs[0], `{"type":"vibe-coding","seq":4}`, `{"type":"vibe-coding","seq":5}`, msgs[2]}, frames)
}

func TestOriginalJoin(t *testing.T) {
	t.Parallel()
	joins := make(chan string, 2)
	base, reqs := server(t, func(ctx context.Context, c *websocket.Conn) {
		_, b, err := c.Read(ctx)
		if err == nil {
			joins <- string(b)
		}
	})
	ctx := t.Context()
	c, err := Dial(ctx, base, Options{Stream: 456, Token: "jwt"})
	require.NoError(t, err)
	defer c.CloseNow()
	r := <-reqs
	require.Equal(t, "/ws/chat", r.URL.Path)
	require.Equal(t, "stream=456&token=jwt", r.URL.RawQuery)
	require.JSONEq(t, `{"type":"join","streamId":456,"token":"jwt"}`, <-joins)

	quiet, err := Dial(ctx, base, Options{Stream: 456, NoJoin: true})
	require.NoError(t, err)
	<-reqs
	require.NoError(t, quiet.Send(ctx, map[string]string{"type": "ping"}))
	require.JSONEq(t, `{"type":"ping"}`, <-joins, "no join was sent first")
	quiet.CloseNow()
}

func TestRefusedUpgrade(t *testing.T) {
	t.Parallel()
	base, _ := server(t, func(context.Context, *websocket.Conn) {})
	_, err := Dial(t.Context(), base, Options{Username: "ada", Slot: "x", Header: http.Header{"Origin": {"https://evil.example"}}})
	var de *DialError
	require.ErrorAs(t, err, &de)
	require.Equal(t, http.StatusForbidden, de.Status)
	require.Contains(t, de.Body, "origin not allowed")
}

func TestRecorder(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	base, _ := server(t, func(ctx context.Context, c *websocket.Conn) {
		write(ctx, c, `{"type":"welcome","seq":0}`, `{"type":"chat.history","messages":[]}`, `not json`)
		<-release
		write(ctx, c, `{"type":"vibe-coding","seq":1}`)
		_ = c.Close(websocket.StatusGoingAway, "bye")
	})
	c, err := Dial(t.Context(), base, Options{Username: "ada", Slot: "camp-code"})
	require.NoError(t, err)
	r := Record(c)
	defer r.Close()

	f, err := r.NextOf(5*time.Second, FrameChatHistory)
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"chat.history","messages":[]}`, string(f.Raw))
	_, err = r.NextOf(200*time.Millisecond, "vibe-coding")
	require.ErrorIs(t, err, ErrTimeout, "nothing more until released")
	frames, ok := r.Wait(5*time.Second, func(fs []Frame) bool { return len(fs) == 2 })
	require.True(t, ok)
	require.Equal(t, FrameWelcome, frames[0].Type, "Wait sees frames Next consumed")
	require.Eventually(t, func() bool { return len(r.Malformed()) == 1 }, 5*time.Second, 10*time.Millisecond)

	close(release)
	f, err = r.Next(5 * time.Second)
	require.NoError(t, err)
	require.EqualValues(t, 1, f.Seq)
	_, err = r.Next(5 * time.Second)
	require.EqualValues(t, websocket.StatusGoingAway, CloseStatus(err), "then the connection's end")
	<-r.Done()
	require.True(t, errors.Is(r.Err(), err) || CloseStatus(r.Err()) == websocket.StatusGoingAway)
	_, ok = r.Wait(time.Minute, func(fs []Frame) bool { return len(fs) > 3 })
	require.False(t, ok, "Wait gives up once the connection ended")
}
