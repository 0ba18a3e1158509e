package faults

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

// TestGatewayKill9: 50 publishers send through a balancer over two gateways; one gateway
// is killed with SIGKILL mid-stream and restarted. Publishers reconnect to a live gateway
// and resend what was not acked. Every event ends up acked and stored exactly once, and
// viewers on both chat-socket replicas see every event once, in order.
func TestGatewayKill9(t *testing.T) {
	c := cluster.Start(t, bins, cluster.Options{Gateways: 2, Chats: 2, APIs: 1, GatewayEnv: gatewayEnv, ChatEnv: chatEnv})
	owner := c.NewOwner("kill9", 5)
	s := newStream(t, c, owner, 10)
	s.watch(0, cluster.ViewerOptions{})
	s.watch(1, cluster.ViewerOptions{})

	victim := c.Gateways[0]
	var killedAt time.Time
	sent := s.publish(8*time.Second, 50*time.Millisecond, map[time.Duration]func(){
		2 * time.Second: func() { victim.Kill(); killedAt = time.Now() },
		5 * time.Second: func() { victim.StartReady(20 * time.Second) },
	})
	require.False(t, killedAt.IsZero())
	s.flush(60 * time.Second)
	stored := s.checkStore()
	require.Equal(t, sent, stored)
	connects, resent, dups, rejected := s.stats()
	t.Logf("events sent %d, acked and stored once each %d; publisher handshakes %d (initial %d), resent %d, duplicate acks %d, refused %d",
		sent, stored, connects, len(s.pubs), resent, dups, rejected)
	require.Greater(t, connects, int64(len(s.pubs)), "some publishers had to reconnect")
	s.checkViewers(30 * time.Second)
}
