package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/viewerclient"
)

const seedEvent = `{
  "version": 1, "eventId": "28c49b5c-9070-4fd3-b750-b67d84338f64",
  "sessionKey": "openvibe-20260421231000-ab12cd34", "sessionId": "7b3e6b3a-78df-40d7-a53d-9acfa1b2cb30",
  "sequence": 17, "eventType": "response", "visibility": "public", "depth": "standard",
  "occurredAt": "2026-04-21T23:10:01.099Z",
  "summary": "Refactored the publish server to sanitize Copilot events before viewer fanout.",
  "source": {"channel": "chat-session", "rawType": "request.response"},
  "publisher": {"integrationId": "github-copilot", "integrationLabel": "GitHub Copilot", "vendor": "GitHub",
    "clientType": "vscode-extension", "clientName": "OpenVibe.Live Copilot Companion"},
  "response": {"text": "Refactored the publish server to sanitize Copilot events before viewer fanout.", "truncated": false},
  "metadata": {"requestId": "req-123", "responseId": "resp-456", "workspaceName": "openvibe", "model": "gpt-5.4"}
}`

// TestDeliveryRules runs two replicas sharing PostgreSQL and Redis and checks, on a viewer of
// each, the seed frame shape, hidden types, streamer-only events, the delay, pause, and
// resume with since.
func TestDeliveryRules(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	a, b := startChat(t, w.dbURL, r.URL), startChat(t, w.dbURL, r.URL)
	va, vb := dialViewer(t, a, w), dialViewer(t, b, w)
	viewers := []*viewer{va, vb}
	for _, v := range viewers {
		wf := v.must("welcome")
		require.EqualValues(t, w.slot.ID, wf.m["managed_stream_id"])
		require.Equal(t, "camp-code", wf.m["slot_slug"])
		require.EqualValues(t, 0, wf.m["seq"])
		v.must("chat.history")
	}

	first := w.publish(seedEvent)
	for _, v := range viewers {
		f := v.must("vibe-coding")
		require.EqualValues(t, w.slot.ID, f.m["managed_stream_id"])
		require.Equal(t, "camp-code", f.m["slot_slug"])
		require.EqualValues(t, 0, f.m["delay_ms"])
		require.Equal(t, first.Seq, f.seq())
		require.Equal(t, "28c49b5c-9070-4fd3-b750-b67d84338f64", f.eventField("eventId"))
		require.Equal(t, "response", f.eventField("eventType"))
		require.Equal(t, "Refactored the publish server to sanitize Copilot events before viewer fanout.", f.eventField("summary"))
		require.Equal(t, map[string]any{"text": "Refactored the publish server to sanitize Copilot events before viewer fanout.", "truncated": false}, f.eventField("response"))
		require.Equal(t, "GitHub Copilot", f.eventField("publisher").(map[string]any)["integrationLabel"])
	}

	t.Log("show_thinking=0 and streamer visibility")
	w.publishEvent(event(vibe.TypeThinking, vibe.VisibilityPublic, "private thoughts"))
	w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityStreamer, "streamer only"))
	visible := w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, "after the hidden ones"))
	for _, v := range viewers {
		require.Equal(t, visible.Seq, v.must("vibe-coding").seq(), "thinking and streamer events are skipped")
	}

	t.Log("delay_ms=1500")
	w.settings(func(s *vibe.Settings) { s.DelayMs = 1500 })
	for _, v := range viewers {
		require.EqualValues(t, 1500, v.must("vibe-coding.settings").m["settings"].(map[string]any)["delay_ms"])
	}
	delayed := w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, "delayed"))
	acked := time.Now()
	for _, v := range viewers {
		f := v.must("vibe-coding")
		require.Equal(t, delayed.Seq, f.seq())
		require.GreaterOrEqual(t, f.at.Sub(delayed.ReceivedAt), 1500*time.Millisecond)
		require.Greater(t, f.at.Sub(acked), 1400*time.Millisecond)
		require.EqualValues(t, 1500, f.m["delay_ms"])
	}
	w.settings(func(s *vibe.Settings) { s.DelayMs = 0 })

	t.Log("pause")
	w.settings(func(s *vibe.Settings) { s.Paused = 1 })
	for _, v := range viewers {
		v.must("vibe-coding.settings")
	}
	w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, "while paused"))
	for _, v := range viewers {
		v.none("vibe-coding", 700*time.Millisecond)
	}
	w.settings(func(s *vibe.Settings) { s.Paused = 0 })
	resumed := w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, "after the pause"))
	for _, v := range viewers {
		require.Equal(t, resumed.Seq, v.must("vibe-coding").seq(), "the event stored while paused never shows")
	}

	t.Log("resume with since")
	for _, p := range []*testenv.Process{a, b} {
		vc := dialViewer(t, p, w, first.Seq)
		require.Equal(t, true, vc.must("welcome").m["resumed"])
		var got []int64
		for range 3 {
			got = append(got, vc.must("vibe-coding").seq())
		}
		require.Equal(t, []int64{visible.Seq, delayed.Seq, resumed.Seq}, got)
		vc.none("vibe-coding", 300*time.Millisecond)
	}
}

