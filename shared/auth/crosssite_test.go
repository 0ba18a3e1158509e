package auth

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSameOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		origin, site string
		want         bool
	}{
		{"", "", true},
		{"", "same-origin", true},
		{"", "cross-site", false},
		{"http://example.test", "", true},
		{"http://EXAMPLE.test", "", true},
		{"https://evil.test", "", false},
		{"null", "", false},
	} {
		req := httptest.NewRequest("POST", "http://example.test/api/x", nil)
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if tc.site != "" {
			req.Header.Set("Sec-Fetch-Site", tc.site)
		}
		require.Equal(t, tc.want, SameOrigin(req), "%+v", tc)
	}
}

// TestCrossSiteWrite: only a write, carried by a credential the browser adds by itself, from
// another origin, is cross-site.
func TestCrossSiteWrite(t *testing.T) {
	t.Parallel()
	const tok = "jwt-value"
	for _, tc := range []struct {
		name, method, origin  string
		cookie, bearer, basic bool
		query                 bool
		want                  bool
	}{
		{name: "cookie write from another site", method: "POST", origin: "https://evil.test", cookie: true, want: true},
		{name: "cached basic auth from another site", method: "DELETE", origin: "https://evil.test", basic: true, want: true},
		{name: "cookie write from the site", method: "POST", origin: "http://example.test", cookie: true},
		{name: "cookie read from another site", method: "GET", origin: "https://evil.test", cookie: true},
		{name: "bearer header from another site", method: "POST", origin: "https://evil.test", cookie: true, bearer: true},
		{name: "query token from another site", method: "PUT", origin: "https://evil.test", cookie: true, query: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := "http://example.test/x"
			if tc.query {
				target += "?token=" + tok
			}
			r := httptest.NewRequest(tc.method, target, nil)
			r.Header.Set("Origin", tc.origin)
			if tc.cookie {
				r.Header.Set("Cookie", CookieName+"="+tok)
			}
			if tc.bearer {
				r.Header.Set("Authorization", "Bearer "+tok)
			}
			if tc.basic {
				r.SetBasicAuth("ada", "pw")
			}
			require.Equal(t, tc.want, CrossSiteWrite(r, tok))
		})
	}
}

// TestForwardedHostOnlyFromProxies: X-Forwarded-Host counts only when the peer is a
// loopback, private or link-local address (the reverse proxy).
func TestForwardedHostOnlyFromProxies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		remote string
		proxy  bool
	}{
		{"127.0.0.1:5000", true}, {"[::1]:5000", true}, {"10.1.2.3:5000", true}, {"192.168.0.9:5000", true},
		{"172.16.4.4:5000", true}, {"169.254.1.1:5000", true}, {"[fd00::1]:5000", true},
		{"203.0.113.7:5000", false}, {"[2001:db8::1]:5000", false}, {"garbage", false},
	} {
		r := httptest.NewRequest("POST", "http://openvibe.example/api/auth/login", nil)
		r.RemoteAddr = tc.remote
		r.Header.Set("X-Forwarded-Host", "evil.example")
		r.Header.Set("Origin", "https://evil.example")
		require.Equal(t, tc.proxy, ViaProxy(r), tc.remote)
		require.Equal(t, tc.proxy, SameOrigin(r), "%s: X-Forwarded-Host believed", tc.remote)
	}
}
