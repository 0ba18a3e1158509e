package publisher

import (
	"context"
	"testing"
	"time"

	"openvibe.live/backend/shared/vibe"
)

// BenchmarkPublishAcked measures events published and acked per second over one loopback
// connection to the test gateway (unpaced, not sanitized: the client's own overhead).
func BenchmarkPublishAcked(b *testing.B) {
	g := newFakeGateway(b, nil)
	cfg := Config{Server: g.srv.URL, Token: testToken, ManagedStreamID: 7, DisableSanitize: true, Rate: -1,
		QueueSize: 4096, MaxInFlight: 256}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Dial(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	ev := vibe.Event{EventType: vibe.TypeResponse, Response: &vibe.ResponseBody{Text: "refactored the timetable parser"}}
	b.ResetTimer()
	for range b.N {
		if err := c.PublishWait(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
