package gateway

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// closesWith reads until the close and requires the given code and reason, the last
// message before it being a vibe-coding.error with the same reason. It returns the messages
// before that error.
func closesWith(t *testing.T, ctx context.Context, c *pubclient.Client, code websocket.StatusCode, reason string) []pubclient.Message {
	t.Helper()
	got, gotReason, msgs := c.CloseError(ctx)
	require.Equal(t, code, got, "close reason %q", gotReason)
	require.Equal(t, reason, gotReason)
	require.NotEmpty(t, msgs)
	last := msgs[len(msgs)-1]
	e := protoError(t, last)
	require.Equal(t, reason, e.Error)
	return msgs[:len(msgs)-1]
}

func TestConnectionRateLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.ConnRate, c.ConnBurst = 1, 10 }))
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key") // hello uses one token of the burst
	for i := range 20 {
		_ = c.Send(ctx, eventMsg("key", numbered(i), vibe.TypeResponse, nil))
	}
	before := closesWith(t, ctx, c, vibe.CloseRateLimited, vibe.ReasonRateLimited)
	require.Len(t, before, 9, "the events within the burst are acked before the close")
	for i, m := range before {
		require.Equal(t, numbered(i), ack(t, m).EventID)
	}
	rows, err := h.st.VibeEventsAfter(t.Context(), ms.ID, 0, 100)
	require.NoError(t, err)
	require.Len(t, rows, 9)
}

func TestSlotRateLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.SlotRate, c.SlotBurst = 1, 6 }))
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	a := h.connect(tok, ms, "key-a")
	b := h.connect(tok, ms, "key-b")
	for i := range 3 {
		ack(t, sendEvent(t, ctx, a, "key-a", fmt.Sprintf("a-%d", i)))
		ack(t, sendEvent(t, ctx, b, "key-b", fmt.Sprintf("b-%d", i)))
	}
	require.NoError(t, a.Send(ctx, eventMsg("key-a", "a-over", vibe.TypeResponse, nil)))
	closesWith(t, ctx, a, vibe.CloseRateLimited, vibe.ReasonRateLimited)
	_, err := h.st.VibeEventByEventID(t.Context(), ms.ID, "a-over")
	require.ErrorIs(t, err, store.ErrNotFound, "the event over the limit is not stored")
}

func TestMessageTooLarge(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")

	// Exactly at the limit is fine (an invalid payload, but read in full).
	atLimit := `{"type":"vibe-coding.x","pad":"` + strings.Repeat("a", 256<<10-len(`{"type":"vibe-coding.x","pad":""}`)) + `"}`
	require.Len(t, atLimit, 256<<10)
	require.NoError(t, c.SendRaw(ctx, []byte(atLimit)))
	m, err := c.Next(ctx)
	require.NoError(t, err)
	require.Equal(t, "Unsupported message type: vibe-coding.x", protoError(t, m).Error)

	ackBefore := eventMsg("key", "ev-before", vibe.TypeResponse, nil)
	require.NoError(t, c.Send(ctx, ackBefore))
	big := eventMsg("key", "ev-big", vibe.TypeResponse, map[string]any{"summary": strings.Repeat("x", 300<<10)})
	require.NoError(t, c.Send(ctx, big))
	before := closesWith(t, ctx, c, websocket.StatusMessageTooBig, "Message too large (limit 262144 bytes)")
	require.Len(t, before, 1)
	require.Equal(t, "ev-before", ack(t, before[0]).EventID)
}

// TestGracefulShutdown: events in flight when the server shuts down are each answered
// (acked once stored, or refused), then the socket closes with 1001.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")

	for i := range 10 {
		ack(t, sendEvent(t, ctx, c, "key", fmt.Sprintf("warm-%d", i)))
	}
	const n = 300
	sendDone := make(chan struct{})
	go func() {
		defer close(sendDone)
		for i := range n {
			if c.Send(ctx, eventMsg("key", fmt.Sprintf("ev-%03d", i), vibe.TypeResponse, nil)) != nil {
				return
			}
		}
	}()
	time.Sleep(2 * time.Millisecond)
	shutdownDone := make(chan struct{})
	go func() { defer close(shutdownDone); h.stop() }()

	code, reason, msgs := c.CloseError(ctx)
	<-sendDone
	<-shutdownDone
	require.Equal(t, websocket.StatusGoingAway, code)
	require.Equal(t, "Server shutting down", reason)
	require.Equal(t, "Server shutting down", protoError(t, msgs[len(msgs)-1]).Error)
	answered := map[string]bool{}
	acked := map[string]bool{}
	for _, m := range msgs[:len(msgs)-1] {
		var id string
		switch m.Type {
		case vibe.MsgAck:
			id = ack(t, m).EventID
			acked[id] = true
		default:
			e := protoError(t, m)
			require.Equal(t, TextShuttingDown, e.Error)
			id = e.EventID
		}
		require.False(t, answered[id], "%s answered twice", id)
		answered[id] = true
	}
	t.Logf("%d events answered before the close (%d acked)", len(answered), len(acked))
	for id := range acked {
		_, err := h.st.VibeEventByEventID(context.Background(), ms.ID, id)
		require.NoError(t, err, "acked %s must be stored", id)
	}
}

