package faults

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

// TestGatewayGracefulShutdown: a gateway gets SIGTERM while 20 publishers send through the
// balancer. It exits cleanly; every event it had read is either acked (and stored) or
// refused with "send it again", and the publishers resend on the other gateway: at the end
// every event is acked and stored exactly once, none acked but missing, none lost.
func TestGatewayGracefulShutdown(t *testing.T) {
	c := cluster.Start(t, bins, cluster.Options{Gateways: 2, Chats: 1, APIs: 1, GatewayEnv: gatewayEnv, ChatEnv: chatEnv})
	owner := c.NewOwner("graceful", 4)
	s := newStream(t, c, owner, 5)
	s.watch(0, cluster.ViewerOptions{})

	var exit int
	var took time.Duration
	sent := s.publish(6*time.Second, 25*time.Millisecond, map[time.Duration]func(){
		2 * time.Second: func() {
			start := time.Now()
			exit = c.Gateways[0].Term(20 * time.Second)
			took = time.Since(start)
		},
	})
	require.Zero(t, exit, "the gateway exits 0 on SIGTERM:\n%s", c.Gateways[0].Logs())
	s.flush(30 * time.Second)
	stored := s.checkStore()
	require.Equal(t, sent, stored)
	refused := 0
	for _, p := range s.pubs {
		for _, err := range p.Record().Errors {
			if strings.Contains(err.Error(), "shutting down") {
				refused++
			}
		}
	}
	connects, resent, dups, _ := s.stats()
	require.Greater(t, connects, int64(len(s.pubs)), "publishers of the stopped gateway reconnected")
	s.checkViewers(30 * time.Second)
	t.Logf("SIGTERM → exit 0 in %.2fs; events %d acked and stored once each; %d shutdown refusals/closes seen, %d resent, %d duplicate acks",
		took.Seconds(), stored, refused, resent, dups)
}
