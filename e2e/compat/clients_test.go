package compat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/viewerclient"
)

// rawPublisher is a publisher as the original platform's are: it writes protocol messages
// as it builds them, in whatever value forms it has, and reads the answers in order.
type rawPublisher struct {
	t *testing.T
	c *pubclient.Client
}

func dialPublisher(t *testing.T, gateway, token string, slotID int64) *rawPublisher {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, err := pubclient.Dial(ctx, pubclient.URL("ws://"+gateway, token, slotID, ""), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.CloseNow() })
	p := &rawPublisher{t: t, c: c}
	require.Equal(t, "vibe-coding.ready", p.next()["type"])
	return p
}

func (p *rawPublisher) send(msg map[string]any) {
	p.t.Helper()
	require.NoError(p.t, p.c.Send(p.t.Context(), msg))
}

func (p *rawPublisher) next() map[string]any {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.t.Context(), 15*time.Second)
	defer cancel()
	m, err := p.c.Next(ctx)
	require.NoError(p.t, err)
	f, err := m.Fields()
	require.NoError(p.t, err, "%s", m.Raw)
	return f
}

// event sends one event in an envelope and returns the answer.
func (p *rawPublisher) event(sessionKey string, ev map[string]any) map[string]any {
	p.t.Helper()
	require.NoError(p.t, p.c.Event(p.t.Context(), sessionKey, ev))
	return p.next()
}

// originalViewer is a viewer as the original platform's chat client is one: it opens
// /ws/chat?stream=<live stream id>, sends {"type":"join","streamId":N} once open, and parses
// every WebSocket message on its own as one JSON object. A message that does not parse is
// lost for that client; the viewer counts them.
type originalViewer struct {
	t    *testing.T
	rec  *viewerclient.Recorder
	chat *testenv.Process // the replica it is connected to
}

func dialOriginalViewer(t *testing.T, chat *testenv.Process, streamID int64, token string) *originalViewer {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, err := viewerclient.Dial(ctx, chat.Addr, viewerclient.Options{Stream: streamID, Token: token})
	require.NoError(t, err)
	v := &originalViewer{t: t, rec: viewerclient.Record(c), chat: chat}
	t.Cleanup(v.rec.Close)
	return v
}

func (v *originalViewer) send(m map[string]any) {
	v.t.Helper()
	require.NoError(v.t, v.rec.Conn().Send(v.t.Context(), m))
}

// waitFor waits until ok holds over the frames received so far.
func (v *originalViewer) waitFor(what string, ok func(frames []map[string]any) bool) []map[string]any {
	v.t.Helper()
	var frames []map[string]any
	// The wait ends as soon as the frames are there; its bound is for a machine whose cores
	// other builds share.
	_, held := v.rec.Wait(60*time.Second, func(fs []viewerclient.Frame) bool {
		frames = frames[:0]
		for _, f := range fs {
			m, err := f.Fields()
			require.NoError(v.t, err)
			frames = append(frames, m)
		}
		return ok(frames)
	})
	if !held {
		v.t.Fatalf("viewer: %s did not happen; frames: %s; %s room: %s", what, summarize(frames), v.chat.Name, v.roomMetrics())
	}
	return frames
}

// roomMetrics is what the replica's delivery rooms report of the events they handled, to
// tell an event still on its way from one dropped, and why.
func (v *originalViewer) roomMetrics() string {
	m, err := v.chat.Metrics()
	if err != nil {
		return err.Error()
	}
	var out []string
	for k, val := range m {
		for _, name := range []string{"openvibe_chat_events_", "openvibe_chat_gap_", "openvibe_chat_store_errors", "openvibe_chat_slow_", "openvibe_chat_broker_"} {
			if strings.HasPrefix(k, name) {
				out = append(out, fmt.Sprintf("%s=%g", k, val))
			}
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func (v *originalViewer) brokenMessages() int { return len(v.rec.Malformed()) }

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
		t := fmt.Sprint(f["type"])
		if ev, ok := f["event"].(map[string]any); ok {
			t += "(" + fmt.Sprint(ev["eventId"]) + ")"
		}
		types = append(types, t)
	}
	return strings.Join(types, ",")
}
