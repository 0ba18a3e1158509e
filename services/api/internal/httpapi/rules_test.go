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
	proj := &vibe.Event{EventID: "x"}
	cases := []struct {
		name string
		row  store.VibeEvent
		proj *vibe.Event
		vis  time.Time
		want string
	}{
		{"retracted wins", store.VibeEvent{Visibility: "public", RetractedAt: &at, RetractedBy: &one, Withheld: true, FirstDeliveredAt: &at}, proj, at, StatusRetracted},
		{"withheld", store.VibeEvent{Visibility: "public", Withheld: true}, nil, at, StatusWithheld},
		{"private", store.VibeEvent{Visibility: "streamer"}, nil, at, StatusPrivate},
		{"delivered", store.VibeEvent{Visibility: "public", FirstDeliveredAt: &at}, proj, at, StatusDelivered},
		{"hidden", store.VibeEvent{Visibility: "public"}, nil, at, StatusHidden},
		{"pending", store.VibeEvent{Visibility: "public"}, proj, now.Add(time.Second), StatusPending},
		{"visible", store.VibeEvent{Visibility: "public"}, proj, at, StatusVisible},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, viewerStatus(tc.row, tc.proj, tc.vis, now), tc.name)
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
