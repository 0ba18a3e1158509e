package redis_test

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokertest"
	"openvibe.live/backend/shared/broker/redis"
	"openvibe.live/backend/shared/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestConformance(t *testing.T) {
	url := testenv.Redis(t)
	brokertest.Run(t, func(t *testing.T) broker.Broker {
		b, err := redis.Open(t.Context(), url, redis.Options{})
		require.NoError(t, err)
		return b
	})
}

func TestOpenFailsClearly(t *testing.T) {
	t.Parallel()
	port := testenv.FreePort(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err := redis.Open(ctx, "redis://127.0.0.1:"+strconv.Itoa(port)+"/0", redis.Options{})
	require.ErrorContains(t, err, "redis broker: ping 127.0.0.1:"+strconv.Itoa(port))

	_, err = redis.Open(ctx, "http://nope", redis.Options{})
	require.ErrorContains(t, err, "redis broker: parsing URL")
}

// TestRedisRestart kills the Redis server under a live subscription and starts it again on
// the same port: publishing fails during the outage, the subscriber gets a Gap once
// resubscribed and then receives new messages, and a subscription made during the outage
// works too.
func TestRedisRestart(t *testing.T) {
	t.Parallel()
	srv := testenv.StartRedisServer(t)
	reg := prometheus.NewRegistry()
	b, err := redis.Open(t.Context(), srv.URL, redis.Options{HealthInterval: 200 * time.Millisecond, Registerer: reg})
	require.NoError(t, err)
	defer b.Close()

	ch := brokertest.Channel(t, "restart")
	sub, err := b.Subscribe(t.Context(), ch)
	require.NoError(t, err)
	defer sub.Close()
	require.NoError(t, b.Publish(t.Context(), ch, []byte("before")))
	require.Equal(t, "before", brokertest.ReceivePayload(t, sub))

	srv.Kill()
	require.Error(t, b.Publish(t.Context(), ch, []byte("lost")), "publishing to a dead server fails")
	require.Eventually(t, func() bool { return b.Ping(t.Context()) != nil }, 5*time.Second, 20*time.Millisecond)
	require.InDelta(t, 0, testenv.MetricValue(t, reg, "openvibe_broker_connected"), 0)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	during, err := b.Subscribe(ctx, ch) // must not hang while Redis is down
	require.NoError(t, err)
	defer during.Close()

	srv.Start()
	for _, s := range []broker.Subscription{sub, during} {
		m := brokertest.Receive(t, s)
		require.True(t, m.Gap, "the first delivery after the outage is a Gap, got %q", m.Payload)
	}
	require.Eventually(t, func() bool { return b.Ping(t.Context()) == nil }, 5*time.Second, 20*time.Millisecond)
	require.NoError(t, b.Publish(t.Context(), ch, []byte("after")))
	require.Equal(t, "after", brokertest.ReceivePayload(t, sub))
	require.Equal(t, "after", brokertest.ReceivePayload(t, during))
	brokertest.ExpectNothing(t, sub, 100*time.Millisecond)
	require.InDelta(t, 1, testenv.MetricValue(t, reg, "openvibe_broker_connected"), 0)
	require.InDelta(t, 1, testenv.MetricValue(t, reg, "openvibe_broker_reconnects_total"), 0)
	require.InDelta(t, 2, testenv.MetricValue(t, reg, "openvibe_broker_gaps_total"), 0)
	require.InDelta(t, 2, testenv.MetricValue(t, reg, "openvibe_broker_subscriptions"), 0)
}

// TestNewBeforeRedisIsUp: New does not wait for Redis; a subscriber registered
// before the connection is up gets a Gap once it is, then messages.
func TestNewBeforeRedisIsUp(t *testing.T) {
	t.Parallel()
	srv := testenv.NewRedisServer(t)
	client := newClient(srv.Port)
	defer client.Close()
	b := redis.New(client, redis.Options{})
	defer b.Close()

	ch := brokertest.Channel(t, "early")
	sub, err := b.Subscribe(t.Context(), ch)
	require.NoError(t, err)
	defer sub.Close()
	require.Error(t, b.Ping(t.Context()))

	srv.Start()
	require.True(t, brokertest.Receive(t, sub).Gap)
	require.NoError(t, b.Publish(t.Context(), ch, []byte("hi")))
	require.Equal(t, "hi", brokertest.ReceivePayload(t, sub))
}

func TestManyChannelsShareOneConnection(t *testing.T) {
	t.Parallel()
	srv := testenv.StartRedisServer(t)
	b, err := redis.Open(t.Context(), srv.URL, redis.Options{})
	require.NoError(t, err)
	defer b.Close()

	var subs []broker.Subscription
	for i := range 20 {
		s, err := b.Subscribe(t.Context(), brokertest.Channel(t, strconv.Itoa(i)))
		require.NoError(t, err)
		defer s.Close()
		subs = append(subs, s)
	}
	out, err := exec.Command("redis-cli", "-p", strconv.Itoa(srv.Port), "client", "list", "type", "pubsub").Output()
	require.NoError(t, err)
	require.Equal(t, 1, countLines(out), "one pub/sub connection for all channels:\n%s", out)

	for _, s := range subs[:10] {
		require.NoError(t, s.Close())
	}
	require.Eventually(t, func() bool {
		out, err = exec.Command("redis-cli", "-p", strconv.Itoa(srv.Port), "pubsub", "channels", "brokertest.*").Output()
		return err == nil && countLines(out) == 10
	}, 5*time.Second, 20*time.Millisecond, "closing the last local subscriber unsubscribes: %s", out)
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

func BenchmarkFanOut(b *testing.B) {
	url := testenv.Redis(b)
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			br, err := redis.Open(b.Context(), url, redis.Options{})
			require.NoError(b, err)
			defer br.Close()
			brokertest.BenchmarkFanOut(b, br, n)
		})
	}
}
