package storetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// BenchmarkInsertVibeEvents measures durable InsertVibeEvents throughput for batch sizes
// 1, 50 and 200, with one writer and with 4 concurrent writers (as gateway replicas or
// connection batchers would), each writer on its own slot plus one slot shared by all.
// It reports events/s. newStore must return a fresh, migrated store.
func BenchmarkInsertVibeEvents(b *testing.B, newStore func(tb testing.TB) store.Store) {
	for _, batch := range []int{1, 50, 200} {
		for _, writers := range []int{1, 4} {
			b.Run(fmt.Sprintf("batch=%d/writers=%d", batch, writers), func(b *testing.B) {
				benchInsert(b, newStore(b), batch, writers)
			})
		}
	}
}

// benchPayload is a typical sanitized event (~400 bytes of JSON).
var benchPayload = json.RawMessage(fmt.Sprintf(
	`{"schemaVersion":1,"type":"tool_call","source":"claude-code","summary":"Edited internal/server.go",`+
		`"tool":{"name":"Edit","status":"completed"},"file":{"path":"internal/server.go","language":"go"},`+
		`"text":%q}`, strings.Repeat("refactor the handler to stream results ", 6)))

func benchInsert(b *testing.B, s store.Store, batch, writers int) {
	ctx := b.Context()
	u, err := s.CreateUser(ctx, "bench", "x")
	if err != nil {
		b.Fatal(err)
	}
	type target struct{ slot, session int64 }
	mk := func(slug string) target {
		m, err := s.CreateManagedStream(ctx, u.ID, slug, slug, nil)
		if err != nil {
			b.Fatal(err)
		}
		v, err := s.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID, SessionKey: "k"})
		if err != nil {
			b.Fatal(err)
		}
		return target{m.ID, v.ID}
	}
	shared := mk("shared")
	own := make([]target, writers)
	for i := range own {
		own[i] = mk(fmt.Sprintf("w%d", i))
	}
	var counter, next atomic.Int64
	run := func(own target) error {
		events := make([]store.NewVibeEvent, batch)
		now := time.Now()
		for i := range events {
			t := own
			if i%4 == 3 { // a quarter of the events go to the slot all writers share
				t = shared
			}
			events[i] = store.NewVibeEvent{ManagedStreamID: t.slot, SessionID: t.session,
				EventID: fmt.Sprintf("ev-%d", counter.Add(1)), EventType: "tool_call",
				Visibility: vibe.VisibilityPublic, Payload: benchPayload, ReceivedAt: now}
		}
		_, err := s.InsertVibeEvents(ctx, events)
		return err
	}

	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				if err := run(own[w]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(int64(b.N)*int64(batch))/elapsed.Seconds(), "events/s")
}
