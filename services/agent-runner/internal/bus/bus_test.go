package bus

import (
	"testing"

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
