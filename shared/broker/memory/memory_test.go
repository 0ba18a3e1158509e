package memory_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokertest"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestConformance(t *testing.T) {
	brokertest.Run(t, func(*testing.T) broker.Broker { return memory.New(memory.Options{}) })
}

func TestSmallBufferGap(t *testing.T) {
	t.Parallel()
	b := memory.New(memory.Options{BufferSize: 2})
	defer b.Close()
	ch := brokertest.Channel(t, "small")
	sub, err := b.Subscribe(t.Context(), ch)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for _, p := range []string{"1", "2", "3", "4", "5", "6"} {
		if err := b.Publish(t.Context(), ch, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	// The queue holds two and the delivery goroutine may hold one more, so which messages
	// survive depends on timing; what must hold is that they arrive in order and that every
	// hole in the sequence is announced by exactly one Gap, before the next message.
	var got []string
	for {
		select {
		case m := <-sub.Messages():
			if m.Gap {
				got = append(got, "gap")
			} else {
				got = append(got, string(m.Payload))
			}
			continue
		case <-time.After(50 * time.Millisecond):
		}
		break
	}
	if len(got) < 3 || got[0] != "1" {
		t.Fatalf("deliveries: %v", got)
	}
	prev, gaps := 0, 0
	for _, g := range got {
		if g == "gap" {
			gaps++
			continue
		}
		n := int(g[0] - '0')
		if n <= prev || (n != prev+1 && gaps != 1) {
			t.Fatalf("deliveries: %v", got)
		}
		prev = n
	}
	if gaps != 1 || prev == 6 && len(got) == 7 {
		t.Fatalf("deliveries: %v (want exactly one gap and some loss)", got)
	}
	if err := b.Publish(t.Context(), ch, []byte("7")); err != nil {
		t.Fatal(err)
	}
	if p := brokertest.ReceivePayload(t, sub); p != "7" {
		t.Fatalf("after the gap: %q", p)
	}
}

func BenchmarkFanOut(b *testing.B) {
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			br := memory.New(memory.Options{})
			defer br.Close()
			brokertest.BenchmarkFanOut(b, br, n)
		})
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	b := memory.New(memory.Options{BufferSize: 1, Registerer: reg})
	defer b.Close()
	_ = memory.New(memory.Options{Registerer: reg}) // a second broker on the registry is fine
	ch := brokertest.Channel(t, "metrics")
	sub, err := b.Subscribe(t.Context(), ch)
	require.NoError(t, err)
	require.InDelta(t, 1, testenv.MetricValue(t, reg, "openvibe_broker_subscriptions"), 0)
	for range 10 {
		require.NoError(t, b.Publish(t.Context(), ch, []byte("x")))
	}
	for !brokertest.Receive(t, sub).Gap {
	}
	dropped := testenv.MetricValue(t, reg, "openvibe_broker_dropped_total")
	require.GreaterOrEqual(t, dropped, 7.0, "at most the queue and the one in hand survive")
	require.InDelta(t, 1, testenv.MetricValue(t, reg, "openvibe_broker_gaps_total"), 0)
	require.NoError(t, sub.Close())
	require.InDelta(t, 0, testenv.MetricValue(t, reg, "openvibe_broker_subscriptions"), 0)
}
