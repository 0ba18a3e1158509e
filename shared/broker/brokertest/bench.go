package brokertest

import (
	"sync"
	"testing"
	"time"

	"openvibe.live/backend/shared/broker"
)

// BenchmarkFanOut measures publishing 512-byte payloads on one channel read by subscribers
// subscribers, and reports how many deliveries were dropped (Gap) per publish.
func BenchmarkFanOut(b *testing.B, br broker.Broker, subscribers int) {
	ch := Channel(b, "bench")
	payload := make([]byte, 512)
	var wg sync.WaitGroup
	var mu sync.Mutex
	received, gaps := 0, 0
	stop := make(chan struct{})
	for range subscribers {
		sub, err := br.Subscribe(b.Context(), ch)
		if err != nil {
			b.Fatal(err)
		}
		defer sub.Close()
		wg.Go(func() {
			n, g := 0, 0
			defer func() { mu.Lock(); received += n; gaps += g; mu.Unlock() }()
			for {
				select {
				case m, ok := <-sub.Messages():
					if !ok {
						return
					}
					if m.Gap {
						g++
					} else {
						n++
					}
				case <-stop:
					return
				}
			}
		})
	}
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if err := br.Publish(b.Context(), ch, payload); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	time.Sleep(100 * time.Millisecond) // let the last deliveries land
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(received)/float64(b.N*subscribers), "delivered/msg")
	b.ReportMetric(float64(gaps)/float64(b.N), "gaps/op")
}
