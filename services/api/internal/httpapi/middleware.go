package httpapi

import (
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/api/internal/ratelimit"
	"openvibe.live/backend/shared/auth"
)

const principalKey = "openvibe.principal"

// Error messages shared by several handlers.
const (
	msgAuthRequired  = "Authentication required"
	msgScopeRequired = "API token requires vibe_coding_publish scope"
	msgSessionOnly   = "API tokens cannot manage API tokens: sign in with your password"
	msgRateLimited   = "Rate limit exceeded"
	msgBadOrigin     = "Cross-site request refused"
)

// authenticate resolves the caller from ?token=, Authorization: Bearer or the session
// cookie, and refuses cross-site writes carried by the cookie alone.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		tok := auth.TokenFromRequest(r)
		p, err := s.Auth.Authenticate(r.Context(), tok)
		if err != nil {
			if errors.Is(err, auth.ErrUnauthenticated) {
				s.Metrics.authFailures.Inc()
				return echo.NewHTTPError(http.StatusUnauthorized, msgAuthRequired)
			}
			return err
		}
		if auth.CrossSiteWrite(r, tok) {
			return echo.NewHTTPError(http.StatusForbidden, msgBadOrigin)
		}
		c.Set(principalKey, p)
		return next(c)
	}
}

// principal returns the caller set by authenticate.
func principal(c echo.Context) auth.Principal {
	p, _ := c.Get(principalKey).(auth.Principal)
	return p
}

// requireSession admits password sessions (JWT) only.
func (s *Server) requireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if principal(c).IsToken() {
			return echo.NewHTTPError(http.StatusForbidden, msgSessionOnly)
		}
		return next(c)
	}
}

// requireScope admits sessions and API tokens holding scope.
func (s *Server) requireScope(scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !principal(c).HasAnyScope(scope) {
				return echo.NewHTTPError(http.StatusForbidden, msgScopeRequired)
			}
			return next(c)
		}
	}
}

func (s *Server) limitIPWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return s.limit(s.IPWrites, "ip", func(c echo.Context) string { return s.clientIP(c) }, next)
}

func (s *Server) limitUserWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return s.limit(s.UserWrites, "user", func(c echo.Context) string {
		return strconv.FormatInt(principal(c).UserID, 10)
	}, next)
}

func (s *Server) limitAuthAttempts(next echo.HandlerFunc) echo.HandlerFunc {
	return s.limit(s.AuthAttempts, "auth", func(c echo.Context) string { return s.clientIP(c) }, next)
}

// limit answers 429 with Retry-After once key's bucket in l is empty.
func (s *Server) limit(l *ratelimit.Limiter, scope string, key func(echo.Context) string, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ok, wait := l.Allow(key(c), s.Now())
		if !ok {
			s.Metrics.rateLimited.WithLabelValues(scope).Inc()
			secs := max(1, int(math.Ceil(wait.Seconds())))
			c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
			return echo.NewHTTPError(http.StatusTooManyRequests, msgRateLimited)
		}
		return next(c)
	}
}

// clientIP is the peer address, or the proxy-reported client when proxies are trusted.
func (s *Server) clientIP(c echo.Context) string {
	r := c.Request()
	if s.TrustProxyHeaders {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			if ip := net.ParseIP(strings.TrimSpace(first)); ip != nil {
				return ip.String()
			}
		}
		if ip := net.ParseIP(strings.TrimSpace(r.Header.Get("X-Real-IP"))); ip != nil {
			return ip.String()
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// secureRequest reports whether the client reached us over TLS, directly or via a proxy.
func secureRequest(r *http.Request) bool {
	return r.TLS != nil || auth.ViaProxy(r) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// utc returns t in UTC, or nil.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
