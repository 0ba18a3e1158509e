package room

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/vibe"
)

// BenchmarkFanout measures one event's trip through a room: decode, project and encode once,
// then queue the same bytes to every viewer.
func BenchmarkFanout(b *testing.B) {
	for _, n := range []int{1, 1000, 15000} {
		b.Run(fmt.Sprintf("viewers=%d", n), func(b *testing.B) {
			st := newFakeStore(vibe.DefaultSettings())
			m := NewMetrics(prometheus.NewRegistry())
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			h := NewHub(HubDeps{Store: st, Broker: newFakeBroker(), Marker: NewMarker(st, time.Hour, log, m), Metrics: m, Logger: log, Now: time.Now, Config: testConfig()})
			defer h.Close()
			r := newRoom(h, Slot{ID: 7, Slug: "camp-code"})
			r.settings = vibe.DefaultSettings()
			viewers := make([]*Viewer, n)
			for i := range viewers {
				viewers[i] = NewViewer(1<<30, 0, "")
				r.viewerIndex[viewers[i]] = i
				r.viewers = append(r.viewers, viewers[i])
			}
			ev := slotbus.FromStoreEvent(st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now()))
			drained, cancel := context.WithCancel(context.Background())
			cancel()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				ev.Seq = int64(i + 1)
				r.deliver(pendingEvent{ev: ev, due: time.Now()}, time.Now(), true)
				if i%64 == 63 {
					for _, v := range viewers {
						v.Next(drained, nil)
					}
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}

// BenchmarkResume measures a viewer joining with ?since=0 a room holding 1 000 delivered
// events: the replay of all of them, with the settings as they were when the events went
// out, and right after a settings change (every event projected again).
func BenchmarkResume(b *testing.B) {
	for _, changed := range []bool{false, true} {
		b.Run(fmt.Sprintf("settings_changed=%t", changed), func(b *testing.B) {
			st := newFakeStore(vibe.DefaultSettings())
			m := NewMetrics(prometheus.NewRegistry())
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			cfg := testConfig()
			cfg.ResumeLimit, cfg.MaxReplayBytes = 1000, 1<<30
			h := NewHub(HubDeps{Store: st, Broker: newFakeBroker(), Marker: NewMarker(st, time.Hour, log, m), Metrics: m, Logger: log, Now: time.Now, Config: cfg})
			defer h.Close()
			r := newRoom(h, Slot{ID: 7, Slug: "camp-code"})
			r.settings, r.ready = vibe.DefaultSettings(), true
			for range 1000 {
				ev := slotbus.FromStoreEvent(st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now().Add(-time.Minute)))
				r.next = ev.Seq + 1
				r.deliver(pendingEvent{ev: ev, due: time.Now()}, time.Now(), true)
			}
			titles := [2]vibe.Settings{vibe.DefaultSettings(), vibe.DefaultSettings()}
			titles[1].WidgetTitle = "Late night"
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if changed {
					r.applySettings(titles[i%2], nil)
				}
				v := NewViewer(1<<30, 0, "")
				since := int64(0)
				r.join(ctx, joinRequest{v: v, since: &since})
				r.leave(v)
			}
		})
	}
}
