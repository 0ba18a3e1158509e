package runner

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"
)

// The cross-site rule is the api's (services/api: authenticate): a write whose credential
// a browser sends by itself — the session cookie, or Basic auth it cached for a local
// server — is refused unless it comes from the site itself, so another site's page cannot
// drive an agent with the visitor's login.
const msgCrossSite = "Cross-site request refused"

// refuseCrossSite answers 403 to such a write.
func refuseCrossSite(r *http.Request, token string) error {
	if isWrite(r.Method) && ambientCredential(r, token) && !sameOrigin(r) {
		return echo.NewHTTPError(http.StatusForbidden, msgCrossSite)
	}
	return nil
}

func isWrite(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// ambientCredential reports whether the credential used came with the request without the
// page asking for it: the session cookie (no bearer header, no ?token=), or Basic auth.
func ambientCredential(r *http.Request, token string) bool {
	if _, _, ok := r.BasicAuth(); ok {
		return true
	}
	if r.URL.Query().Get("token") != "" || r.Header.Get("Authorization") != "" {
		return false
	}
	c, err := r.Cookie(auth.CookieName)
	return err == nil && c.Value == token
}

// sameOrigin accepts a request without Origin (not a browser, or a same-origin GET) unless
// the browser says it is cross-site, or one whose Origin host is the request's host.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return r.Header.Get("Sec-Fetch-Site") != "cross-site"
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	host := r.Host
	if fh := r.Header.Get("X-Forwarded-Host"); fh != "" && viaProxy(r) {
		host = fh
	}
	return strings.EqualFold(u.Host, host)
}

// viaProxy reports whether the request came from a loopback, private or link-local address:
// a reverse proxy, whose X-Forwarded-* headers are believed.
func viaProxy(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}
