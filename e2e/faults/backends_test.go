package faults

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

// TestRedisOutage: Redis is killed for 10 s during a stream and restarted on the same port.
// Viewers on both chat-socket replicas end up with every event, in order, without
// duplicates; the services report not-ready while Redis is down and ready again after.
func TestRedisOutage(t *testing.T) {
	c := cluster.Start(t, bins, cluster.Options{Gateways: 2, Chats: 2, APIs: 1, GatewayEnv: gatewayEnv, ChatEnv: chatEnv})
	owner := c.NewOwner("redisdown", 2)
	s := newStream(t, c, owner, 3)
	s.watch(0, cluster.ViewerOptions{})
	s.watch(1, cluster.ViewerOptions{})

	var stoppedAt, restartedAt time.Time
	var notReady []string
	sent := s.publish(16*time.Second, 100*time.Millisecond, map[time.Duration]func(){
		2 * time.Second: func() { c.Redis.Kill(); stoppedAt = time.Now() },
		7 * time.Second: func() {
			for _, p := range c.All() {
				if p.Ready() == http.StatusServiceUnavailable {
					notReady = append(notReady, p.Name)
				}
				require.Equal(t, http.StatusOK, p.Healthy(), "%s stays up", p.Name)
			}
		},
		12 * time.Second: func() { c.Redis.Start(); restartedAt = time.Now() },
	})
	require.Len(t, notReady, len(c.All()), "every replica reports not-ready without Redis: %v", notReady)
	readyAfter := waitAllReady(t, c, 30*time.Second)
	s.flush(30 * time.Second)
	stored := s.checkStore()
	require.Equal(t, sent, stored)
	start := time.Now()
	s.checkViewers(30 * time.Second)
	t.Logf("redis down %.1fs; events %d stored once each; replicas ready %.2fs after restart; viewers complete %.2fs after the last ack wait",
		restartedAt.Sub(stoppedAt).Seconds(), stored, readyAfter.Seconds(), time.Since(start).Seconds())
}

// waitAllReady waits until every replica answers /readyz 200 and returns how long it took.
func waitAllReady(t *testing.T, c *cluster.Cluster, timeout time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for _, p := range c.All() {
		p.WaitReady(timeout - time.Since(start))
	}
	return time.Since(start)
}

// TestPostgresOutage: PostgreSQL is stopped (immediate mode: connections cut) for 10 s
// while publishers send to one gateway. Meanwhile the gateway answers events with errors,
// never with acks; chat-socket and api stay up and report not-ready. After PostgreSQL is
// back everything recovers on its own, every event is acked and stored exactly once, and
// viewers get every event.
func TestPostgresOutage(t *testing.T) {
	c := cluster.Start(t, bins, cluster.Options{Gateways: 1, Chats: 2, APIs: 1, GatewayEnv: gatewayEnv, ChatEnv: chatEnv})
	owner := c.NewOwner("pgdown", 2)
	s := newStream(t, c, owner, 3)
	s.watch(0, cluster.ViewerOptions{})
	s.watch(1, cluster.ViewerOptions{})

	var stoppedAt, restartAt, restartedAt time.Time
	var mu sync.Mutex
	probes := map[string][]int{} // replica → /readyz statuses while down
	stopProbe := make(chan struct{})
	var probeWG sync.WaitGroup
	sent := s.publish(18*time.Second, 100*time.Millisecond, map[time.Duration]func(){
		2 * time.Second: func() {
			c.PG.Stop()
			stoppedAt = time.Now()
			probeWG.Go(func() {
				for {
					select {
					case <-stopProbe:
						return
					case <-time.After(500 * time.Millisecond):
					}
					for _, p := range c.All() {
						code := p.Ready()
						mu.Lock()
						probes[p.Name] = append(probes[p.Name], code)
						mu.Unlock()
						require.Equal(t, http.StatusOK, p.Healthy(), "%s stays up", p.Name)
					}
				}
			})
		},
		12 * time.Second: func() {
			close(stopProbe)
			restartAt = time.Now()
			c.PG.Start()
			restartedAt = time.Now()
			probeWG.Wait()
		},
	})
	for _, p := range c.All() {
		codes := probes[p.Name]
		require.NotEmpty(t, codes)
		// The first probe may race the outage's detection; after it, always 503.
		for _, code := range codes[1:] {
			require.Equal(t, http.StatusServiceUnavailable, code, "%s /readyz while PostgreSQL is down: %v", p.Name, codes)
		}
	}
	readyAfter := waitAllReady(t, c, 30*time.Second)
	s.flush(60 * time.Second)
	stored := s.checkStore()
	require.Equal(t, sent, stored)

	// No ack for an event first sent during the outage arrived before PostgreSQL was back,
	// and the gateway said why it refused.
	var storeErrors, acksWhileDown int
	var firstAckAfter time.Duration = -1
	for _, p := range s.pubs {
		r := p.Record()
		for i, err := range r.Errors {
			if strings.Contains(err.Error(), "could not be stored") && r.ErrorAt[i].After(stoppedAt) {
				storeErrors++
			}
		}
		for _, at := range r.AckAt {
			// Acks already queued when PostgreSQL went down may still arrive just after; and
			// PostgreSQL accepts connections a little before pg_ctl's wait sees it, so only
			// acks before the start command count.
			if at.After(stoppedAt.Add(time.Second)) && at.Before(restartAt) {
				acksWhileDown++
			}
			if at.After(restartedAt) && (firstAckAfter < 0 || at.Sub(restartedAt) < firstAckAfter) {
				firstAckAfter = at.Sub(restartedAt)
			}
		}
	}
	require.Zero(t, acksWhileDown, "the gateway acked events while PostgreSQL was down")
	require.Positive(t, storeErrors, "the gateway answered events with errors during the outage")
	s.checkViewers(30 * time.Second)
	t.Logf("postgres stopped %.1fs, then accepting connections %.1fs after its start command; events %d acked and stored once each; %d store errors answered; first ack %.2fs and all replicas ready %.2fs after restart",
		restartAt.Sub(stoppedAt).Seconds(), restartedAt.Sub(restartAt).Seconds(), stored, storeErrors, firstAckAfter.Seconds(), readyAfter.Seconds())
}
