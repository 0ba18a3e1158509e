package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/slotbus"
)

type historyResp struct {
	Events []struct {
		Seq              int64          `json:"seq"`
		EventID          string         `json:"event_id"`
		EventType        string         `json:"event_type"`
		Withheld         bool           `json:"withheld"`
		WithheldReason   *string        `json:"withheld_reason"`
		RetractedAt      *time.Time     `json:"retracted_at"`
		RetractedBy      map[string]any `json:"retracted_by"`
		FirstDeliveredAt *time.Time     `json:"first_delivered_at"`
		ViewerStatus     string         `json:"viewer_status"`
		Stored           map[string]any `json:"stored"`
		Projected        map[string]any `json:"projected"`
	} `json:"events"`
	NextBefore *int64 `json:"next_before"`
}

func TestOwnerHistory(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		slot := e.createSlot(alice.Token, "camp-code")
		stored := e.storeEvents(slot.ID,
			seedEvent{id: "h-prompt", typ: "prompt", payload: map[string]any{"prompt": map[string]any{"text": "a long prompt text"}}},
			seedEvent{id: "h-thinking", typ: "thinking", payload: map[string]any{"thinking": map[string]any{"text": "hmm"}}},
			seedEvent{id: "h-private", typ: "response", visibility: "streamer"},
			seedEvent{id: "h-withheld", typ: "response", withheld: true},
			seedEvent{id: "h-file", typ: "file.change", payload: map[string]any{"file": map[string]any{"name": "a.go", "relativePath": "pkg/a.go"}}},
		)
		require.NoError(t, e.store.MarkVibeEventsDelivered(t.Context(), slot.ID, []int64{stored[0].Seq}, e.clock.Now()))
		path := "/api/vibe-coding/managed/" + itoa(slot.ID) + "/events"

		t.Run("stored and projected side by side, newest first", func(t *testing.T) {
			var h historyResp
			e.as(alice.Token).expect(http.MethodGet, path, nil, http.StatusOK, &h)
			require.Len(t, h.Events, 5)
			require.Nil(t, h.NextBefore)
			byID := map[string]int{}
			for i, ev := range h.Events {
				byID[ev.EventID] = i
				require.NotNil(t, ev.Stored, ev.EventID)
			}
			require.Equal(t, "h-file", h.Events[0].EventID)
			require.Equal(t, "h-prompt", h.Events[4].EventID)

			file := h.Events[byID["h-file"]]
			require.Equal(t, "pkg/a.go", file.Stored["file"].(map[string]any)["relativePath"])
			require.Equal(t, "a.go", file.Projected["file"].(map[string]any)["relativePath"])
			require.Equal(t, "visible", file.ViewerStatus)

			require.Equal(t, "delivered", h.Events[byID["h-prompt"]].ViewerStatus)
			require.NotNil(t, h.Events[byID["h-prompt"]].FirstDeliveredAt)
			require.Equal(t, "hidden", h.Events[byID["h-thinking"]].ViewerStatus)
			require.Nil(t, h.Events[byID["h-thinking"]].Projected)
			require.Equal(t, "private", h.Events[byID["h-private"]].ViewerStatus)
			require.Equal(t, "withheld", h.Events[byID["h-withheld"]].ViewerStatus)
			require.True(t, h.Events[byID["h-withheld"]].Withheld)
		})

		t.Run("cursor pagination walks the whole history", func(t *testing.T) {
			var seen []string
			next := ""
			for range 10 {
				var h historyResp
				e.as(alice.Token).expect(http.MethodGet, path+"?limit=2"+next, nil, http.StatusOK, &h)
				for _, ev := range h.Events {
					seen = append(seen, ev.EventID)
				}
				if h.NextBefore == nil {
					break
				}
				next = "&before=" + strconv.FormatInt(*h.NextBefore, 10)
			}
			require.Equal(t, []string{"h-file", "h-withheld", "h-private", "h-thinking", "h-prompt"}, seen)
			require.Equal(t, http.StatusBadRequest, e.as(alice.Token).do(http.MethodGet, path+"?before=x", nil).status)
		})

		t.Run("read access: any token scope, never anonymous", func(t *testing.T) {
			read := e.createToken(alice.Token, "read")
			e.as(read.Token).expect(http.MethodGet, path, nil, http.StatusOK, nil)
			e.as(read.Token).expect(http.MethodGet, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/settings", nil, http.StatusOK, nil)
			require.Equal(t, http.StatusUnauthorized, e.anon().do(http.MethodGet, path, nil).status)
		})
	})
}

