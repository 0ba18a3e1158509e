package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/vibetest"
)

// TestEventsDueWhilePausedNeverShow: an event that comes due while the slot is paused or
// disabled is dropped for good, in the public feed and the owner history as on the socket,
// even when no chat socket was there to drop it; events due before the pause or after the
// resume are shown.
func TestEventsDueWhilePausedNeverShow(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		for _, tc := range []struct {
			name, slug    string
			stop, restart func(slotID int64)
		}{
			{"paused", "paused", func(id int64) { e.patchSettings(alice.Token, id, map[string]any{"paused": 1}) },
				func(id int64) { e.patchSettings(alice.Token, id, map[string]any{"paused": 0}) }},
			{"disabled in the workspace", "disabled", func(id int64) { e.workspaceSettings(alice.Token, id, map[string]any{"enabled": false}) },
				func(id int64) { e.workspaceSettings(alice.Token, id, map[string]any{"enabled": true}) }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				slot := e.createSlot(alice.Token, tc.slug)
				feed := "/api/vibe-coding/channel/alice/" + slot.Slug + "/events"
				history := "/api/vibe-coding/managed/" + itoa(slot.ID) + "/events"
				e.patchSettings(alice.Token, slot.ID, map[string]any{"delay_ms": 10_000})
				start := e.clock.Now()
				at := func(d time.Duration) { e.clock.Advance(start.Add(d).Sub(e.clock.Now())) }

				e.storeEvents(slot.ID, seedEvent{id: "before", typ: "prompt"}) // due at 10s
				at(5 * time.Second)
				e.storeEvents(slot.ID, seedEvent{id: "due-while-paused", typ: "prompt"}) // due at 15s
				at(11500 * time.Millisecond)
				e.storeEvents(slot.ID, seedEvent{id: "due-after", typ: "prompt"}) // due at 21.5s
				require.Equal(t, []string{"before"}, e.feedIDs(feed))

				at(12 * time.Second)
				tc.stop(slot.ID)
				at(16 * time.Second)
				require.Empty(t, e.feedIDs(feed), "nothing is shown while stopped")
				at(20 * time.Second)
				tc.restart(slot.ID)
				require.Equal(t, []string{"before"}, e.feedIDs(feed))
				at(22 * time.Second)
				require.Equal(t, []string{"before", "due-after"}, e.feedIDs(feed),
					"the event that came due while stopped never shows")

				var h historyResp
				e.as(alice.Token).expect(http.MethodGet, history, nil, http.StatusOK, &h)
				status := map[string]string{}
				for _, ev := range h.Events {
					status[ev.EventID] = ev.ViewerStatus
					if ev.WithheldReason != nil {
						status[ev.EventID] += ": " + *ev.WithheldReason
					}
				}
				require.Equal(t, map[string]string{"before": "visible", "due-while-paused": "withheld: due_while_paused", "due-after": "visible"}, status)
			})
		}
	})
}

func (e *env) patchSettings(bearer string, slotID int64, patch map[string]any) {
	e.t.Helper()
	e.as(bearer).expect(http.MethodPut, "/api/vibe-coding/managed/"+itoa(slotID)+"/settings",
		map[string]any{"settings": patch}, http.StatusOK, nil)
}

// workspaceSettings saves vibe-coding settings the way the original platform's workspace does:
// inside the whole broadcast settings object.
func (e *env) workspaceSettings(bearer string, slotID int64, vibeCoding map[string]any) {
	e.t.Helper()
	e.as(bearer).expect(http.MethodPut, "/api/streams/broadcast-settings",
		map[string]any{"managed_stream_id": slotID, "settings": map[string]any{"bitrate": 6000, "vibeCoding": vibeCoding}}, http.StatusOK, nil)
}

func (e *env) feedIDs(path string) []string {
	e.t.Helper()
	var f feedResp
	e.anon().expect(http.MethodGet, path, nil, http.StatusOK, &f)
	return eventIDs(f.Events)
}

// TestFeedFollowsTheRule: the public feed shows an event exactly when vibe.WhyHidden does, and
// the owner history names the same reason, for every case of the rule.
func TestFeedFollowsTheRule(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		status := map[vibe.Hidden]string{
			vibe.Shown: "visible", vibe.HiddenRetracted: "retracted", vibe.HiddenWithheld: "withheld",
			vibe.HiddenStreamer: "private", vibe.HiddenPaused: "hidden", vibe.HiddenType: "hidden", vibe.HiddenDelayed: "pending",
		}
		for i, c := range vibetest.Cases() {
			slot := e.createSlot(alice.Token, "rule-"+itoa(int64(i)))
			raw, err := json.Marshal(c.Settings)
			require.NoError(t, err)
			var patch map[string]any
			require.NoError(t, json.Unmarshal(raw, &patch))
			e.patchSettings(alice.Token, slot.ID, patch)
			vis := c.Event.Visibility
			stored := e.storeEvents(slot.ID, seedEvent{id: "ev", typ: c.Event.EventType, visibility: vis, withheld: c.Event.Withheld})
			if c.Event.Retracted {
				_, err := e.store.RetractVibeEvent(t.Context(), slot.ID, "ev", alice.User.ID, e.clock.Now())
				require.NoError(t, err)
			}
			e.clock.Advance(c.Age)
			require.Equal(t, c.Want, vibe.WhyHidden(must(e.store.VibeEventByEventID(t.Context(), slot.ID, "ev")).Viewing(), c.Settings, e.clock.Now()), c.Name)

			ids := e.feedIDs("/api/vibe-coding/channel/alice/" + slot.Slug + "/events")
			if c.Want == vibe.Shown {
				require.Equal(t, []string{"ev"}, ids, c.Name)
			} else {
				require.Empty(t, ids, c.Name)
			}
			var h historyResp
			e.as(alice.Token).expect(http.MethodGet, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/events", nil, http.StatusOK, &h)
			require.Len(t, h.Events, 1)
			require.Equal(t, stored[0].Seq, h.Events[0].Seq)
			require.Equal(t, status[c.Want], h.Events[0].ViewerStatus, c.Name)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
