package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/auth"
)

// requireSecurityHeaders checks the headers every response carries: a CSP that allows no
// inline or evaluated script and no framing, nosniff, and frame options.
func requireSecurityHeaders(t *testing.T, h http.Header, what string) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	require.NotEmpty(t, csp, "%s: no Content-Security-Policy", what)
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	script, ok := directives["script-src"]
	if !ok {
		script = directives["default-src"]
	}
	require.Equal(t, "'self'", script, "%s: script-src must be 'self' only: %s", what, csp)
	require.NotContains(t, csp, "unsafe-inline", what)
	require.NotContains(t, csp, "unsafe-eval", what)
	require.Equal(t, "'none'", directives["frame-ancestors"], "%s: %s", what, csp)
	require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), what)
	require.Equal(t, "DENY", h.Get("X-Frame-Options"), what)
}

// Every kind of response — pages, static files, API answers and errors, unknown routes, the
// probes and refused WebSocket upgrades — carries the security headers.
func testSecurityHeaders(t *testing.T, s *secServer) {
	tn := s.newTenant("lenaheaders", "lena-slot", "Lena")
	cases := []struct {
		name, method, path, bearer string
		header                     http.Header
		status                     int
	}{
		{"home page", "GET", "/", "", nil, 200},
		{"studio page", "GET", "/studio", "", nil, 200},
		{"viewer page", "GET", "/" + tn.username + "/" + tn.slug, "", nil, 200},
		{"viewer page 404", "GET", "/nobody-here/nothing", "", nil, 404},
		{"static script", "GET", "/static/viewer.js", "", nil, 200},
		{"static 404", "GET", "/static/missing.js", "", nil, 404},
		{"api read", "GET", "/api/me", tn.session, nil, 200},
		{"api 401", "GET", "/api/me", "", nil, 401},
		{"api 403", "POST", "/api/tokens", tn.tokens["read"], nil, 403},
		{"api 404", "GET", "/api/managed-streams/987654321", tn.session, nil, 404},
		{"unknown api route", "GET", "/api/nothing/here/at/all", "", nil, 404},
		{"unknown two-segment api route", "GET", "/api/nothing", "", nil, 404},
		{"method not allowed", "PATCH", "/api/me", tn.session, nil, 405},
		{"api 400", "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", tn.slotID), tn.session, nil, 400},
		{"public feed", "GET", "/api/vibe-coding/channel/" + tn.username + "/" + tn.slug + "/events", "", nil, 200},
		{"healthz", "GET", "/healthz", "", nil, 200},
		{"readyz", "GET", "/readyz", "", nil, 200},
		{"metrics", "GET", "/metrics", "", nil, 200},
		{"publisher socket without upgrade", "GET", gateway.PublishPath + "?managedStreamId=1", "", nil, 426},
		{"chat socket without upgrade", "GET", "/ws/chat/" + tn.username + "/" + tn.slug, "", nil, 426},
		{"chat socket from another site", "GET", "/ws/chat/" + tn.username + "/" + tn.slug, "",
			http.Header{"Origin": {"https://evil.example"}, "Upgrade": {"websocket"}, "Connection": {"Upgrade"},
				"Sec-Websocket-Version": {"13"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}}, 403},
		{"publisher socket with a cookie from another site", "GET", gateway.PublishPath + fmt.Sprintf("?managedStreamId=%d", tn.slotID), "",
			http.Header{"Origin": {"https://evil.example"}, "Cookie": {auth.CookieName + "=" + tn.session}, "Upgrade": {"websocket"},
				"Connection": {"Upgrade"}, "Sec-Websocket-Version": {"13"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}}, 403},
	}
	for _, c := range cases {
		var body any
		if c.name == "api 400" {
			body = []byte(`{"settings":{"delay_ms":"abc"}}`)
		}
		r := s.request(c.method, c.path, c.bearer, body, c.header)
		require.Equal(t, c.status, r.status, "%s: %s", c.name, r)
		requireSecurityHeaders(t, r.header, c.name)
		if strings.HasPrefix(c.path, "/api/") && r.status >= 400 && c.name != "unknown api route" {
			require.Equal(t, "application/json", strings.Split(r.header.Get("Content-Type"), ";")[0], c.name)
		}
	}
}

