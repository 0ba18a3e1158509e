// Package brokertest is the conformance suite for broker.Broker backends. Every backend runs
// the same tests through Run, each subtest on a fresh broker:
//
//	func TestConformance(t *testing.T) {
//		brokertest.Run(t, func(t *testing.T) broker.Broker { return memory.New(memory.Options{}) })
//	}
//
// Backends must be built with their default buffer size (well under SlowMessages). Channel
// names are unique per test run, since Redis pub/sub channels are shared by every logical
// database and every test process using the same server.
package brokertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker"
)

const (
	// Timeout bounds every wait for a delivery.
	Timeout = 5 * time.Second
	// SlowMessages is how many messages the slow-subscriber test publishes; it must exceed
	// the backend's buffer.
	SlowMessages = 2000
)

// Run runs the conformance suite. newBroker returns a fresh broker; Run closes it.
func Run(t *testing.T, newBroker func(t *testing.T) broker.Broker) {
	tests := []struct {
		name string
		fn   func(t *testing.T, b broker.Broker)
	}{
		{"SubscribeThenPublish", testSubscribeThenPublish},
		{"OrderPerPublisher", testOrderPerPublisher},
		{"PublishAll", testPublishAll},
		{"FanOut", testFanOut},
		{"ChannelsAreIsolated", testChannelsAreIsolated},
		{"PayloadIsCopied", testPayloadIsCopied},
		{"Unsubscribe", testUnsubscribe},
		{"ResubscribeAfterLastUnsubscribe", testResubscribe},
		{"Close", testClose},
		{"CancelledContext", testCancelledContext},
		{"SlowSubscriberGetsGap", testSlowSubscriber},
		{"Concurrent", testConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := newBroker(t)
			t.Cleanup(func() { _ = b.Close() })
			tt.fn(t, b)
		})
	}
}

// Channel returns a channel name unique to this test and run.
func Channel(t testing.TB, suffix string) string {
	var r [6]byte
	_, _ = rand.Read(r[:])
	name := strings.NewReplacer("/", ".", " ", "_").Replace(t.Name())
	return "brokertest." + name + "." + hex.EncodeToString(r[:]) + "." + suffix
}

// Receive waits for the next message on sub, failing the test after Timeout.
func Receive(t testing.TB, sub broker.Subscription) broker.Message {
	t.Helper()
	select {
	case m, ok := <-sub.Messages():
		require.True(t, ok, "subscription closed unexpectedly")
		return m
	case <-time.After(Timeout):
		t.Fatal("no message within", Timeout)
		return broker.Message{}
	}
}

// ReceivePayload waits for the next message and requires it to be a payload (not a Gap).
func ReceivePayload(t testing.TB, sub broker.Subscription) string {
	t.Helper()
	m := Receive(t, sub)
	require.False(t, m.Gap, "unexpected Gap")
	return string(m.Payload)
}

// ExpectNothing requires that sub delivers nothing for d.
func ExpectNothing(t testing.TB, sub broker.Subscription, d time.Duration) {
	t.Helper()
	select {
	case m, ok := <-sub.Messages():
		if ok {
			t.Fatalf("unexpected delivery: gap=%v payload=%q", m.Gap, m.Payload)
		}
		t.Fatal("subscription closed unexpectedly")
	case <-time.After(d):
	}
}

// ExpectClosed requires that sub's Messages channel is (or soon becomes) closed, draining
// whatever was still queued.
func ExpectClosed(t testing.TB, sub broker.Subscription) {
	t.Helper()
	deadline := time.After(Timeout)
	for {
		select {
		case _, ok := <-sub.Messages():
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("Messages was not closed")
		}
	}
}

func subscribe(t *testing.T, b broker.Broker, channel string) broker.Subscription {
	t.Helper()
	sub, err := b.Subscribe(t.Context(), channel)
	require.NoError(t, err)
	t.Cleanup(func() { _ = sub.Close() })
	return sub
}

