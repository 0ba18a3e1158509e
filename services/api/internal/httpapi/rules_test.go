package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

func TestValidUsername(t *testing.T) {
	t.Parallel()
	for name, ok := range map[string]bool{
		"abc": true, "A_b-9": true, strings.Repeat("x", 32): true,
		"ab": false, strings.Repeat("x", 33): false, "a b": false, "a.b": false, "ünï": false,
		"studio": false, "Static": false, "WS": false, "api": false, "": false,
	} {
		require.Equal(t, ok, ValidUsername(name) == "", name)
	}
}

func TestValidSlug(t *testing.T) {
	t.Parallel()
	for slug, ok := range map[string]bool{
		"a": true, "camp-code": true, "v2": true, "-": true, strings.Repeat("s", 64): true,
		"": false, "Camp": false, "a_b": false, "123": false, strings.Repeat("s", 65): false,
	} {
		require.Equal(t, ok, ValidSlug(slug) == "", slug)
	}
}

func TestETagMatches(t *testing.T) {
	t.Parallel()
	const tag = `"abc"`
	for header, want := range map[string]bool{
		`"abc"`: true, `W/"abc"`: true, `"x", "abc"`: true, `*`: true,
		`"abd"`: false, ``: false, `abc`: false,
	} {
		require.Equal(t, want, etagMatches(header, tag), header)
	}
}

func TestViewerStatus(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	at := now.Add(-time.Second)
	one := int64(1)
	def := vibe.DefaultSettings()
	paused, delayed := def, def
	paused.Paused = 1
	delayed.DelayMs = 60_000
	row := func(f func(*store.VibeEvent)) store.VibeEvent {
		r := store.VibeEvent{EventType: vibe.TypePrompt, Visibility: vibe.VisibilityPublic, ReceivedAt: at,
			Payload: []byte(`{"eventId":"x","eventType":"prompt","summary":"s"}`)}
		if f != nil {
			f(&r)
		}
		return r
	}
	cases := []struct {
		name     string
		row      store.VibeEvent
		settings vibe.Settings
		want     string
		shown    bool // the projection is given
	}{
		{"retracted wins", row(func(r *store.VibeEvent) {
			r.RetractedAt, r.RetractedBy, r.Withheld, r.FirstDeliveredAt = &at, &one, true, &at
		}), def, StatusRetracted, false},
		{"withheld", row(func(r *store.VibeEvent) { r.Withheld = true }), def, StatusWithheld, false},
		{"private", row(func(r *store.VibeEvent) { r.Visibility = vibe.VisibilityStreamer }), def, StatusPrivate, false},
		{"delivered", row(func(r *store.VibeEvent) { r.FirstDeliveredAt = &at }), def, StatusDelivered, true},
		{"hidden type", row(func(r *store.VibeEvent) {
			r.EventType = vibe.TypeThinking
			r.Payload = []byte(`{"eventType":"thinking"}`)
		}), def, StatusHidden, false},
		{"hidden while paused", row(nil), paused, StatusHidden, false},
		{"payload that no longer decodes", row(func(r *store.VibeEvent) { r.Payload = []byte(`{`) }), def, StatusHidden, false},
		{"pending", row(nil), delayed, StatusPending, true},
		{"visible", row(nil), def, StatusVisible, true},
	}
	for _, tc := range cases {
		proj, why := viewerView(tc.row, tc.settings, now)
		require.Equal(t, tc.want, viewerStatus(tc.row, why), tc.name)
		require.Equal(t, tc.shown, proj != nil, tc.name)
	}
}

func TestClientIP(t *testing.T) {
	t.Parallel()
	e := echo.New()
	for _, tc := range []struct {
		trust       bool
		xff, realIP string
		want        string
	}{
		{false, "203.0.113.7", "", "192.0.2.1"},
		{true, "203.0.113.7, 10.0.0.1", "", "203.0.113.7"},
		{true, "garbage", "198.51.100.2", "198.51.100.2"},
		{true, "", "", "192.0.2.1"},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = "192.0.2.1:5555"
		if tc.xff != "" {
			req.Header.Set("X-Forwarded-For", tc.xff)
		}
		if tc.realIP != "" {
			req.Header.Set("X-Real-IP", tc.realIP)
		}
		s := &Server{Options: Options{TrustProxyHeaders: tc.trust}}
		require.Equal(t, tc.want, s.clientIP(e.NewContext(req, httptest.NewRecorder())))
	}
}