func TestSettings(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		slot := e.createSlot(alice.Token, "camp-code")
		path := "/api/vibe-coding/managed/" + itoa(slot.ID) + "/settings"
		sub := e.subscribe(slot.ID)

		var got struct {
			ManagedStreamID int64          `json:"managed_stream_id"`
			Settings        map[string]any `json:"settings"`
		}
		e.as(alice.Token).expect(http.MethodGet, path, nil, http.StatusOK, &got)
		require.Equal(t, slot.ID, got.ManagedStreamID)
		require.Len(t, got.Settings, 21, "the seed's 19 fields, redact_personal_data and show_custom_events")
		require.Equal(t, "Vibe Coding", got.Settings["widget_title"])

		t.Run("a partial PUT is applied, normalized and announced", func(t *testing.T) {
			e.as(alice.Token).expect(http.MethodPut, path, map[string]any{"settings": map[string]any{
				"show_thinking": true, "viewer_depth": "DEEP", "max_events": 500, "widget_title": "  Live code  ",
			}}, http.StatusOK, &got)
			require.EqualValues(t, 1, got.Settings["show_thinking"])
			require.Equal(t, "deep", got.Settings["viewer_depth"])
			require.EqualValues(t, 100, got.Settings["max_events"], "clamped")
			require.Equal(t, "Live code", got.Settings["widget_title"])
			require.EqualValues(t, 1, got.Settings["show_prompts"], "untouched fields keep their value")

			msg := nextSlotMessage(t, sub)
			require.Equal(t, slotbus.KindSettings, msg.Kind)
			require.Equal(t, slot.ID, msg.SlotID)
			require.Equal(t, 1, msg.Settings.ShowThinking)
			require.Equal(t, 100, msg.Settings.MaxEvents)

			e.as(alice.Token).expect(http.MethodGet, path, nil, http.StatusOK, &got)
			require.Equal(t, "deep", got.Settings["viewer_depth"], "persisted")
		})

		t.Run("bad settings are a 400 naming each field, and change nothing", func(t *testing.T) {
			cases := []struct {
				name   string
				body   string
				fields []string
			}{
				{"delay_ms not a number", `{"settings":{"delay_ms":"abc"}}`, []string{"delay_ms"}},
				{"several bad fields", `{"settings":{"delay_ms":"abc","viewer_depth":"extreme","show_prompts":7,"colour":"red"}}`, []string{"delay_ms", "viewer_depth", "show_prompts", "colour"}},
				{"settings not an object", `{"settings":[1]}`, []string{""}},
				{"settings missing", `{}`, []string{"settings"}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					r := e.as(alice.Token).do(http.MethodPut, path, tc.body)
					require.Equal(t, http.StatusBadRequest, r.status)
					var body struct {
						Error  string            `json:"error"`
						Fields map[string]string `json:"fields"`
					}
					r.json(t, &body)
					require.NotEmpty(t, body.Error)
					for _, f := range tc.fields {
						require.Contains(t, body.Fields, f)
						if f != "" {
							require.Contains(t, body.Error, f)
						}
					}
				})
			}
			require.Equal(t, http.StatusBadRequest, e.as(alice.Token).do(http.MethodPut, path, `{"settings":{},"extra":1}`).status)
			e.as(alice.Token).expect(http.MethodGet, path, nil, http.StatusOK, &got)
			require.EqualValues(t, 0, got.Settings["delay_ms"])
		})

		t.Run("PUT needs the publish scope", func(t *testing.T) {
			read := e.createToken(alice.Token, "read", "stream")
			r := e.as(read.Token).do(http.MethodPut, path, map[string]any{"settings": map[string]any{"paused": 1}})
			require.Equal(t, http.StatusForbidden, r.status)
			require.Equal(t, "API token requires vibe_coding_publish scope", r.errorMessage(t))
			pub := e.createToken(alice.Token, "vibe_coding_publish")
			e.as(pub.Token).expect(http.MethodPut, path, map[string]any{"settings": map[string]any{"paused": 1}}, http.StatusOK, &got)
			require.EqualValues(t, 1, got.Settings["paused"])
		})

		t.Run("a cross-site write carried by the cookie alone is refused", func(t *testing.T) {
			c := e.anon().with("Cookie", auth.CookieName+"="+alice.Token).with("Origin", "https://evil.example")
			r := c.do(http.MethodPut, path, map[string]any{"settings": map[string]any{"paused": 0}})
			require.Equal(t, http.StatusForbidden, r.status)
			same := e.anon().with("Cookie", auth.CookieName+"="+alice.Token).with("Origin", e.url)
			same.expect(http.MethodPut, path, map[string]any{"settings": map[string]any{"paused": 0}}, http.StatusOK, nil)
		})
	})
}

