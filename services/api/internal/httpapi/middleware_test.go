package httpapi

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestForwardedHeadersOnlyFromProxies: X-Forwarded-Proto counts only when the peer is a
// loopback, private or link-local address (the reverse proxy); shared/auth tests the same
// for X-Forwarded-Host.
func TestForwardedHeadersOnlyFromProxies(t *testing.T) {
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
		r.Header.Set("X-Forwarded-Proto", "https")
		r.Header.Set("X-Forwarded-Host", "evil.example")
		r.Header.Set("Origin", "https://evil.example")
		require.Equal(t, tc.proxy, secureRequest(r), "%s: X-Forwarded-Proto believed", tc.remote)
	}

	r := httptest.NewRequest("POST", "https://openvibe.example/", nil)
	r.RemoteAddr = "203.0.113.7:5000"
	r.TLS = &tls.ConnectionState{}
	require.True(t, secureRequest(r), "TLS to us directly")
}
