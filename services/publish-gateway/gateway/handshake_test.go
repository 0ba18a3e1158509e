package gateway

import (
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// refusedWith dials and requires the handshake to end with a vibe-coding.error carrying
// reason, then a close frame with the same code and reason, and nothing else.
func refusedWith(t *testing.T, h *harness, url string, header http.Header, code websocket.StatusCode, reason string) {
	t.Helper()
	c, err := pubclient.Dial(h.t.Context(), url, header)
	require.NoError(t, err)
	defer c.CloseNow()
	got, gotReason, msgs := c.CloseError(h.ctx())
	require.Equal(t, code, got)
	require.Equal(t, reason, gotReason)
	require.Len(t, msgs, 1, "exactly one message before the close")
	f, err := msgs[0].Fields()
	require.NoError(t, err)
	require.Equal(t, map[string]any{"type": vibe.MsgError, "error": reason}, f)
}

func TestHandshakeRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.AllowLegacyStreamScope = false }))
	alice, aliceTok := h.user("alice", store.ScopeVibeCodingPublish)
	bob, bobTok := h.user("bob", store.ScopeVibeCodingPublish)
	aliceSlot := h.slot(alice, "camp-code", true, "")
	_ = h.slot(bob, "bob-slot", false, "")
	readOnly := h.token(alice, store.ScopeRead)
	legacy := h.token(alice, store.ScopeStream)
	revoked, revokedRow := h.apiToken(alice, nil, store.ScopeVibeCodingPublish)
	require.NoError(t, h.st.RevokeAPIToken(t.Context(), alice.ID, revokedRow.ID, time.Now()))
	expired, _ := h.apiToken(alice, func(tk *store.APIToken) {
		past := time.Now().Add(-time.Hour)
		tk.ExpiresAt = &past
	}, store.ScopeVibeCodingPublish)

	cases := []struct {
		name   string
		url    string
		code   websocket.StatusCode
		reason string
	}{
		{"no token", h.url("", aliceSlot.ID, "camp-code"), vibe.CloseUnauthorized, vibe.ReasonAuthRequired},
		{"unknown token", h.url("hbt_"+"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", aliceSlot.ID, ""), vibe.CloseUnauthorized, vibe.ReasonAuthRequired},
		{"garbage jwt", h.url("not-a-jwt", aliceSlot.ID, ""), vibe.CloseUnauthorized, vibe.ReasonAuthRequired},
		{"revoked token", h.url(revoked, aliceSlot.ID, ""), vibe.CloseUnauthorized, vibe.ReasonAuthRequired},
		{"expired token", h.url(expired, aliceSlot.ID, ""), vibe.CloseUnauthorized, vibe.ReasonAuthRequired},
		{"read scope only", h.url(readOnly, aliceSlot.ID, ""), vibe.CloseForbidden, vibe.ReasonScopeRequired},
		{"legacy scope switched off", h.url(legacy, aliceSlot.ID, ""), vibe.CloseForbidden, vibe.ReasonScopeRequired},
		{"unknown slot", h.url(aliceTok, 987654, ""), vibe.CloseNotFound, vibe.ReasonSlotNotFound},
		{"someone else's slot", h.url(bobTok, aliceSlot.ID, ""), vibe.CloseNotFound, vibe.ReasonSlotNotFound},
		{"someone else's slot with its slug", h.url(bobTok, aliceSlot.ID, "camp-code"), vibe.CloseNotFound, vibe.ReasonSlotNotFound},
		{"missing managedStreamId", h.url(aliceTok, 0, ""), vibe.CloseBadRequest, TextBadStreamID},
		{"slug mismatch", h.url(aliceTok, aliceSlot.ID, "other-slot"), vibe.CloseBadRequest, vibe.ReasonSlugMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			refusedWith(t, h, tc.url, nil, tc.code, tc.reason)
		})
	}
	t.Run("non-numeric managedStreamId", func(t *testing.T) {
		refusedWith(t, h, h.srv.URL+"/ws/vibe-coding/publish?token="+aliceTok+"&managedStreamId=abc", nil,
			vibe.CloseBadRequest, TextBadStreamID)
	})
	t.Run("bearer header without scope", func(t *testing.T) {
		refusedWith(t, h, h.url("", aliceSlot.ID, ""), http.Header{"Authorization": {"Bearer " + readOnly}},
			vibe.CloseForbidden, vibe.ReasonScopeRequired)
	})
	_ = bob
}

