package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
)

// rawPublisher is a publisher as the original platform's are: it writes protocol messages
// as it builds them, in whatever value forms it has, and reads the answers in order.
type rawPublisher struct {
	t    *testing.T
	conn *websocket.Conn
}

func dialPublisher(t *testing.T, gateway, token string, slotID int64) *rawPublisher {
	t.Helper()
	q := url.Values{"token": {token}, "managedStreamId": {fmt.Sprint(slotID)}}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+gateway+"/ws/vibe-coding/publish?"+q.Encode(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { conn.CloseNow() })
	p := &rawPublisher{t: t, conn: conn}
	require.Equal(t, "vibe-coding.ready", p.next()["type"])
	return p
}

func (p *rawPublisher) send(msg map[string]any) {
	p.t.Helper()
	b, err := json.Marshal(msg)
	require.NoError(p.t, err)
	require.NoError(p.t, p.conn.Write(p.t.Context(), websocket.MessageText, b))
}

func (p *rawPublisher) next() map[string]any {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.t.Context(), 15*time.Second)
	defer cancel()
	_, data, err := p.conn.Read(ctx)
	require.NoError(p.t, err)
	var m map[string]any
	require.NoError(p.t, json.Unmarshal(data, &m), "%s", data)
	return m
}

// event sends one event in an envelope and returns the answer.
func (p *rawPublisher) event(sessionKey string, ev map[string]any) map[string]any {
	p.t.Helper()
	msg := map[string]any{"type": "vibe-coding.event", "protocolVersion": 1, "event": ev,
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05.000Z")}
	if sessionKey != "" {
		msg["sessionKey"] = sessionKey
	}
	p.send(msg)
	return p.next()
}

// originalViewer is a viewer as the original platform's chat client is one: it opens
// /ws/chat?stream=<live stream id>, sends {"type":"join","streamId":N} once open, and parses
// every WebSocket message on its own as one JSON object. A message that does not parse is
// lost for that client; the viewer counts them.
type originalViewer struct {
	t      *testing.T
	conn   *websocket.Conn
	mu     sync.Mutex
	frames []map[string]any
	broken int // messages that were not one JSON object
	wake   chan struct{}
}

func dialOriginalViewer(t *testing.T, chatAddr string, streamID int64, token string) *originalViewer {
	t.Helper()
	q := url.Values{"stream": {fmt.Sprint(streamID)}}
	if token != "" {
		q.Set("token", token)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+chatAddr+"/ws/chat?"+q.Encode(), nil)
	require.NoError(t, err)
	conn.SetReadLimit(1 << 20)
	v := &originalViewer{t: t, conn: conn, wake: make(chan struct{}, 1)}
	join := map[string]any{"type": "join", "streamId": streamID}
	if token != "" {
		join["token"] = token
	}
	v.send(join)
	readCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, data, err := conn.Read(readCtx)
			if err != nil {
				return
			}
			var m map[string]any
			v.mu.Lock()
			if json.Unmarshal(data, &m) != nil {
				v.broken++
			} else {
				v.frames = append(v.frames, m)
			}
			v.mu.Unlock()
			select {
			case v.wake <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		stop()
		conn.CloseNow()
		<-done
	})
	return v
}

func (v *originalViewer) send(m map[string]any) {
	v.t.Helper()
	b, _ := json.Marshal(m)
	require.NoError(v.t, v.conn.Write(v.t.Context(), websocket.MessageText, b))
}

// waitFor waits until ok holds over the frames received so far.
func (v *originalViewer) waitFor(what string, ok func(frames []map[string]any) bool) []map[string]any {
	v.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		v.mu.Lock()
		frames := append([]map[string]any(nil), v.frames...)
		v.mu.Unlock()
		if ok(frames) {
			return frames
		}
		select {
		case <-v.wake:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			v.t.Fatalf("viewer: %s did not happen; frames: %s", what, summarize(frames))
		}
	}
}

func (v *originalViewer) brokenMessages() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.broken
}

// ofType returns the frames of one type.
func ofType(frames []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, f := range frames {
		if f["type"] == typ {
			out = append(out, f)
		}
	}
	return out
}

// vibeIDs lists the eventIds of the vibe-coding frames.
func vibeIDs(frames []map[string]any) []string {
	var out []string
	for _, f := range ofType(frames, "vibe-coding") {
		if ev, ok := f["event"].(map[string]any); ok {
			out = append(out, fmt.Sprint(ev["eventId"]))
		}
	}
	return out
}

func summarize(frames []map[string]any) string {
	var types []string
	for _, f := range frames {
		types = append(types, fmt.Sprint(f["type"]))
	}
	return strings.Join(types, ",")
}
