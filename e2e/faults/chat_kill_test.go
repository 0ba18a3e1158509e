package faults

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

// TestChatSocketKill9: a chat-socket replica is killed with SIGKILL while events stream.
// Its viewers reconnect to the other replica with ?since=<last seq> and end up with every
// event exactly once, in order; the other replica's viewers never notice.
func TestChatSocketKill9(t *testing.T) {
	c := cluster.Start(t, bins, cluster.Options{Gateways: 1, Chats: 2, APIs: 1, GatewayEnv: gatewayEnv, ChatEnv: chatEnv})
	owner := c.NewOwner("chatkill", 3)
	s := newStream(t, c, owner, 2)
	moved := s.watch(0, cluster.ViewerOptions{Reconnect: true})
	stayed := s.watch(1, cluster.ViewerOptions{})

	var killedAt time.Time
	sent := s.publish(8*time.Second, 50*time.Millisecond, map[time.Duration]func(){
		3 * time.Second: func() { c.Chats[0].Kill(); killedAt = time.Now() },
	})
	s.flush(30 * time.Second)
	require.Equal(t, sent, s.checkStore())
	s.checkViewers(30 * time.Second)
	var worst time.Duration
	for _, v := range moved {
		snap := v.Snapshot()
		require.GreaterOrEqual(t, snap.Welcomes, 2, "viewer reconnected")
		require.Zero(t, snap.Resets, "resume was exact, no reset")
		// The gap a viewer saw: its last frame before the kill to its first after.
		for i := 1; i < len(snap.Events); i++ {
			if snap.Events[i-1].At.Before(killedAt) && !snap.Events[i].At.Before(killedAt) {
				worst = max(worst, snap.Events[i].At.Sub(killedAt))
			}
		}
	}
	for _, v := range stayed {
		require.Equal(t, 1, v.Snapshot().Welcomes, "the other replica's viewers kept their socket")
	}
	t.Logf("events %d; %d viewers moved to the other replica with since, none missed or repeated an event; longest kill→next frame %.2fs",
		sent, len(moved), worst.Seconds())
}