func publish(t *testing.T, b broker.Broker, channel, payload string) {
	t.Helper()
	require.NoError(t, b.Publish(t.Context(), channel, []byte(payload)))
}

func testSubscribeThenPublish(t *testing.T, b broker.Broker) {
	require.NoError(t, b.Ping(t.Context()))
	ch := Channel(t, "a")
	sub := subscribe(t, b, ch)
	publish(t, b, ch, "hello")
	m := Receive(t, sub)
	require.Equal(t, broker.Message{Channel: ch, Payload: []byte("hello")}, m)

	publish(t, b, ch, "")
	m = Receive(t, sub)
	require.False(t, m.Gap, "an empty payload is a message, not a Gap")
	require.Empty(t, m.Payload)
}

func testOrderPerPublisher(t *testing.T, b broker.Broker) {
	ch := Channel(t, "order")
	sub := subscribe(t, b, ch)
	const n = 100
	for i := range n {
		publish(t, b, ch, strconv.Itoa(i))
	}
	for i := range n {
		require.Equal(t, strconv.Itoa(i), ReceivePayload(t, sub))
	}
	ExpectNothing(t, sub, 50*time.Millisecond)
}

// testPublishAll: a batch is delivered in order, interleaved over channels as published, and
// after a Close every message of a batch fails.
func testPublishAll(t *testing.T, b broker.Broker) {
	chA, chB := Channel(t, "a"), Channel(t, "b")
	subA, subB := subscribe(t, b, chA), subscribe(t, b, chB)
	var msgs []broker.Outgoing
	for i := range 200 {
		ch := chA
		if i%3 == 0 {
			ch = chB
		}
		msgs = append(msgs, broker.Outgoing{Channel: ch, Payload: []byte(strconv.Itoa(i))})
	}
	for i, err := range broker.PublishAll(t.Context(), b, msgs) {
		require.NoError(t, err, "message %d", i)
	}
	for i := range 200 {
		sub := subA
		if i%3 == 0 {
			sub = subB
		}
		require.Equal(t, strconv.Itoa(i), ReceivePayload(t, sub))
	}
	require.Empty(t, broker.PublishAll(t.Context(), b, nil))

	require.NoError(t, b.Close())
	errs := broker.PublishAll(t.Context(), b, msgs[:3])
	require.Len(t, errs, 3)
	for _, err := range errs {
		require.ErrorIs(t, err, broker.ErrClosed)
	}
}

func testFanOut(t *testing.T, b broker.Broker) {
	ch := Channel(t, "fan")
	subs := []broker.Subscription{subscribe(t, b, ch), subscribe(t, b, ch), subscribe(t, b, ch)}
	publish(t, b, ch, "one")
	publish(t, b, ch, "two")
	for _, s := range subs {
		require.Equal(t, "one", ReceivePayload(t, s))
		require.Equal(t, "two", ReceivePayload(t, s))
	}
}

func testChannelsAreIsolated(t *testing.T, b broker.Broker) {
	a, c := Channel(t, "a"), Channel(t, "c")
	subA, subC := subscribe(t, b, a), subscribe(t, b, c)
	publish(t, b, a, "for-a")
	publish(t, b, c, "for-c")
	require.Equal(t, "for-a", ReceivePayload(t, subA))
	require.Equal(t, "for-c", ReceivePayload(t, subC))
	ExpectNothing(t, subA, 50*time.Millisecond)
	ExpectNothing(t, subC, 0)
}

func testPayloadIsCopied(t *testing.T, b broker.Broker) {
	ch := Channel(t, "copy")
	s1, s2 := subscribe(t, b, ch), subscribe(t, b, ch)
	buf := []byte("original")
	require.NoError(t, b.Publish(t.Context(), ch, buf))
	copy(buf, "CHANGED!")
	m1 := Receive(t, s1)
	require.Equal(t, "original", string(m1.Payload))
	m1.Payload[0] = 'X' // one subscriber's change is not seen by another
	require.Equal(t, "original", ReceivePayload(t, s2))
}

