package bus

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestSlowSubscriberNeverBlocks: a subscriber that never reads loses events beyond its
// buffer (and is told how many) while publishing stays fast and others get everything.
func TestSlowSubscriberNeverBlocks(t *testing.T) {
	b := New()
	slow := b.Subscribe(16, nil)
	defer slow.Close()
	fast := b.Subscribe(100_000, nil)
	defer fast.Close()
	onlyA := b.Subscribe(100_000, func(e Event) bool { return e.SessionID == "a" })
	defer onlyA.Close()

	for i := range 50_000 {
		sid := "a"
		if i%2 == 1 {
			sid = "b"
		}
		b.Publish(Event{Type: PartDelta, SessionID: sid})
	}
	require.Len(t, fast.C(), 50_000)
	require.Len(t, onlyA.C(), 25_000)
	require.Len(t, slow.C(), 16)
	require.EqualValues(t, 50_000-16, slow.Dropped())
	require.Zero(t, slow.Dropped(), "Dropped resets")
}

func TestCloseUnsubscribes(t *testing.T) {
	b := New()
	s := b.Subscribe(1, nil)
	require.Equal(t, 1, b.Subscribers())
	s.Close()
	s.Close()
	require.Equal(t, 0, b.Subscribers())
	_, ok := <-s.C()
	require.False(t, ok)
	b.Publish(Event{Type: "x"}) // no panic on a closed subscriber
}

// BenchmarkPublish publishes a text delta as the engine does for every streamed chunk, with
// one subscriber draining (an SSE client).
func BenchmarkPublish(b *testing.B) {
	bus := New()
	sub := bus.Subscribe(1<<16, nil)
	done := make(chan struct{})
	go func() {
		for range sub.C() {
		}
		close(done)
	}()
	props := map[string]any{"message_id": "msg_01a2317cca6c00004d85926228", "part_id": "prt_01a2317cca6c00004d85926229",
		"part_type": "text", "field": "text", "delta": "a chunk of model output, "}
	b.ReportAllocs()
	for b.Loop() {
		bus.Publish(Event{Type: PartDelta, SessionID: "ses_01a2317cca6c00004d85926227", OwnerID: 1, Properties: props})
	}
	sub.Close()
	<-done
}

// TestSubscribeSince: a subscriber starting from a position gets the buffered events after
// it, then the live ones, with nothing twice; positions the buffer no longer holds are
// counted as missed; an ID from another process starts from the beginning.
func TestSubscribeSince(t *testing.T) {
	b := New()
	for range 5 {
		b.Publish(Event{Type: "x", SessionID: "a"})
		b.Publish(Event{Type: "x", SessionID: "b"})
	}
	from, err := b.ParseID(b.ID(4))
	require.NoError(t, err)
	require.EqualValues(t, 4, from)
	s, replay, missed := b.SubscribeSince(16, func(e Event) bool { return e.SessionID == "a" }, from)
	defer s.Close()
	require.Zero(t, missed)
	var seqs []int64
	for _, e := range replay {
		seqs = append(seqs, e.Seq)
		require.JSONEq(t, `{"type":"x","session_id":"a","time":"`+e.Time.Format(time.RFC3339Nano)+`"}`, string(e.Data))
	}
	require.Equal(t, []int64{5, 7, 9}, seqs)
	b.Publish(Event{Type: "y", SessionID: "a"})
	require.EqualValues(t, 11, (<-s.C()).Seq)

	n, err := b.ParseID("otherboot-99")
	require.NoError(t, err)
	require.Zero(t, n, "an ID from before a restart starts from the beginning")
	_, err = b.ParseID("nope")
	require.Error(t, err)
	require.Equal(t, b.ID(11), b.LastID())

	for range ReplayEvents {
		b.Publish(Event{Type: "z"})
	}
	s2, replay, missed := b.SubscribeSince(1, nil, 3)
	defer s2.Close()
	require.Len(t, replay, ReplayEvents)
	require.EqualValues(t, 11+ReplayEvents-ReplayEvents-3, missed, "events 4…11 fell out of the buffer")
}
