package api_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/testenv"
)

type feedResp struct {
	ManagedStream struct {
		ID    int64  `json:"id"`
		Slug  string `json:"slug"`
		Title string `json:"title"`
	} `json:"managed_stream"`
	LiveStreamID *int64           `json:"live_stream_id"`
	Settings     map[string]any   `json:"settings"`
	Publisher    map[string]any   `json:"publisher"`
	Events       []map[string]any `json:"events"`
}

func eventIDs(evs []map[string]any) []string {
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev["eventId"].(string))
	}
	return out
}

func TestPublicFeed(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("Alice")
		bob := e.register("bob")
		slot := e.createSlot(alice.Token, "camp-code")
		bobSlot := e.createSlot(bob.Token, "bobs-slot")
		feed := "/api/vibe-coding/channel/alice/camp-code/events"

		t.Run("an empty slot", func(t *testing.T) {
			var f feedResp
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Equal(t, slot.ID, f.ManagedStream.ID)
			require.Equal(t, "camp-code", f.ManagedStream.Slug)
			require.Nil(t, f.LiveStreamID)
			require.Nil(t, f.Publisher)
			require.NotNil(t, f.Events)
			require.Empty(t, f.Events)
			require.EqualValues(t, 1, f.Settings["enabled"])
		})

		e.storeEvents(slot.ID,
			seedEvent{id: "ev-prompt", typ: "prompt", payload: map[string]any{"prompt": map[string]any{"text": "make it faster"}}},
			seedEvent{id: "ev-thinking", typ: "thinking", payload: map[string]any{"thinking": map[string]any{"text": "secret plan"}}},
			seedEvent{id: "ev-private", typ: "response", visibility: "streamer"},
			seedEvent{id: "ev-withheld", typ: "response", withheld: true},
			seedEvent{id: "ev-tool", typ: "tool.call", payload: map[string]any{"tool": map[string]any{"name": "grep", "phase": "end", "argumentsPreview": "-r password ."}}},
			seedEvent{id: "ev-file", typ: "file.change", payload: map[string]any{"file": map[string]any{"name": "upload.go", "relativePath": "src/net/upload.go", "operation": "edit", "snippet": "x := 1"}}},
			seedEvent{id: "ev-response", typ: "response", payload: map[string]any{"response": map[string]any{"text": "done", "truncated": false}}},
		)

		t.Run("visible events only, projected, oldest first", func(t *testing.T) {
			var f feedResp
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Equal(t, []string{"ev-prompt", "ev-tool", "ev-file", "ev-response"}, eventIDs(f.Events),
				"thinking (show_thinking=0), streamer-only and withheld events are not in the feed")
			seqs := []float64{}
			for _, ev := range f.Events {
				seqs = append(seqs, ev["seq"].(float64))
			}
			require.IsIncreasing(t, seqs)
			tool := f.Events[1]["tool"].(map[string]any)
			require.Equal(t, "grep", tool["name"])
			require.NotContains(t, tool, "argumentsPreview", "show_tool_arguments=0")
			file := f.Events[2]["file"].(map[string]any)
			require.Equal(t, "upload.go", file["relativePath"], "redact_file_paths=1 keeps the file name only")
			require.Nil(t, file["snippet"], "show_file_snippets=0")

			require.Equal(t, "GitHub Copilot", f.Publisher["integrationLabel"])
			require.NotContains(t, f.Publisher, "machineName")
			require.NotContains(t, f.Publisher, "workspaceName")
			require.NotContains(t, f.Publisher, "clientVersion")
		})

		t.Run("username and slot lookups", func(t *testing.T) {
			for _, path := range []string{
				"/api/vibe-coding/channel/ALICE/camp-code/events",
				"/api/vibe-coding/channel/@alice/camp-code/events",
				"/api/vibe-coding/channel/alice/CAMP-CODE/events",
				fmt.Sprintf("/api/vibe-coding/channel/alice/%d/events", slot.ID),
			} {
				var f feedResp
				e.anon().expect(http.MethodGet, path, nil, http.StatusOK, &f)
				require.Equal(t, slot.ID, f.ManagedStream.ID, path)
			}
			for path, msg := range map[string]string{
				"/api/vibe-coding/channel/nobody/camp-code/events":                  "Channel not found",
				"/api/vibe-coding/channel/a!ice/camp-code/events":                   "Channel not found",
				"/api/vibe-coding/channel/alice/nope/events":                        "Managed stream not found",
				fmt.Sprintf("/api/vibe-coding/channel/alice/%d/events", bobSlot.ID): "Managed stream not found",
				"/api/vibe-coding/channel/alice/99999999999999999999999999/events":  "Managed stream not found",
			} {
				r := e.anon().do(http.MethodGet, path, nil)
				require.Equal(t, http.StatusNotFound, r.status, path)
				require.Equal(t, msg, r.errorMessage(t), path)
			}
		})

		t.Run("ETag and 304", func(t *testing.T) {
			r := e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, nil)
			etag := r.header.Get("ETag")
			require.NotEmpty(t, etag)
			require.Equal(t, "public, max-age=1", r.header.Get("Cache-Control"))
			nm := e.anon().with("If-None-Match", etag).do(http.MethodGet, feed, nil)
			require.Equal(t, http.StatusNotModified, nm.status)
			require.Empty(t, nm.body)
			e.storeEvents(slot.ID, seedEvent{id: "ev-later", typ: "prompt"})
			changed := e.anon().with("If-None-Match", etag).do(http.MethodGet, feed, nil)
			require.Equal(t, http.StatusOK, changed.status, "a new event changes the ETag")
			require.NotEqual(t, etag, changed.header.Get("ETag"))
		})

		t.Run("limit clamps", func(t *testing.T) {
			var f feedResp
			e.anon().expect(http.MethodGet, feed+"?limit=2", nil, http.StatusOK, &f)
			require.Equal(t, []string{"ev-response", "ev-later"}, eventIDs(f.Events), "the newest events")
			e.anon().expect(http.MethodGet, feed+"?limit=0", nil, http.StatusOK, &f)
			require.Len(t, f.Events, 1)
			e.anon().expect(http.MethodGet, feed+"?limit=-5", nil, http.StatusOK, &f)
			require.Len(t, f.Events, 1)
			require.Equal(t, http.StatusBadRequest, e.anon().do(http.MethodGet, feed+"?limit=abc", nil).status)

			many := make([]seedEvent, 0, 120)
			for i := range 120 {
				many = append(many, seedEvent{id: fmt.Sprintf("bulk-%03d", i), typ: "response"})
			}
			e.storeEvents(slot.ID, many...)
			e.anon().expect(http.MethodGet, feed+"?limit=1000", nil, http.StatusOK, &f)
			require.Len(t, f.Events, 100)
			require.Equal(t, "bulk-119", f.Events[99]["eventId"])
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Len(t, f.Events, 18, "default limit")
		})

		t.Run("the delay window hides an event until it ends", func(t *testing.T) {
			e.as(alice.Token).expect(http.MethodPut, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/settings",
				map[string]any{"settings": map[string]any{"delay_ms": 3000}}, http.StatusOK, nil)
			e.clock.Advance(time.Minute)
			e.storeEvents(slot.ID, seedEvent{id: "ev-delayed", typ: "prompt"})
			last := func() string {
				var f feedResp
				e.anon().expect(http.MethodGet, feed+"?limit=1", nil, http.StatusOK, &f)
				return f.Events[0]["eventId"].(string)
			}
			require.Equal(t, "bulk-119", last())
			e.clock.Advance(2999 * time.Millisecond)
			require.Equal(t, "bulk-119", last(), "still inside the delay window")
			e.clock.Advance(time.Millisecond)
			require.Equal(t, "ev-delayed", last(), "the window has ended")
		})

		t.Run("settings apply to the feed: thinking shown, then paused shows nothing", func(t *testing.T) {
			put := func(s map[string]any) {
				e.as(alice.Token).expect(http.MethodPut, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/settings", map[string]any{"settings": s}, http.StatusOK, nil)
			}
			put(map[string]any{"delay_ms": 0})
			e.storeEvents(slot.ID, seedEvent{id: "ev-thinking-2", typ: "thinking", payload: map[string]any{"thinking": map[string]any{"text": "hmm"}}})
			var f feedResp
			e.anon().expect(http.MethodGet, feed+"?limit=3", nil, http.StatusOK, &f)
			require.NotContains(t, eventIDs(f.Events), "ev-thinking-2")
			put(map[string]any{"show_thinking": 1})
			e.anon().expect(http.MethodGet, feed+"?limit=3", nil, http.StatusOK, &f)
			require.Equal(t, "ev-thinking-2", f.Events[2]["eventId"], "settings apply to stored events too")
			put(map[string]any{"paused": 1})
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Empty(t, f.Events)
			put(map[string]any{"paused": 0, "enabled": 0})
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Empty(t, f.Events)
			put(map[string]any{"enabled": 1})
		})
	})
}