func testUnsubscribe(t *testing.T, b broker.Broker) {
	ch := Channel(t, "unsub")
	gone, stays := subscribe(t, b, ch), subscribe(t, b, ch)
	publish(t, b, ch, "before")
	require.Equal(t, "before", ReceivePayload(t, gone))
	require.NoError(t, gone.Close())
	require.NoError(t, gone.Close(), "Close is safe to call twice")
	ExpectClosed(t, gone)

	publish(t, b, ch, "after")
	require.Equal(t, "before", ReceivePayload(t, stays))
	require.Equal(t, "after", ReceivePayload(t, stays))
}

func testResubscribe(t *testing.T, b broker.Broker) {
	ch := Channel(t, "resub")
	first := subscribe(t, b, ch)
	require.NoError(t, first.Close())
	// The backend may have released the channel entirely; subscribing again must work.
	for i := range 5 {
		sub := subscribe(t, b, ch)
		publish(t, b, ch, "round-"+strconv.Itoa(i))
		require.Equal(t, "round-"+strconv.Itoa(i), ReceivePayload(t, sub))
		require.NoError(t, sub.Close())
	}
}

func testClose(t *testing.T, b broker.Broker) {
	ch := Channel(t, "close")
	s1, s2 := subscribe(t, b, ch), subscribe(t, b, Channel(t, "other"))
	require.NoError(t, b.Close())
	ExpectClosed(t, s1)
	ExpectClosed(t, s2)
	require.NoError(t, s1.Close(), "closing a subscription after its broker is fine")
	require.ErrorIs(t, b.Publish(t.Context(), ch, []byte("x")), broker.ErrClosed)
	_, err := b.Subscribe(t.Context(), ch)
	require.ErrorIs(t, err, broker.ErrClosed)
	require.Error(t, b.Ping(t.Context()))
	_ = b.Close() // a second Close must not panic
}

func testCancelledContext(t *testing.T, b broker.Broker) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ch := Channel(t, "cancelled")
	require.Error(t, b.Publish(ctx, ch, []byte("x")))
	sub, err := b.Subscribe(ctx, ch)
	require.Error(t, err)
	require.Nil(t, sub)
	// A failed Subscribe leaves nothing behind: a real subscription still works.
	live := subscribe(t, b, ch)
	publish(t, b, ch, "ok")
	require.Equal(t, "ok", ReceivePayload(t, live))
}

// testSlowSubscriber: a subscriber that stops reading loses messages and learns of it
// through a Gap, while a subscriber that keeps up on the same channel loses nothing and the
// publisher is never blocked.
func testSlowSubscriber(t *testing.T, b broker.Broker) {
	ch := Channel(t, "slow")
	slow, fast := subscribe(t, b, ch), subscribe(t, b, ch)
	for i := range SlowMessages {
		publish(t, b, ch, strconv.Itoa(i)) // would deadlock here if a publisher could block
		require.Equal(t, strconv.Itoa(i), ReceivePayload(t, fast))
	}

	// The slow subscriber gets an unbroken prefix, then a Gap.
	next := 0
	for {
		m := Receive(t, slow)
		if m.Gap {
			break
		}
		require.Equal(t, strconv.Itoa(next), string(m.Payload), "messages before the Gap are in order")
		next++
	}
	require.Positive(t, next, "the buffer held some messages")
	require.Less(t, next, SlowMessages, "some messages were dropped")

	// A backend may hold a message in hand while its queue is full, so a message published
	// after the drops can have found room, with a Gap before it and another after it if more
	// were dropped: whatever comes before the next new message is in order.
	publish(t, b, ch, "fresh")
	last := next - 1
	for {
		m := Receive(t, slow)
		if m.Gap {
			continue
		}
		if string(m.Payload) == "fresh" {
			break
		}
		n, err := strconv.Atoi(string(m.Payload))
		require.NoError(t, err)
		require.Greater(t, n, last, "messages after the Gap are in order")
		last = n
	}
	require.Equal(t, "fresh", ReceivePayload(t, fast))

	// Caught up, it receives new messages normally, with no further Gap.
	publish(t, b, ch, "again")
	require.Equal(t, "again", ReceivePayload(t, slow))
	require.Equal(t, "again", ReceivePayload(t, fast))
}