func TestRetractAndPanic(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		slot := e.createSlot(alice.Token, "camp-code")
		base := "/api/vibe-coding/managed/" + itoa(slot.ID)
		feed := "/api/vibe-coding/channel/alice/camp-code/events"
		sub := e.subscribe(slot.ID)
		e.storeEvents(slot.ID, seedEvent{id: "r-1", typ: "prompt"}, seedEvent{id: "r-2", typ: "response"})

		t.Run("retract removes the event from the feed and keeps it for the owner", func(t *testing.T) {
			var out struct {
				Event struct {
					EventID      string         `json:"event_id"`
					Seq          int64          `json:"seq"`
					RetractedAt  *time.Time     `json:"retracted_at"`
					RetractedBy  map[string]any `json:"retracted_by"`
					ViewerStatus string         `json:"viewer_status"`
				} `json:"event"`
			}
			e.as(alice.Token).expect(http.MethodDelete, base+"/events/r-1", nil, http.StatusOK, &out)
			require.Equal(t, "r-1", out.Event.EventID)
			require.NotNil(t, out.Event.RetractedAt)
			require.Equal(t, "alice", out.Event.RetractedBy["username"])
			require.Equal(t, "retracted", out.Event.ViewerStatus)

			msg := nextSlotMessage(t, sub)
			require.Equal(t, slotbus.KindRetract, msg.Kind)
			require.Equal(t, "r-1", msg.Retract.EventID)
			require.Equal(t, out.Event.Seq, msg.Retract.Seq)

			var f feedResp
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Equal(t, []string{"r-2"}, eventIDs(f.Events))
			var h historyResp
			e.as(alice.Token).expect(http.MethodGet, base+"/events", nil, http.StatusOK, &h)
			require.Len(t, h.Events, 2)

			// idempotent
			e.as(alice.Token).expect(http.MethodDelete, base+"/events/r-1", nil, http.StatusOK, nil)
			nextSlotMessage(t, sub)
			r := e.as(alice.Token).do(http.MethodDelete, base+"/events/no-such-event", nil)
			require.Equal(t, http.StatusNotFound, r.status)
			require.Equal(t, "Event not found", r.errorMessage(t))
		})

		t.Run("panic pauses and withholds everything still in the delay window", func(t *testing.T) {
			e.as(alice.Token).expect(http.MethodPut, base+"/settings", map[string]any{"settings": map[string]any{"delay_ms": 5000}}, http.StatusOK, nil)
			nextSlotMessage(t, sub)
			e.clock.Advance(time.Minute)
			e.storeEvents(slot.ID, seedEvent{id: "p-1", typ: "prompt"}, seedEvent{id: "p-2", typ: "response"}, seedEvent{id: "p-3", typ: "tool.call"})
			e.clock.Advance(time.Second)

			var out struct {
				Settings      map[string]any `json:"settings"`
				Withheld      int64          `json:"withheld"`
				WithheldSince time.Time      `json:"withheld_since"`
			}
			e.as(alice.Token).expect(http.MethodPost, base+"/panic", nil, http.StatusOK, &out)
			require.EqualValues(t, 3, out.Withheld, "the three pending events, not the old ones")
			require.EqualValues(t, 1, out.Settings["paused"])

			msg := nextSlotMessage(t, sub)
			require.Equal(t, slotbus.KindPanic, msg.Kind)
			require.Equal(t, 1, msg.Panic.Settings.Paused)
			require.Equal(t, e.clock.Now(), msg.Panic.At.UTC())
			require.Equal(t, out.WithheldSince, msg.Panic.Since.UTC(), "chat sockets learn what was withheld")

			// resume: the withheld events never come back
			e.as(alice.Token).expect(http.MethodPut, base+"/settings", map[string]any{"settings": map[string]any{"paused": 0}}, http.StatusOK, nil)
			e.clock.Advance(10 * time.Second)
			var f feedResp
			e.anon().expect(http.MethodGet, feed, nil, http.StatusOK, &f)
			require.Equal(t, []string{"r-2"}, eventIDs(f.Events))
			var h historyResp
			e.as(alice.Token).expect(http.MethodGet, base+"/events", nil, http.StatusOK, &h)
			for _, ev := range h.Events[:3] {
				require.Equal(t, "withheld", ev.ViewerStatus, ev.EventID)
				require.Equal(t, "panic", *ev.WithheldReason, ev.EventID)
			}
			require.Nil(t, h.Events[3].WithheldReason, "not withheld")
		})

		t.Run("retract and panic need the publish scope", func(t *testing.T) {
			read := e.createToken(alice.Token, "read")
			require.Equal(t, http.StatusForbidden, e.as(read.Token).do(http.MethodPost, base+"/panic", nil).status)
			require.Equal(t, http.StatusForbidden, e.as(read.Token).do(http.MethodDelete, base+"/events/r-2", nil).status)
		})
	})
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv(withConfig(func(c *api.Config) {
			c.UserWritesPerMinute, c.UserWriteBurst = 1, 3
			c.AuthAttemptsPerMinute, c.AuthAttemptBurst = 1, 4
		}))
		alice := e.register("alice")
		slot := e.createSlot(alice.Token, "s-0")
		for i := 1; i < 3; i++ {
			e.createSlot(alice.Token, fmt.Sprintf("s-%d", i))
		}
		r := e.as(alice.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "s-3"})
		require.Equal(t, http.StatusTooManyRequests, r.status)
		require.Equal(t, "Rate limit exceeded", r.errorMessage(t))
		secs, err := strconv.Atoi(r.header.Get("Retry-After"))
		require.NoError(t, err)
		require.Positive(t, secs)

		// reads are not limited, and the panic button never is
		e.as(alice.Token).expect(http.MethodGet, "/api/managed-streams", nil, http.StatusOK, nil)
		e.as(alice.Token).expect(http.MethodPost, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/panic", nil, http.StatusOK, nil)

		// another user has their own bucket
		bob := e.register("bob")
		e.createSlot(bob.Token, "bob-slot")

		// login attempts per IP: two registrations above, then two failed logins, then 429
		for range 2 {
			require.Equal(t, http.StatusUnauthorized, e.anon().do(http.MethodPost, "/api/auth/login", map[string]string{"username": "alice", "password": "nope nope nope"}).status)
		}
		require.Equal(t, http.StatusTooManyRequests, e.anon().do(http.MethodPost, "/api/auth/login", map[string]string{"username": "alice", "password": "nope nope nope"}).status)

		e.clock.Advance(time.Minute)
		e.createSlot(alice.Token, "s-3")
	})
}

