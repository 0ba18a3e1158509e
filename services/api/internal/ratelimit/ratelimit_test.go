package ratelimit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLimiterBurstThenRefill(t *testing.T) {
	t.Parallel()
	l := New(60, 3) // one per second, burst 3
	now := time.Unix(1_700_000_000, 0)
	for i := range 3 {
		ok, _ := l.Allow("u1", now)
		require.True(t, ok, "request %d within the burst", i)
	}
	ok, wait := l.Allow("u1", now)
	require.False(t, ok)
	require.InDelta(t, time.Second, wait, float64(10*time.Millisecond))

	ok, _ = l.Allow("u2", now)
	require.True(t, ok, "another key has its own bucket")

	ok, _ = l.Allow("u1", now.Add(time.Second))
	require.True(t, ok, "a token refilled after a second")
}

func TestLimiterDeniedRequestsDoNotDrain(t *testing.T) {
	t.Parallel()
	l := New(60, 1)
	now := time.Unix(1_700_000_000, 0)
	ok, _ := l.Allow("k", now)
	require.True(t, ok)
	for range 10 {
		ok, _ = l.Allow("k", now.Add(500*time.Millisecond))
		require.False(t, ok)
	}
	ok, _ = l.Allow("k", now.Add(time.Second))
	require.True(t, ok, "denied attempts must not push the next token further away")
}

func TestLimiterForgetsIdleKeys(t *testing.T) {
	t.Parallel()
	l := New(60, 5)
	now := time.Unix(1_700_000_000, 0)
	for i := range 100 {
		l.Allow(string(rune('a'+i%26))+time.Duration(i).String(), now)
	}
	require.Equal(t, 100, l.Len())
	l.Allow("fresh", now.Add(2*time.Minute))
	require.Equal(t, 1, l.Len())
}

func TestNilLimiterAllows(t *testing.T) {
	t.Parallel()
	var l *Limiter = New(0, 10)
	require.Nil(t, l)
	ok, _ := l.Allow("x", time.Now())
	require.True(t, ok)
}
