package brokers_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/broker/brokertest"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/broker/redis"
	"openvibe.live/backend/shared/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func roundTrip(t *testing.T, b broker.Broker) {
	t.Helper()
	ch := brokertest.Channel(t, "rt")
	sub, err := b.Subscribe(t.Context(), ch)
	require.NoError(t, err)
	defer sub.Close()
	require.NoError(t, b.Publish(t.Context(), ch, []byte("x")))
	require.Equal(t, "x", brokertest.ReceivePayload(t, sub))
	require.NoError(t, b.Ping(t.Context()))
}

func TestOpenMemory(t *testing.T) {
	t.Parallel()
	b, err := brokers.Open(t.Context(), "", nil)
	require.NoError(t, err)
	defer b.Close()
	require.IsType(t, &memory.Broker{}, b)
	roundTrip(t, b)
}

func TestOpenRedis(t *testing.T) {
	t.Parallel()
	b, err := brokers.Open(t.Context(), testenv.Redis(t), nil)
	require.NoError(t, err)
	defer b.Close()
	require.IsType(t, &redis.Broker{}, b)
	roundTrip(t, b)
}

func TestOpenUnreachableRedis(t *testing.T) {
	t.Parallel()
	port := testenv.FreePort(t) // reserved, nothing listens on it

	start := time.Now()
	_, err := brokers.Open(t.Context(), "redis://:hunter2@127.0.0.1:"+strconv.Itoa(port)+"/0", nil)
	require.ErrorContains(t, err, "redis broker: ping 127.0.0.1:"+strconv.Itoa(port))
	require.NotContains(t, err.Error(), "hunter2")
	require.Less(t, time.Since(start), brokers.OpenTimeout+time.Second)
}

func TestOpenWithRegistersMetrics(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"memory", func(*testing.T) string { return "" }},
		{"redis", func(t *testing.T) string { return testenv.Redis(t) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			reg := prometheus.NewRegistry()
			b, err := brokers.OpenWith(t.Context(), url, brokers.Options{Registerer: reg})
			require.NoError(t, err)
			defer b.Close()
			sub, err := b.Subscribe(t.Context(), brokertest.Channel(t, "m"))
			require.NoError(t, err)
			defer sub.Close()
			require.InDelta(t, 1, testenv.MetricValue(t, reg, "openvibe_broker_subscriptions"), 0)
		})
	}
}
