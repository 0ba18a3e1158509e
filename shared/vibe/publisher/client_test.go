package publisher

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/vibe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testToken = "hbt_testtokentesttokentesttokentesttokentest"

func testConfig(g *fakeGateway) Config {
	return Config{
		Server:           g.srv.URL,
		Token:            testToken,
		ManagedStreamID:  7,
		SlotSlug:         "camp-code",
		DisableSanitize:  true,
		Publisher:        vibe.Publisher{IntegrationID: "test", ClientType: "cli", ClientName: "publisher-test"},
		BackoffMin:       10 * time.Millisecond,
		BackoffMax:       50 * time.Millisecond,
		HandshakeTimeout: 5 * time.Second,
		Rate:             -1,
	}
}

func textEvent(i int) vibe.Event {
	return vibe.Event{EventType: vibe.TypeResponse, Summary: fmt.Sprintf("step %d", i), Response: &vibe.ResponseBody{Text: fmt.Sprintf("step %d", i)}}
}

func closeClient(t *testing.T, c *Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.Close(ctx)
}

func TestPublishDeliversInOrderWithProtocolFields(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, nil)
	var acks atomic.Int64
	cfg := testConfig(g)
	cfg.OnAck = func(vibe.Ack) { acks.Add(1) }
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	require.Regexp(t, regexp.MustCompile(`^openvibe-\d{14}-[0-9a-f]{8}$`), c.SessionKey())
	require.Equal(t, 18, c.Settings().MaxEvents)

	const n = 200
	for i := range n {
		require.NoError(t, c.Publish(textEvent(i)))
	}
	require.NoError(t, c.Flush(t.Context()))

	events, envelopes, hellos, _ := g.snapshot()
	require.Len(t, events, n)
	ids := map[string]bool{}
	for i, ev := range events {
		require.Equal(t, fmt.Sprintf("step %d", i), ev.Summary, "order kept")
		require.Equal(t, int64(i+1), ev.Sequence)
		require.Equal(t, c.SessionKey(), ev.SessionKey)
		require.Equal(t, 1, ev.Version)
		require.NotEmpty(t, ev.OccurredAt)
		require.False(t, ids[ev.EventID], "eventIds unique")
		ids[ev.EventID] = true
	}
	env := envelopes[0]
	require.Equal(t, vibe.MsgEvent, env.Type)
	require.Equal(t, 1, env.ProtocolVersion)
	require.Equal(t, int64(7), env.ManagedStreamID)
	require.Equal(t, "camp-code", env.SlotSlug)
	require.Equal(t, c.SessionKey(), env.SessionKey)
	require.Len(t, hellos, 1)
	require.Equal(t, c.SessionKey(), hellos[0].SessionKey)
	require.JSONEq(t, `{"integrationId":"test","clientType":"cli","clientName":"publisher-test"}`, string(hellos[0].Publisher))
	g.mu.Lock()
	require.Equal(t, "Bearer "+testToken, g.auth[0])
	require.NotContains(t, g.queries[0], "token")
	require.Contains(t, g.queries[0], "managedStreamId=7")
	require.Contains(t, g.queries[0], "slotSlug=camp-code")
	g.mu.Unlock()

	st := c.Stats()
	require.True(t, st.Connected)
	require.Equal(t, int64(n), st.Published)
	defer func() { // Close ends the connection with a normal closure the gateway sees
		closeClient(t, c)
		require.Eventually(t, func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			return len(g.closeCodes) == 1 && g.closeCodes[0] == websocket.StatusNormalClosure
		}, 5*time.Second, 5*time.Millisecond)
	}()
	require.Equal(t, int64(n), st.Acked)
	require.Equal(t, int64(n), st.LastAckSequence)
	require.Equal(t, int64(n), acks.Load())
	require.Zero(t, st.Queued+st.InFlight)
}

func TestKeepsCallerEventIDAndSequence(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, nil)
	c, err := Dial(t.Context(), testConfig(g))
	require.NoError(t, err)
	defer closeClient(t, c)
	ev := textEvent(1)
	ev.EventID, ev.Sequence = "28c49b5c-9070-4fd3-b750-b67d84338f64", 40
	require.NoError(t, c.Publish(ev))
	require.NoError(t, c.Publish(textEvent(2)))
	require.NoError(t, c.Flush(t.Context()))
	events, _, _, _ := g.snapshot()
	require.Equal(t, ev.EventID, events[0].EventID)
	require.Equal(t, int64(40), events[0].Sequence)
	require.Equal(t, int64(41), events[1].Sequence, "sequence keeps increasing past the caller's")
}