// gatedFeedStore holds every VibeFeed until release is closed, and counts the calls.
type gatedFeedStore struct {
	store.Store
	calls   atomic.Int32
	release chan struct{}
}

func (g *gatedFeedStore) VibeFeed(ctx context.Context, q store.FeedQuery) ([]store.VibeEvent, error) {
	g.calls.Add(1)
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Store.VibeFeed(ctx, q)
}

// TestPublicFeedSharedByConcurrentRequests: requests for the same feed (however the channel
// and slot are spelled) that arrive while it is being computed share that computation: one
// set of store reads, the same body for all. A request after it computes afresh.
func TestPublicFeedSharedByConcurrentRequests(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		gate := &gatedFeedStore{release: make(chan struct{})}
		e := newEnv(func(s *envSetup) {
			s.wrapStore = func(st store.Store) store.Store { gate.Store = st; return gate }
		})
		alice := e.register("alice")
		slot := e.createSlot(alice.Token, "camp-code")
		e.clock.Advance(-time.Minute)
		e.storeEvents(slot.ID, seedEvent{id: "ev-1", typ: "response", payload: map[string]any{"response": map[string]any{"text": "done"}}})
		e.clock.Advance(time.Minute)

		const n = 20
		paths := []string{"/api/vibe-coding/channel/alice/camp-code/events", "/api/vibe-coding/channel/@Alice/CAMP-CODE/events"}
		results := make([]response, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { results[i] = e.anon().expect(http.MethodGet, paths[i%2], nil, http.StatusOK, nil) })
		}
		var once sync.Once
		open := func() { once.Do(func() { close(gate.release) }) }
		defer func() { open(); wg.Wait() }() // never leave requests hanging, even on failure
		require.Eventually(t, func() bool {
			return testenv.MetricValue(t, e.reg, "openvibe_http_requests_in_flight") == n && gate.calls.Load() > 0
		}, 10*time.Second, 5*time.Millisecond, "all requests are being served and one reached the store")
		require.EqualValues(t, 1, gate.calls.Load(), "one computation reached the store")
		open()
		wg.Wait()

		var f feedResp
		results[0].json(t, &f)
		require.Equal(t, []string{"ev-1"}, eventIDs(f.Events))
		for _, r := range results[1:] {
			require.Equal(t, string(results[0].body), string(r.body))
			require.Equal(t, results[0].header.Get("ETag"), r.header.Get("ETag"))
		}
		// A request that reached the handler only after the release computed on its own; the
		// rest shared the first computation.
		shared := testenv.MetricValue(t, e.reg, "openvibe_api_feed_shared_total")
		require.EqualValues(t, n, float64(gate.calls.Load())+shared)
		require.GreaterOrEqual(t, shared, float64(n/2))

		before := gate.calls.Load()
		e.anon().expect(http.MethodGet, paths[0], nil, http.StatusOK, nil)
		require.Equal(t, before+1, gate.calls.Load(), "nothing is kept once the computation is over")
	})
}