func TestUnansweredPingsDropTheConnection(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.PingInterval, c.PingTimeout = 50*time.Millisecond, 50*time.Millisecond }))
	_, tok, ms := h.liveSlot()
	c := h.connect(tok, ms, "key")
	// The client stops reading, so it never answers the server's pings.
	_ = c
	require.Eventually(t, func() bool { return h.counter(h.gw.met.pingTimeouts) >= 1 }, 5*time.Second, 20*time.Millisecond)
	require.Eventually(t, func() bool { return h.counter(h.gw.met.connections) == 0 }, 5*time.Second, 20*time.Millisecond)
	sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "key")
	require.NoError(t, err)
	require.Equal(t, store.SessionEnded, sess.Status)
}

func TestReadingClientStaysConnected(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.PingInterval, c.PingTimeout = 30*time.Millisecond, time.Second }))
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")
	readCtx, cancel := context.WithCancel(ctx)
	read := make(chan error, 1)
	go func() { // reading answers pings; nothing else arrives
		_, err := c.Next(readCtx)
		read <- err
	}()
	time.Sleep(300 * time.Millisecond) // ten ping intervals
	select {
	case err := <-read:
		t.Fatalf("the connection ended while the client was reading: %v", err)
	default:
	}
	require.Zero(t, h.counter(h.gw.met.pingTimeouts))
	require.Equal(t, 1.0, h.counter(h.gw.met.connections))
	// Cancelling the read closes the socket; how it reports that depends on
	// whether a ping was in flight, so only the cancellation is checked.
	cancel()
	require.Error(t, <-read)
}

func TestSessionEndedOnClose(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	a := h.connect(tok, ms, "key")
	b := h.connect(tok, ms, "key") // a reconnect racing the old connection
	ack(t, sendEvent(t, ctx, a, "key", "ev-1"))

	require.NoError(t, a.Close())
	require.Eventually(t, func() bool { return h.counter(h.gw.met.connections) == 1 }, 5*time.Second, 10*time.Millisecond,
		"the first connection is gone")
	sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "key")
	require.NoError(t, err)
	require.Equal(t, store.SessionActive, sess.Status, "still used by the other connection")

	require.NoError(t, b.Close())
	require.Eventually(t, func() bool {
		sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "key")
		return err == nil && sess.Status == store.SessionEnded && sess.EndedAt != nil
	}, 5*time.Second, 20*time.Millisecond)
}

func TestIdleSessionReaper(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) {
		c.IdleSessionTimeout = time.Minute
		c.ReapInterval = 50 * time.Millisecond
	}))
	alice, _ := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", true, "")
	old := time.Now().Add(-2 * time.Minute)
	orphan, err := h.st.UpsertVibeSession(t.Context(), store.VibeSession{ManagedStreamID: ms.ID, SessionKey: "crashed",
		Status: store.SessionActive, StartedAt: old, LastSeenAt: old})
	require.NoError(t, err)
	fresh, err := h.st.UpsertVibeSession(t.Context(), store.VibeSession{ManagedStreamID: ms.ID, SessionKey: "fresh",
		Status: store.SessionActive, StartedAt: time.Now(), LastSeenAt: time.Now()})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		s, err := h.st.VibeSessionByKey(t.Context(), ms.ID, orphan.SessionKey)
		return err == nil && s.Status == store.SessionEnded
	}, 5*time.Second, 20*time.Millisecond)
	s, err := h.st.VibeSessionByKey(t.Context(), ms.ID, fresh.SessionKey)
	require.NoError(t, err)
	require.Equal(t, store.SessionActive, s.Status)
	require.GreaterOrEqual(t, h.counter(h.gw.met.sessionsReaped), 1.0)
}

// TestMessagesSentBeforeReadyAreKept: a client that writes hello and an event before it
// reads anything gets ready, then the answers to both.
func TestMessagesSentBeforeReadyAreKept(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.dial(tok, ms.ID, ms.Slug)
	require.NoError(t, c.Send(ctx, helloMsg("key")))
	require.NoError(t, c.Send(ctx, eventMsg("key", "ev-early", vibe.TypeResponse, nil)))
	require.NoError(t, c.Send(ctx, vibe.Ping{Type: vibe.MsgPing}))
	_, err := c.Ready(ctx)
	require.NoError(t, err)
	_, err = c.Expect(ctx, vibe.MsgHelloAck, nil)
	require.NoError(t, err)
	// The ack and the pong may come in either order: the pong does not wait for the store.
	got := map[string]bool{}
	for range 2 {
		m, err := c.Next(ctx)
		require.NoError(t, err)
		got[m.Type] = true
	}
	require.Equal(t, map[string]bool{vibe.MsgAck: true, vibe.MsgPong: true}, got)
}