func TestHandshakeAccepts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, tok, ms := h.liveSlot()
	legacy := h.token(alice, store.ScopeStream)

	t.Run("ready carries every field", func(t *testing.T) {
		c := h.dial(tok, ms.ID, "camp-code")
		m, err := c.Expect(h.ctx(), vibe.MsgReady, nil)
		require.NoError(t, err)
		f, err := m.Fields()
		require.NoError(t, err)
		require.ElementsMatch(t, []string{"type", "ok", "managed_stream_id", "slot_slug", "live_stream_id", "settings", "timestamp"}, keys(f))
		require.Equal(t, true, f["ok"])
		require.EqualValues(t, ms.ID, f["managed_stream_id"])
		require.Equal(t, "camp-code", f["slot_slug"])
		require.EqualValues(t, *ms.LiveStreamID, f["live_stream_id"])
		requireTimestamp(t, f["timestamp"])
		var r vibe.Ready
		require.NoError(t, m.Decode(&r))
		require.Equal(t, vibe.DefaultSettings(), r.Settings)
		settings := f["settings"].(map[string]any)
		require.Len(t, settings, 21, "the full normalized settings object")
	})
	t.Run("slug is matched case-insensitively and may be omitted", func(t *testing.T) {
		for _, slug := range []string{"CAMP-code", ""} {
			c := h.dial(tok, ms.ID, slug)
			r, err := c.Ready(h.ctx())
			require.NoError(t, err)
			require.Equal(t, "camp-code", r.SlotSlug)
		}
	})
	t.Run("session JWT needs no scope", func(t *testing.T) {
		c := h.dial(h.session(alice), ms.ID, "")
		_, err := c.Ready(h.ctx())
		require.NoError(t, err)
	})
	t.Run("bearer header", func(t *testing.T) {
		c, err := pubclient.Dial(t.Context(), h.url("", ms.ID, ""), http.Header{"Authorization": {"Bearer " + tok}})
		require.NoError(t, err)
		defer c.CloseNow()
		_, err = c.Ready(h.ctx())
		require.NoError(t, err)
	})
	t.Run("legacy stream scope is accepted and counted", func(t *testing.T) {
		before := h.counter(h.gw.met.legacyScope)
		c := h.dial(legacy, ms.ID, "")
		_, err := c.Ready(h.ctx())
		require.NoError(t, err)
		require.Equal(t, before+1, h.counter(h.gw.met.legacyScope))
	})
	t.Run("offline slot has a null live_stream_id", func(t *testing.T) {
		off := h.slot(alice, "offline", false, "")
		c := h.dial(tok, off.ID, "")
		m, err := c.Expect(h.ctx(), vibe.MsgReady, nil)
		require.NoError(t, err)
		f, err := m.Fields()
		require.NoError(t, err)
		require.Contains(t, f, "live_stream_id")
		require.Nil(t, f["live_stream_id"])
	})
}

func TestCookieCredentialNeedsSameOrigin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, _ := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", false, "")
	cookie := http.Header{"Cookie": {"ov_token=" + h.session(alice)}}

	c, err := pubclient.Dial(t.Context(), h.url("", ms.ID, ""), cookie)
	require.NoError(t, err, "no Origin header: not a browser, allowed")
	_, err = c.Ready(h.ctx())
	require.NoError(t, err)
	_ = c.CloseNow()

	cross := cookie.Clone()
	cross.Set("Origin", "https://evil.example")
	_, err = pubclient.Dial(t.Context(), h.url("", ms.ID, ""), cross)
	require.Error(t, err, "a cross-site page must not publish with the visitor's cookie")
	require.Contains(t, err.Error(), "403")
}

func TestSlotConnectionCap(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.MaxConnsPerSlot = 2 }))
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", false, "")
	for range 2 {
		_, err := h.dial(tok, ms.ID, "").Ready(h.ctx())
		require.NoError(t, err)
	}
	refusedWith(t, h, h.url(tok, ms.ID, ""), nil, vibe.CloseRateLimited, TextTooManyConnections)
}

func TestHandshakeStoreOutage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", false, "")
	h.st.down.Store(true)
	refusedWith(t, h, h.url(tok, ms.ID, ""), nil, websocket.StatusInternalError, TextUnavailable)
	h.st.down.Store(false)
	_, err := h.dial(tok, ms.ID, "").Ready(h.ctx())
	require.NoError(t, err, "recovers with the store")
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func requireTimestamp(t *testing.T, v any) time.Time {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "timestamp must be a string, got %T", v)
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, s)
	ts, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), ts, time.Minute)
	return ts
}
