package fanout

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/broker"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// drain reads until nothing arrives for a short while; a Gap reads as "gap".
func drain(t *testing.T, s *Sub) []string {
	t.Helper()
	var out []string
	for {
		select {
		case m, ok := <-s.Messages():
			require.True(t, ok)
			if m.Gap {
				require.Empty(t, m.Payload)
				out = append(out, "gap")
			} else {
				out = append(out, string(m.Payload))
			}
		case <-time.After(30 * time.Millisecond):
			return out
		}
	}
}

func TestGapAfterQueuedMessages(t *testing.T) {
	t.Parallel()
	s := New("c", 10, nil, nil)
	defer s.Close()
	s.Push([]byte("a"))
	s.Push([]byte("b"))
	s.Gap()
	s.Gap() // owed once
	require.Equal(t, []string{"a", "b", "gap"}, drain(t, s))
	s.Push([]byte("c"))
	require.Equal(t, []string{"c"}, drain(t, s))
}

func TestOverflowDropsAndOwesOneGap(t *testing.T) {
	t.Parallel()
	s := New("c", 3, nil, nil)
	defer s.Close()
	// Let the pump take "0" and block handing it over, so the queue then holds exactly 3.
	s.Push([]byte("0"))
	require.Eventually(t, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return len(s.queue) == 0 },
		time.Second, time.Millisecond)
	for _, p := range []string{"1", "2", "3", "4", "5"} {
		s.Push([]byte(p))
	}
	require.Equal(t, []string{"0", "1", "2", "3", "gap"}, drain(t, s))
	s.Push([]byte("6"))
	require.Equal(t, []string{"6"}, drain(t, s))
}

func TestGapBeforeMessagePushedWhileFull(t *testing.T) {
	t.Parallel()
	s := New("c", 1, nil, nil)
	defer s.Close()
	s.Push([]byte("0"))
	require.Eventually(t, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return len(s.queue) == 0 },
		time.Second, time.Millisecond)
	s.Push([]byte("1"))
	s.Push([]byte("2")) // dropped
	require.Equal(t, broker.Message{Channel: "c", Payload: []byte("0")}, <-s.Messages())
	require.Equal(t, broker.Message{Channel: "c", Payload: []byte("1")}, <-s.Messages())
	s.Push([]byte("3")) // queued behind the owed Gap
	require.Equal(t, []string{"gap", "3"}, drain(t, s))
}

func TestPushCopies(t *testing.T) {
	t.Parallel()
	s := New("c", 0, nil, nil)
	defer s.Close()
	p := []byte("abc")
	s.Push(p)
	p[0] = 'X'
	require.Equal(t, []string{"abc"}, drain(t, s))
}

func TestCloseWithoutReader(t *testing.T) {
	t.Parallel()
	calls := 0
	s := New("c", 4, nil, func(*Sub) { calls++ })
	s.Push([]byte("a"))
	s.Push([]byte("b"))
	require.NoError(t, s.Close())
	require.NoError(t, s.Close())
	require.Equal(t, 1, calls)
	_, ok := <-s.Messages()
	require.False(t, ok, "Messages is closed, queued messages discarded")
	s.Push([]byte("late")) // ignored, no panic
	s.Gap()
}