// flakyBroker refuses the first fails publishes, as a broker in the middle of a reconnect does.
type flakyBroker struct {
	broker.Broker
	fails atomic.Int32
}

func (f *flakyBroker) Publish(ctx context.Context, channel string, payload []byte) error {
	if f.fails.Add(-1) >= 0 {
		return errors.New("broker unavailable")
	}
	return f.Broker.Publish(ctx, channel, payload)
}

func TestRetractReachesChatSocketsThroughABrokerHiccup(t *testing.T) {
	t.Parallel()
	flaky := &flakyBroker{}
	e := newEnv(t, filepath.Join(t.TempDir(), "flaky.db"), "", func(s *envSetup) {
		s.wrapBroker = func(b broker.Broker) broker.Broker { flaky.Broker = b; return flaky }
	})
	alice := e.register("alice")
	slot := e.createSlot(alice.Token, "camp-code")
	e.storeEvents(slot.ID, seedEvent{id: "x-1", typ: "prompt"})
	sub := e.subscribe(slot.ID)

	flaky.fails.Store(2) // the first two attempts fail, the third gets through
	e.as(alice.Token).expect(http.MethodDelete, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/events/x-1", nil, http.StatusOK, nil)
	msg := nextSlotMessage(t, sub)
	require.Equal(t, slotbus.KindRetract, msg.Kind)

	flaky.fails.Store(10) // down for good: the change is stored and the request still succeeds
	e.as(alice.Token).expect(http.MethodPost, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/panic", nil, http.StatusOK, nil)
	var s struct {
		Settings map[string]any `json:"settings"`
	}
	e.as(alice.Token).expect(http.MethodGet, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/settings", nil, http.StatusOK, &s)
	require.EqualValues(t, 1, s.Settings["paused"])
}

func TestPerIPWriteLimit(t *testing.T) {
	t.Parallel()
	for _, trust := range []bool{true, false} {
		t.Run(fmt.Sprintf("trust proxy headers %v", trust), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, filepath.Join(t.TempDir(), "ip.db"), "", withConfig(func(c *api.Config) {
				c.IPWritesPerMinute, c.IPWriteBurst = 1, 2
				c.TrustProxyHeaders = trust
			}))
			alice, bob := e.register("alice"), e.register("bob")
			from := func(ip, bearer string) *client { return e.as(bearer).with("X-Forwarded-For", ip+", 10.0.0.1") }
			require.Equal(t, http.StatusCreated, from("203.0.113.7", alice.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "a1"}).status)
			require.Equal(t, http.StatusCreated, from("203.0.113.7", bob.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "b1"}).status)
			r := from("203.0.113.7", bob.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "b2"})
			require.Equal(t, http.StatusTooManyRequests, r.status, "two users, one address: the address is limited")
			require.NotEmpty(t, r.header.Get("Retry-After"))
			other := from("198.51.100.9", bob.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "b2"})
			if trust {
				require.Equal(t, http.StatusCreated, other.status, "behind a trusted proxy each client address has its own bucket")
			} else {
				require.Equal(t, http.StatusTooManyRequests, other.status, "an untrusted X-Forwarded-For does not open a new bucket")
			}
		})
	}
}