// TestRetractAndPanic: with delay_ms=3000 on two replicas, an event retracted during its
// window reaches no viewer, one retracted after delivery is withdrawn with a retract frame,
// and panic drops three pending events everywhere and pauses the slot.
func TestRetractAndPanic(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	w.settings(func(s *vibe.Settings) { s.DelayMs = 3000 })
	a, b := startChat(t, w.dbURL, r.URL), startChat(t, w.dbURL, r.URL)
	viewers := []*viewer{dialViewer(t, a, w), dialViewer(t, b, w)}
	for _, v := range viewers {
		v.must("welcome")
	}
	ctx := t.Context()
	retract := func(ev store.VibeEvent) {
		_, err := w.st.RetractVibeEvent(ctx, w.slot.ID, ev.EventID, w.user.ID, time.Now())
		require.NoError(t, err)
		require.NoError(t, slotbus.Publish(ctx, w.br, slotbus.Message{Kind: slotbus.KindRetract, SlotID: w.slot.ID, Retract: &slotbus.Retract{Seq: ev.Seq, EventID: ev.EventID}}))
	}

	early := w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, "oops, a private thing"))
	time.Sleep(time.Second)
	retract(early)
	for _, v := range viewers {
		v.none("vibe-coding", 3*time.Second)
	}

	late := w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, "delivered, then retracted"))
	for _, v := range viewers {
		require.Equal(t, late.Seq, v.must("vibe-coding").seq())
	}
	retract(late)
	for _, v := range viewers {
		f := v.must("vibe-coding.retract")
		require.Equal(t, late.EventID, f.m["eventId"])
	}

	for i := range 3 {
		w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, fmt.Sprintf("pending %d", i)))
	}
	now := time.Now()
	var next vibe.Settings
	_, err := w.st.UpdateBroadcastSettings(ctx, w.slot.ID, store.SettingsOnly(func(cur json.RawMessage) (json.RawMessage, error) {
		next = vibe.SettingsFromBroadcast(cur)
		next.Paused = 1
		return vibe.BroadcastWithSettings(cur, next)
	}))
	require.NoError(t, err)
	n, err := w.st.WithholdVibeEvents(ctx, store.Withhold{ManagedStreamID: w.slot.ID, ReceivedFrom: now.Add(-4 * time.Second), Reason: vibe.WithheldPanic})
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, int64(3))
	require.NoError(t, slotbus.Publish(ctx, w.br, slotbus.Message{Kind: slotbus.KindPanic, SlotID: w.slot.ID, Panic: &slotbus.Panic{At: now, Settings: next}}))
	for _, v := range viewers {
		require.EqualValues(t, 1, v.must("vibe-coding.settings").m["settings"].(map[string]any)["paused"])
	}
	for _, v := range viewers {
		v.none("vibe-coding", 3500*time.Millisecond)
	}

	// The audit: only the event that went out has a first delivery time.
	require.Eventually(t, func() bool {
		ev, err := w.st.VibeEventByEventID(ctx, w.slot.ID, late.EventID)
		return err == nil && ev.FirstDeliveredAt != nil
	}, 5*time.Second, 100*time.Millisecond)
	ev, err := w.st.VibeEventByEventID(ctx, w.slot.ID, early.EventID)
	require.NoError(t, err)
	require.Nil(t, ev.FirstDeliveredAt)
}

