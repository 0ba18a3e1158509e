package api_test

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"openvibe.live/backend/shared/testenv"
)

// benchFeed sets up a slot with 500 stored events of every type (SQLite) and returns the
// public feed URL.
func benchFeed(b *testing.B) (*env, string) {
	b.Helper()
	e := newEnv(b, filepath.Join(b.TempDir(), "bench.db"), "")
	alice := e.register("alice")
	slot := e.createSlot(alice.Token, "camp-code")
	types := []string{"prompt", "thinking", "tool.call", "file.change", "response"}
	for batch := range 10 {
		evs := make([]seedEvent, 0, 50)
		for i := range 50 {
			n := batch*50 + i
			evs = append(evs, seedEvent{id: fmt.Sprintf("ev-%04d", n), typ: types[n%len(types)],
				payload: map[string]any{"response": map[string]any{"text": "Refactored the publish server to sanitize events before viewer fanout."}}})
		}
		e.storeEvents(slot.ID, evs...)
	}
	e.clock.Advance(time.Minute)
	return e, e.url + "/api/vibe-coding/channel/alice/camp-code/events?limit=18"
}

// BenchmarkPublicFeed measures a full feed request over HTTP: lookup, store query, projection,
// encoding and ETag.
func BenchmarkPublicFeed(b *testing.B) {
	_, url := benchFeed(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			getFeed(b, http.DefaultClient, url)
		}
	})
}

// getFeed fetches the feed and requires a 200.
func getFeed(b *testing.B, client *http.Client, url string) {
	res, err := client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.Fatalf("status %d", res.StatusCode)
	}
}

// BenchmarkPublicFeedCrowd is a crowd opening the same channel: 64 clients per CPU request
// the feed at once. It reports how many requests shared a computation already running.
func BenchmarkPublicFeedCrowd(b *testing.B) {
	e, url := benchFeed(b)
	tr := &http.Transport{MaxIdleConnsPerHost: 256}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	b.ReportAllocs()
	b.SetParallelism(64)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			getFeed(b, client, url)
		}
	})
	b.ReportMetric(testenv.MetricValue(b, e.reg, "openvibe_api_feed_shared_total")/float64(b.N), "shared/op")
}

// BenchmarkPublicFeedNotModified measures a revalidation that ends in 304.
func BenchmarkPublicFeedNotModified(b *testing.B) {
	_, url := benchFeed(b)
	res, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	etag := res.Header.Get("ETag")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, url, nil)
			req.Header.Set("If-None-Match", etag)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNotModified {
				b.Fatalf("status %d", res.StatusCode)
			}
		}
	})
}