// testConcurrent runs publishers, subscribers and subscription churn at once (meant for -race)
// and checks per-publisher order on every subscriber.
func testConcurrent(t *testing.T, b broker.Broker) {
	const publishers, perPublisher, subscribers = 4, 150, 3
	channels := []string{Channel(t, "c0"), Channel(t, "c1")}
	var subs []broker.Subscription
	var subChannel []string
	for _, ch := range channels {
		for range subscribers {
			subs = append(subs, subscribe(t, b, ch))
			subChannel = append(subChannel, ch)
		}
	}

	var wg sync.WaitGroup
	results := make([]error, len(subs))
	for i, s := range subs {
		wg.Go(func() { results[i] = checkOrder(s, publishers, perPublisher) })
	}
	stopChurn := make(chan struct{})
	var churn sync.WaitGroup
	churn.Go(func() { churnSubscriptions(t.Context(), b, channels, stopChurn) })

	var pubs sync.WaitGroup
	pubErrs := make(chan error, publishers)
	for p := range publishers {
		pubs.Go(func() {
			for i := range perPublisher {
				for _, ch := range channels {
					if err := b.Publish(t.Context(), ch, fmt.Appendf(nil, "%d:%d", p, i)); err != nil {
						pubErrs <- err
						return
					}
				}
			}
		})
	}
	pubs.Wait()
	close(pubErrs)
	for err := range pubErrs {
		require.NoError(t, err)
	}
	// Markers can be dropped like any message, so repeat them until every reader saw one.
	readersDone := make(chan struct{})
	go func() { wg.Wait(); close(readersDone) }()
	for done := false; !done; {
		for _, ch := range channels {
			publish(t, b, ch, "end")
		}
		select {
		case <-readersDone:
			done = true
		case <-time.After(10 * time.Millisecond):
		}
	}
	close(stopChurn)
	churn.Wait()
	for i, err := range results {
		require.NoError(t, err, "subscriber %d on %s", i, subChannel[i])
	}
}

// checkOrder reads until the "end" marker and verifies that each publisher's sequence only
// moves forward, and is unbroken unless a Gap was delivered.
func checkOrder(sub broker.Subscription, publishers, perPublisher int) error {
	last := make([]int, publishers)
	for i := range last {
		last[i] = -1
	}
	gapSeen := false
	timeout := time.After(4 * Timeout)
	for {
		var m broker.Message
		var ok bool
		select {
		case m, ok = <-sub.Messages():
		case <-timeout:
			return fmt.Errorf("timed out; last seen %v", last)
		}
		switch {
		case !ok:
			return fmt.Errorf("subscription closed early; last seen %v", last)
		case m.Gap:
			gapSeen = true
			continue
		case string(m.Payload) == "end":
			if !gapSeen {
				for p, l := range last {
					if l != perPublisher-1 {
						return fmt.Errorf("publisher %d: last message %d, want %d", p, l, perPublisher-1)
					}
				}
			}
			return nil
		}
		var p, i int
		if _, err := fmt.Sscanf(string(m.Payload), "%d:%d", &p, &i); err != nil {
			return fmt.Errorf("bad payload %q", m.Payload)
		}
		if i <= last[p] || (!gapSeen && i != last[p]+1) {
			return fmt.Errorf("publisher %d: got %d after %d (gap seen: %v)", p, i, last[p], gapSeen)
		}
		last[p] = i
	}
}

func churnSubscriptions(ctx context.Context, b broker.Broker, channels []string, stop <-chan struct{}) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		sub, err := b.Subscribe(ctx, channels[i%len(channels)])
		if err != nil {
			return
		}
		// Read a little, then leave.
		select {
		case <-sub.Messages():
		case <-time.After(time.Millisecond):
		}
		_ = sub.Close()
	}
}