// TestRedisRestartLosesNothing kills Redis mid-stream and restarts it: every stored event
// still reaches the viewer, once, in order.
func TestRedisRestartLosesNothing(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	p := startChat(t, w.dbURL, r.URL)
	v := dialViewer(t, p, w)
	v.must("welcome")
	const total = 120
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range total {
			if i == 40 {
				r.Kill()
			}
			if i == 80 {
				r.Start()
			}
			w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, fmt.Sprintf("event %d", i)))
			time.Sleep(20 * time.Millisecond)
		}
	})
	var got []int64
	deadline := time.Now().Add(60 * time.Second)
	for len(got) < total {
		f, err := v.rec.NextOf(time.Until(deadline), vibe.FrameVibeCoding)
		if errors.Is(err, viewerclient.ErrTimeout) {
			t.Fatalf("got %d of %d events: %v", len(got), total, got)
		}
		require.NoError(t, err, "viewer socket closed")
		got = append(got, f.Seq)
	}
	wg.Wait()
	for i, seq := range got {
		require.EqualValues(t, i+1, seq, "events in order, none lost or repeated")
	}
	v.none("vibe-coding", 500*time.Millisecond)
	require.Positive(t, p.Metric("openvibe_chat_gap_events_total"), "recovered from the store")
}

// TestSlowViewerIsCutOff: a viewer that stops reading is closed once its send queue is
// full, while a fast viewer on the same slot receives everything.
func TestSlowViewerIsCutOff(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	p := startChat(t, w.dbURL, r.URL, "OPENVIBE_CHAT_SEND_QUEUE_BYTES=1048576", "OPENVIBE_CHAT_WRITE_TIMEOUT=3s")
	fast := dialViewer(t, p, w)
	fast.must("welcome")

	// The slow viewer has a tiny receive buffer and never reads.
	dialer := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	slow, err := viewerclient.Dial(t.Context(), p.Addr, viewerclient.Options{Username: w.user.Username, Slot: w.slot.Slug, HTTPClient: client, ReadLimit: 1 << 20})
	require.NoError(t, err)
	defer slow.CloseNow()

	// Large frames (2,400-character responses), so that kernel socket buffers fill quickly.
	w.settings(func(s *vibe.Settings) { s.MaxResponseChars = 2400 })
	fast.must("vibe-coding.settings")
	const total = 3000
	text := strings.Repeat("abcdefghij", 240)
	for i := 0; i < total; i += 100 {
		evs := make([]vibe.Event, 100)
		for j := range evs {
			evs[j] = event(vibe.TypeResponse, vibe.VisibilityPublic, fmt.Sprintf("%d %s", i+j, text))
		}
		w.publishBatch(evs)
	}
	for i := range total {
		f := fast.must("vibe-coding")
		require.EqualValues(t, i+1, f.seq())
	}
	require.Eventually(t, func() bool { return p.Metric("openvibe_chat_slow_disconnects_total") >= 1 }, 10*time.Second, 100*time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		if _, err := slow.Next(ctx); err != nil {
			require.NoError(t, ctx.Err(), "the slow viewer's socket must be closed")
			break
		}
	}
	require.EqualValues(t, 1, p.Metric("openvibe_chat_viewers"))
}

// TestNodeRestartResume: a replica shuts down gracefully (viewers get 1001), events are
// published while no replica runs, and a viewer reconnecting with since to a new replica gets
// exactly what it missed.
func TestNodeRestartResume(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	p := startChat(t, w.dbURL, r.URL)
	v := dialViewer(t, p, w)
	v.must("welcome")
	for i := range 3 {
		w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, fmt.Sprintf("before %d", i)))
	}
	var last int64
	for range 3 {
		last = v.must("vibe-coding").seq()
	}
	p.Term(10 * time.Second)
	select {
	case <-v.rec.Done():
		require.EqualValues(t, websocket.StatusGoingAway, websocket.CloseStatus(v.rec.Err()))
	case <-time.After(10 * time.Second):
		t.Fatal("viewer not closed by the shutdown")
	}

	var missed []int64
	for i := range 3 {
		missed = append(missed, w.publishEvent(event(vibe.TypePrompt, vibe.VisibilityPublic, fmt.Sprintf("while down %d", i))).Seq)
	}
	q := startChat(t, w.dbURL, r.URL)
	again := dialViewer(t, q, w, last)
	require.Equal(t, true, again.must("welcome").m["resumed"])
	var got []int64
	for range 3 {
		got = append(got, again.must("vibe-coding").seq())
	}
	require.Equal(t, missed, got)
	again.none("vibe-coding", 500*time.Millisecond)
}