// sessionCookie finds the ov_token cookie a response sets.
func sessionCookie(t *testing.T, h http.Header) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == auth.CookieName {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", auth.CookieName, h.Values("Set-Cookie"))
	return nil
}

// The session cookie is HttpOnly and SameSite on every answer that sets it (register, login,
// logout), and Secure when the request came over TLS or through a proxy that says so.
func testSessionCookie(t *testing.T, s *secServer) {
	creds := map[string]string{"username": "mayacookie", "password": "correct horse battery"}
	for _, step := range []struct {
		path   string
		header http.Header
		status int
		secure bool
	}{
		{"/api/auth/register", nil, 201, false},
		{"/api/auth/login", nil, 200, false},
		{"/api/auth/login", http.Header{"X-Forwarded-Proto": {"https"}}, 200, true},
		{"/api/auth/logout", nil, 204, false},
		{"/api/auth/logout", http.Header{"X-Forwarded-Proto": {"https"}}, 204, true},
	} {
		r := s.request("POST", step.path, "", creds, step.header)
		require.Equal(t, step.status, r.status, "%s: %s", step.path, r)
		c := sessionCookie(t, r.header)
		require.True(t, c.HttpOnly, step.path)
		require.Contains(t, []http.SameSite{http.SameSiteLaxMode, http.SameSiteStrictMode}, c.SameSite, step.path)
		require.Equal(t, step.secure, c.Secure, "%s (forwarded https: %v)", step.path, step.header != nil)
		require.Equal(t, "/", c.Path)
	}
}

// Over a TLS listener the cookie is Secure without any proxy header.
func TestSecuritySessionCookieOverTLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(composeEcho(t))
	defer srv.Close()
	req, err := http.NewRequestWithContext(t.Context(), "POST", srv.URL+"/api/auth/register",
		strings.NewReader(`{"username":"nadiatls","password":"correct horse battery"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	c := sessionCookie(t, resp.Header)
	require.True(t, c.Secure)
	require.True(t, c.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)
	requireSecurityHeaders(t, resp.Header, "TLS register")
}

// TestSecurity runs the suite against one standalone server on SQLite.
func TestSecurity(t *testing.T) {
	t.Parallel()
	runSecuritySuite(t, startSecure(t, generousLimits), true)
}

// TestSecurityPostgres runs the data-handling part of the suite on PostgreSQL.
func TestSecurityPostgres(t *testing.T) {
	t.Parallel()
	runSecuritySuite(t, startSecure(t, postgresEnv(t)), false)
}

func runSecuritySuite(t *testing.T, s *secServer, all bool) {
	tests := map[string]func(*testing.T, *secServer){
		"cross-tenant REST":      testCrossTenantREST,
		"cross-tenant sockets":   testCrossTenantSockets,
		"cross-tenant broadcast": testCrossTenantBroadcastSettings,
		"token scopes":           testTokenScopes,
		"jwt tampering":          testJWTTampering,
		"injection validated":    testInjectionValidated,
		"injection round trip":   testInjectionRoundTrip,
		"agent routes need auth": testAgentRoutesNeedAuth,
	}
	if all {
		tests["oversize frames"] = testOversizeFrames
		tests["oversize bodies"] = testOversizeBodies
		tests["slowloris"] = testSlowloris
		tests["injection in browser"] = testInjectionInBrowser
		tests["security headers"] = testSecurityHeaders
		tests["session cookie"] = testSessionCookie
	}
	for name, fn := range tests {
		t.Run(name, func(t *testing.T) {
			s := *s
			s.t = t
			fn(t, &s)
		})
	}
}
