package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSlots(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		bob := e.register("bob")

		slot := e.createSlot(alice.Token, "camp-code")
		require.Equal(t, "camp-code", slot.Slug)
		require.Equal(t, "Slot camp-code", slot.Title)
		require.Nil(t, slot.LiveStreamID)

		t.Run("duplicate slug is 409, another user may reuse it", func(t *testing.T) {
			r := e.as(alice.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "camp-code", "title": "again"})
			require.Equal(t, http.StatusConflict, r.status)
			e.createSlot(bob.Token, "camp-code")
		})

		t.Run("invalid slugs and titles are 400", func(t *testing.T) {
			for name, body := range map[string]map[string]string{
				"empty":      {"slug": ""},
				"uppercase":  {"slug": "Camp"},
				"space":      {"slug": "camp code"},
				"too long":   {"slug": strings.Repeat("a", 65)},
				"all digits": {"slug": "123"},
				"slash":      {"slug": "a/b"},
				"long title": {"slug": "ok-slug", "title": strings.Repeat("t", 121)},
			} {
				r := e.as(alice.Token).do(http.MethodPost, "/api/managed-streams", body)
				require.Equal(t, http.StatusBadRequest, r.status, name)
			}
		})

		t.Run("list and get", func(t *testing.T) {
			var list struct {
				ManagedStreams []slotResp `json:"managed_streams"`
			}
			e.as(alice.Token).expect(http.MethodGet, "/api/managed-streams", nil, http.StatusOK, &list)
			require.Len(t, list.ManagedStreams, 1)
			var got struct {
				slotResp
				ViewerPath string         `json:"viewer_path"`
				Settings   map[string]any `json:"settings"`
			}
			e.as(alice.Token).expect(http.MethodGet, "/api/managed-streams/"+itoa(slot.ID), nil, http.StatusOK, &got)
			require.Equal(t, "/alice/camp-code", got.ViewerPath)
			require.EqualValues(t, 18, got.Settings["max_events"])
		})

		t.Run("go live and end", func(t *testing.T) {
			var live struct {
				LiveStreamID int64 `json:"live_stream_id"`
			}
			path := "/api/managed-streams/" + itoa(slot.ID) + "/live"
			e.as(alice.Token).expect(http.MethodPost, path, nil, http.StatusCreated, &live)
			require.Positive(t, live.LiveStreamID)
			var again struct {
				LiveStreamID int64 `json:"live_stream_id"`
			}
			e.as(alice.Token).expect(http.MethodPost, path, nil, http.StatusOK, &again)
			require.Equal(t, live.LiveStreamID, again.LiveStreamID, "already live keeps the live stream")
			var got slotResp
			e.as(alice.Token).expect(http.MethodGet, "/api/managed-streams/"+itoa(slot.ID), nil, http.StatusOK, &got)
			require.Equal(t, live.LiveStreamID, *got.LiveStreamID)

			e.as(alice.Token).expect(http.MethodDelete, path, nil, http.StatusOK, nil)
			require.Equal(t, http.StatusConflict, e.as(alice.Token).do(http.MethodDelete, path, nil).status, "not live any more")
		})

		t.Run("another user's slot is a 404 that leaks nothing", func(t *testing.T) {
			missing := e.as(bob.Token).do(http.MethodGet, "/api/managed-streams/999999", nil)
			require.Equal(t, http.StatusNotFound, missing.status)
			id := itoa(slot.ID)
			for _, req := range []struct {
				method, path string
				body         any
			}{
				{http.MethodGet, "/api/managed-streams/" + id, nil},
				{http.MethodPost, "/api/managed-streams/" + id + "/live", nil},
				{http.MethodDelete, "/api/managed-streams/" + id + "/live", nil},
				{http.MethodGet, "/api/vibe-coding/managed/" + id + "/events", nil},
				{http.MethodGet, "/api/vibe-coding/managed/" + id + "/settings", nil},
				{http.MethodPut, "/api/vibe-coding/managed/" + id + "/settings", map[string]any{"settings": map[string]any{"paused": 1}}},
				{http.MethodDelete, "/api/vibe-coding/managed/" + id + "/events/some-event", nil},
				{http.MethodPost, "/api/vibe-coding/managed/" + id + "/panic", nil},
			} {
				r := e.as(bob.Token).do(req.method, req.path, req.body)
				require.Equal(t, http.StatusNotFound, r.status, "%s %s", req.method, req.path)
				require.JSONEq(t, `{"error":"Managed stream not found"}`, string(r.body), "%s %s", req.method, req.path)
				require.NotContains(t, string(r.body), "camp-code")
			}
			// and bob's attempts changed nothing
			var s struct {
				Settings map[string]any `json:"settings"`
			}
			e.as(alice.Token).expect(http.MethodGet, "/api/vibe-coding/managed/"+id+"/settings", nil, http.StatusOK, &s)
			require.EqualValues(t, 0, s.Settings["paused"])
		})

		t.Run("tokens need the publish scope to change slots", func(t *testing.T) {
			read := e.createToken(alice.Token, "read")
			r := e.as(read.Token).do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "from-token"})
			require.Equal(t, http.StatusForbidden, r.status)
			require.Equal(t, "API token requires vibe_coding_publish scope", r.errorMessage(t))
			e.as(read.Token).expect(http.MethodGet, "/api/managed-streams", nil, http.StatusOK, nil)

			pub := e.createToken(alice.Token, "vibe_coding_publish")
			e.createSlot(pub.Token, "from-token")
			e.as(pub.Token).expect(http.MethodPost, "/api/managed-streams/"+itoa(slot.ID)+"/live", nil, http.StatusCreated, nil)
		})

		t.Run("unauthenticated is 401", func(t *testing.T) {
			require.Equal(t, http.StatusUnauthorized, e.anon().do(http.MethodGet, "/api/managed-streams", nil).status)
			require.Equal(t, http.StatusUnauthorized, e.anon().do(http.MethodPost, "/api/managed-streams", map[string]string{"slug": "x"}).status)
		})
	})
}