func TestResendsUnackedAfterReconnect(t *testing.T) {
	t.Parallel()
	// The first connection drops after 10 events; the second after 15 more; the third is fine.
	g := newFakeGateway(t, func(g *fakeGateway) { g.dropAfter[1] = 10; g.dropAfter[2] = 15 })
	cfg := testConfig(g)
	cfg.MaxInFlight = 8
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	const n = 100
	for i := range n {
		require.NoError(t, c.Publish(textEvent(i)))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, c.Flush(ctx))

	events, _, hellos, conns := g.snapshot()
	require.Equal(t, 3, conns)
	require.Len(t, hellos, 3)
	require.Equal(t, hellos[0].SessionKey, hellos[2].SessionKey, "one session across reconnects")
	require.Len(t, events, n, "every event stored exactly once")
	for i, ev := range events {
		require.Equal(t, fmt.Sprintf("step %d", i), ev.Summary)
	}
	st := c.Stats()
	require.Equal(t, int64(3), st.Connects)
	require.Positive(t, st.Resent)
	require.Equal(t, int64(n), st.Acked)
}

func TestInFlightWindowIsBounded(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, func(g *fakeGateway) { g.holdAcks = true })
	cfg := testConfig(g)
	cfg.MaxInFlight = 4
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	for i := range 20 {
		require.NoError(t, c.Publish(textEvent(i)))
	}
	require.Eventually(t, func() bool { return c.Stats().InFlight == 4 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(50 * time.Millisecond) // give a broken window the chance to overrun
	_, envelopes, _, _ := g.snapshot()
	require.Len(t, envelopes, 4)
	require.Equal(t, 16, c.Stats().Queued)

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	err = c.Close(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "20 events not acked")
}

func TestPermanentFailuresStopWithHumanSentence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		setup    func(g *fakeGateway)
		sentinel error
		sentence string
	}{
		{"bad token", func(g *fakeGateway) { g.closeCode, g.closeReason = vibe.CloseUnauthorized, vibe.ReasonAuthRequired }, ErrUnauthorized, "the token was rejected: check it is valid, not expired and not revoked"},
		{"missing scope", func(g *fakeGateway) { g.closeCode, g.closeReason = vibe.CloseForbidden, vibe.ReasonScopeRequired }, ErrForbidden, "the token lacks the vibe_coding_publish scope"},
		{"missing scope, reason in error message", func(g *fakeGateway) { g.errorFirst, g.closeCode = vibe.ReasonScopeRequired, vibe.CloseForbidden }, ErrForbidden, "the token lacks the vibe_coding_publish scope"},
		{"unknown slot", func(g *fakeGateway) { g.closeCode, g.closeReason = vibe.CloseNotFound, vibe.ReasonSlotNotFound }, ErrSlotNotFound, "slot not found or not yours"},
		{"slug mismatch", func(g *fakeGateway) { g.closeCode, g.closeReason = vibe.CloseBadRequest, vibe.ReasonSlugMismatch }, ErrBadRequest, "slot slug does not match"},
		{"refused before upgrade", func(g *fakeGateway) { g.httpStatus = 401 }, ErrUnauthorized, "the token was rejected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newFakeGateway(t, tc.setup)
			var reported atomic.Int64
			cfg := testConfig(g)
			cfg.OnError = func(error) { reported.Add(1) }
			c, err := New(cfg)
			require.NoError(t, err)
			_, err = c.WaitReady(t.Context())
			var rej *RejectedError
			require.ErrorAs(t, err, &rej)
			require.ErrorIs(t, err, tc.sentinel)
			require.Contains(t, rej.Sentence(), tc.sentence)
			select {
			case <-c.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("client kept running after a permanent failure")
			}
			require.ErrorIs(t, c.Publish(textEvent(1)), tc.sentinel)
			_, _, _, conns := g.snapshot()
			require.Equal(t, 1, conns, "no retry after a permanent failure")
			require.Positive(t, reported.Load())
			require.ErrorIs(t, c.Close(t.Context()), tc.sentinel)
		})
	}
}

