package gateway

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// BenchmarkEventRoundTrip measures one event from the publisher's write to its ack (sanitize,
// batched commit, publish, ack) with 16 connections on 16 slots keeping 16 events each in
// flight. ns/op is wall time per durable event across all connections; the figures in
// docs/benchmarks.md come from cmd/gateway-bench.
func BenchmarkEventRoundTrip(b *testing.B) {
	for _, backend := range []struct {
		name string
		opt  harnessOpt
	}{{"sqlite", func(*harnessOptions) {}}, {"postgres", onPostgres()}} {
		b.Run(backend.name, func(b *testing.B) {
			h := newHarness(b, backend.opt)
			u, tok := h.user("bench", store.ScopeVibeCodingPublish)
			const conns, window = 16, 16
			clients := make([]*pubclient.Client, conns)
			for i := range clients {
				ms := h.slot(u, fmt.Sprintf("slot-%d", i), true, "")
				clients[i] = h.connect(tok, ms, "key")
			}
			ctx := h.ctx()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for i, c := range clients {
				n := b.N / conns
				if i < b.N%conns {
					n++
				}
				wg.Go(func() { pump(b, c, i, n, window) })
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
			_ = ctx
		})
	}
}

// pump sends n events on c keeping up to window unacked, and reads every ack.
func pump(b *testing.B, c *pubclient.Client, id, n, window int) {
	ctx := b.Context()
	credits := make(chan struct{}, window)
	done := make(chan error, 1)
	go func() {
		for range n {
			m, err := c.Next(ctx)
			if err != nil || m.Type != vibe.MsgAck {
				done <- fmt.Errorf("want an ack, got %s: %v", m.Raw, err)
				return
			}
			<-credits
		}
		done <- nil
	}()
	for i := range n {
		credits <- struct{}{}
		if err := c.Send(ctx, eventMsg("key", fmt.Sprintf("c%d-%d", id, i), vibe.TypeResponse, nil)); err != nil {
			b.Error(err)
			return
		}
	}
	require.NoError(b, <-done)
}

// BenchmarkDurablePath measures the store-then-ack path alone: validated, sanitized events
// handed straight to the batch writer (no socket, no parsing, no sanitizer), committed in
// batches, published to the broker and their acks queued. 64 producers on 64 slots keep 32
// events each in flight. It shows what the batching writer sustains on a backend.
func BenchmarkDurablePath(b *testing.B) {
	writers := func(n int) harnessOpt { return withConfig(func(c *Config) { c.Writers = n }) }
	for _, backend := range []struct {
		name string
		opts []harnessOpt
	}{
		{"sqlite/writers=1", []harnessOpt{writers(1)}},
		{"sqlite/writers=4", []harnessOpt{writers(4)}},
		{"postgres/writers=1", []harnessOpt{onPostgres(), writers(1)}},
		{"postgres/writers=4", []harnessOpt{onPostgres(), writers(4)}},
		{"postgres/writers=8", []harnessOpt{onPostgres(), writers(8)}},
	} {
		b.Run(backend.name, func(b *testing.B) {
			h := newHarness(b, backend.opts...)
			u, _ := h.user("bench", store.ScopeVibeCodingPublish)
			const producers, window = 64, 32
			type producer struct {
				c    *conn
				slot *slotState
				sess store.VibeSession
			}
			ps := make([]producer, producers)
			for i := range ps {
				ms := h.slot(u, fmt.Sprintf("slot-%d", i), true, "")
				slot, err := h.gw.slots.join(ms)
				require.NoError(b, err)
				b.Cleanup(func() { h.gw.slots.leave(slot) })
				sess, err := h.st.UpsertVibeSession(b.Context(), store.VibeSession{ManagedStreamID: ms.ID, SessionKey: "k",
					Status: store.SessionActive, StartedAt: time.Now(), LastSeenAt: time.Now()})
				require.NoError(b, err)
				ps[i] = producer{c: &conn{g: h.gw, results: make(chan []byte, window)}, slot: slot, sess: sess}
			}
			payload := []byte(`{"eventId":"x","eventType":"response","visibility":"public","summary":"Refactored the publish server.","response":{"text":"Refactored the publish server to sanitize Copilot events before viewer fanout.","truncated":false}}`)
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for i, p := range ps {
				n := b.N / producers
				if i < b.N%producers {
					n++
				}
				wg.Go(func() {
					credits := make(chan struct{}, window)
					done := make(chan struct{})
					go func() {
						defer close(done)
						for range n {
							<-p.c.results
							<-credits
						}
					}()
					for k := range n {
						credits <- struct{}{}
						j := &job{c: p.c, slot: p.slot, received: time.Now(), row: store.NewVibeEvent{
							ManagedStreamID: p.slot.id, SessionID: p.sess.ID, EventID: fmt.Sprintf("e%d", k),
							EventType: vibe.TypeResponse, Visibility: vibe.VisibilityPublic, Payload: payload, ReceivedAt: time.Now(),
						}}
						if err := h.gw.writer.submit(b.Context(), j); err != nil {
							b.Error(err)
							return
						}
					}
					<-done
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
		})
	}
}
