package auth

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The cross-site rule, one for every service that takes a browser's login: a write whose
// credential the browser sends by itself — the session cookie, or Basic auth it cached for a
// local server — is refused unless it comes from the site itself, so that another site's page
// cannot act with the visitor's login. A credential the page has to set (an Authorization
// bearer header, ?token=) needs no check: a cross-site page cannot read it.

// CrossSiteWrite reports whether r is such a write: a method that changes something, carried
// by an ambient credential (token is the credential the request authenticated with), from
// another origin.
func CrossSiteWrite(r *http.Request, token string) bool {
	return IsWrite(r.Method) && ambientCredential(r, token) && !SameOrigin(r)
}

// IsWrite reports whether method may change something (anything but GET, HEAD and OPTIONS).
func IsWrite(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// ambientCredential reports whether the credential came with the request without the page
// asking for it: Basic auth, or the session cookie with no bearer header and no ?token=.
func ambientCredential(r *http.Request, token string) bool {
	if _, _, ok := r.BasicAuth(); ok {
		return true
	}
	if r.URL.Query().Get("token") != "" || r.Header.Get("Authorization") != "" {
		return false
	}
	c, err := r.Cookie(CookieName)
	return err == nil && c.Value == token
}

// SameOrigin accepts a request without Origin (not a browser, or a same-origin GET) unless
// the browser says it is cross-site, and one whose Origin host is the request's host (the
// X-Forwarded-Host when a proxy sent it, see ViaProxy).
func SameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return r.Header.Get("Sec-Fetch-Site") != "cross-site"
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	host := r.Host
	if fh := r.Header.Get("X-Forwarded-Host"); fh != "" && ViaProxy(r) {
		host = fh
	}
	return strings.EqualFold(u.Host, host)
}

// ViaProxy reports whether the request came from a loopback, private or link-local address:
// a reverse proxy, whose X-Forwarded-* headers are believed. Anyone else could set them. It
// is the rule the client address follows too (platform.NewEcho's IP extractor).
func ViaProxy(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}