func TestRetriesTransientFailures(t *testing.T) {
	t.Parallel()
	// A 1011 close is not permanent: the client keeps trying.
	g := newFakeGateway(t, func(g *fakeGateway) { g.closeCode, g.closeReason = websocket.StatusInternalError, "boom" })
	c, err := New(testConfig(g))
	require.NoError(t, err)
	require.Eventually(t, func() bool { _, _, _, n := g.snapshot(); return n >= 3 }, 5*time.Second, 5*time.Millisecond)
	require.NoError(t, c.Err())
	require.Contains(t, c.Stats().LastError, "1011")
	closeCtx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	require.NoError(t, c.Close(closeCtx), "nothing pending")
}

func TestPublishNeverBlocksAndCountsDrops(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, func(g *fakeGateway) { g.noReady = true })
	cfg := testConfig(g)
	cfg.QueueSize = 10
	c, err := New(cfg)
	require.NoError(t, err)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		require.ErrorContains(t, c.Close(ctx), "10 events not acked")
	}()
	done := make(chan struct{})
	var dropped int
	go func() {
		defer close(done)
		for i := range 15 {
			if errors.Is(c.Publish(textEvent(i)), ErrQueueFull) {
				dropped++
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Publish blocked")
	}
	require.Equal(t, 5, dropped)
	st := c.Stats()
	require.Equal(t, int64(5), st.Dropped)
	require.Equal(t, 10, st.Queued)
	require.False(t, st.Connected)
}

func TestPublishWaitWaitsForRoom(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, nil)
	cfg := testConfig(g)
	cfg.QueueSize = 2
	cfg.MaxInFlight = 2
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	for i := range 50 {
		require.NoError(t, c.PublishWait(t.Context(), textEvent(i)))
	}
	require.NoError(t, c.Flush(t.Context()))
	events, _, _, _ := g.snapshot()
	require.Len(t, events, 50)
	require.Zero(t, c.Stats().Dropped)
}

func TestRejectedEventIsReportedNotResent(t *testing.T) {
	t.Parallel()
	const bad = "0b9d1f0e-5d1c-4e55-9a43-2a3c6c1f9b10"
	g := newFakeGateway(t, func(g *fakeGateway) { g.rejectID = bad })
	var mu sync.Mutex
	var errs []error
	cfg := testConfig(g)
	cfg.OnError = func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	ev := textEvent(0)
	ev.EventID = bad
	require.NoError(t, c.Publish(ev))
	require.NoError(t, c.Publish(textEvent(1)))
	require.NoError(t, c.Flush(t.Context()))
	st := c.Stats()
	require.Equal(t, int64(1), st.Rejected)
	require.Equal(t, int64(1), st.Acked)
	require.Equal(t, int64(2), st.Sent)
	mu.Lock()
	defer mu.Unlock()
	var evErr *EventError
	require.Len(t, errs, 1)
	require.ErrorAs(t, errs[0], &evErr)
	require.Equal(t, bad, evErr.EventID)
	require.Contains(t, evErr.Message, "not supported")
}

// Flush returns only after the callbacks of every answered event have returned, however slow
// they are: a caller that flushes and then reads what OnAck and OnError recorded sees all of it.
func TestFlushWaitsForCallbacks(t *testing.T) {
	t.Parallel()
	const bad = "5f0f7a52-7d0c-4a4e-8f39-4c1b9a0f2d11"
	g := newFakeGateway(t, func(g *fakeGateway) { g.rejectID = bad })
	var mu sync.Mutex
	acked := map[string]bool{}
	var errs []error
	cfg := testConfig(g)
	cfg.OnAck = func(a vibe.Ack) {
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		acked[a.EventID] = true
		mu.Unlock()
	}
	cfg.OnError = func(err error) {
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	const n = 5
	for i := range n {
		require.NoError(t, c.Publish(textEvent(i)))
	}
	ev := textEvent(n)
	ev.EventID = bad
	require.NoError(t, c.Publish(ev))
	require.NoError(t, c.Flush(t.Context()))
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, acked, n)
	require.Len(t, errs, 1)
}

func TestPingsAndReconnectsWhenGatewayGoesSilent(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, func(g *fakeGateway) { g.silent = true })
	cfg := testConfig(g)
	cfg.PingInterval = 40 * time.Millisecond
	cfg.ReadTimeout = 250 * time.Millisecond
	// Every error is kept: on a loaded machine a reconnect may meet another error after the
	// silence was noticed, and LastError holds only the newest.
	var mu sync.Mutex
	var errs []string
	cfg.OnError = func(err error) {
		mu.Lock()
		errs = append(errs, err.Error())
		mu.Unlock()
	}
	silenceNoticed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, "no message from the gateway") })
	}
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	require.Eventually(t, func() bool { return c.Stats().Connects >= 2 && silenceNoticed() }, 30*time.Second, 10*time.Millisecond)
	g.mu.Lock()
	pings := g.pings
	g.mu.Unlock()
	require.Positive(t, pings)
}

func TestWaitReadyTimesOutWithLastError(t *testing.T) {
	t.Parallel()
	cfg := Config{Server: "http://127.0.0.1:1", Token: testToken, ManagedStreamID: 1, DisableSanitize: true, BackoffMin: 10 * time.Millisecond, BackoffMax: 20 * time.Millisecond}
	c, err := New(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err = c.WaitReady(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "connect to gateway")
	closeCtx, cancel2 := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel2()
	require.NoError(t, c.Close(closeCtx))
	require.ErrorIs(t, c.Publish(textEvent(1)), ErrClosed)
}

func TestConfigValidation(t *testing.T) {
	t.Parallel()
	_, err := New(Config{Server: "ftp://x", DisableSanitize: true})
	require.Error(t, err)
	msg := err.Error()
	for _, want := range []string{"scheme must be http", "token is required", "managed stream id"} {
		require.True(t, strings.Contains(msg, want), "%q missing from %q", want, msg)
	}
}

func TestPublishURL(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"http://127.0.0.1:8080":          "ws://127.0.0.1:8080/ws/vibe-coding/publish?managedStreamId=3&slotSlug=a-b",
		"https://openvibe.example/":      "wss://openvibe.example/ws/vibe-coding/publish?managedStreamId=3&slotSlug=a-b",
		"wss://h/custom/path?token=leak": "wss://h/custom/path?managedStreamId=3&slotSlug=a-b",
	}
	for in, want := range cases {
		got, err := PublishURL(in, 3, "a-b")
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

func TestRetriesEventTheGatewayCouldNotStore(t *testing.T) {
	t.Parallel()
	const id = "7d3c9d0e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"
	g := newFakeGateway(t, func(g *fakeGateway) { g.failOnceID = id })
	c, err := Dial(t.Context(), testConfig(g))
	require.NoError(t, err)
	defer closeClient(t, c)
	ev := textEvent(0)
	ev.EventID = id
	require.NoError(t, c.Publish(ev))
	require.NoError(t, c.Publish(textEvent(1)))
	require.NoError(t, c.Flush(t.Context()))
	events, envelopes, _, conns := g.snapshot()
	require.Len(t, events, 2, "both stored")
	require.Len(t, envelopes, 3, "the failed one was sent again")
	require.Equal(t, 1, conns, "on the same connection")
	st := c.Stats()
	require.Zero(t, st.Rejected)
	require.Equal(t, int64(2), st.Acked)
	require.Equal(t, int64(1), st.Resent)
}

func TestOversizedEventIsRejectedLocally(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, nil)
	var evErr atomic.Value
	cfg := testConfig(g)
	cfg.MaxMessageBytes = 4096
	cfg.OnError = func(err error) { evErr.Store(err) }
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	big := textEvent(0)
	big.Response.Text = strings.Repeat("x", 5000)
	require.NoError(t, c.Publish(big))
	require.NoError(t, c.Publish(textEvent(1)))
	require.NoError(t, c.Flush(t.Context()))
	events, _, _, conns := g.snapshot()
	require.Len(t, events, 1)
	require.Equal(t, 1, conns, "the connection was not broken by it")
	require.Equal(t, int64(1), c.Stats().Rejected)
	require.ErrorContains(t, evErr.Load().(error), "event too large")
}

func TestPacesMessages(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, nil)
	cfg := testConfig(g)
	cfg.Rate, cfg.Burst = 100, 10
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)
	start := time.Now()
	for i := range 30 {
		require.NoError(t, c.Publish(textEvent(i)))
	}
	require.NoError(t, c.Flush(t.Context()))
	// 10 go at once, the other 20 at 100/s: at least ~200ms.
	require.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond)
}

func TestCountsEventsViewersDidNotGet(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, func(g *fakeGateway) { g.notLive = true })
	c, err := Dial(t.Context(), testConfig(g))
	require.NoError(t, err)
	defer closeClient(t, c)
	ev := textEvent(0)
	require.NoError(t, c.Publish(ev))
	require.NoError(t, c.Publish(textEvent(1)))
	require.NoError(t, c.Flush(t.Context()))
	st := c.Stats()
	require.Equal(t, int64(2), st.Acked)
	require.Equal(t, int64(2), st.Undelivered)
}
