package httpapi

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
)

// Account rules.
const (
	MinPasswordChars = 8
	MaxPasswordBytes = auth.MaxPasswordBytes
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)

// reservedUsernames would collide with the site's own pages and well-known paths.
var reservedUsernames = map[string]bool{
	"api": true, "ws": true, "static": true, "studio": true, "login": true, "logout": true,
	"register": true, "signup": true, "signin": true, "healthz": true, "readyz": true,
	"metrics": true, "admin": true, "root": true, "settings": true, "account": true,
	"assets": true, "docs": true, "help": true, "about": true, "www": true, "openvibe": true,
	"system": true, "support": true, "security": true, "well-known": true, "favicon": true,
	"robots": true, "null": true, "undefined": true, "me": true, "new": true,
}

// ValidUsername reports what is wrong with a username ("" when it is acceptable).
func ValidUsername(name string) string {
	switch {
	case !usernameRE.MatchString(name):
		return "Username must be 3 to 32 characters: letters, digits, _ or -"
	case reservedUsernames[strings.ToLower(name)]:
		return "Username is reserved"
	}
	return ""
}

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

type userView struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
}

type sessionResponse struct {
	User      userView  `json:"user"`
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

func (s *Server) register(c echo.Context) error {
	var in credentials
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	in.Username = strings.TrimSpace(in.Username)
	if msg := ValidUsername(in.Username); msg != "" {
		return echo.NewHTTPError(http.StatusBadRequest, msg)
	}
	if msg := validPassword(in.Password); msg != "" {
		return echo.NewHTTPError(http.StatusBadRequest, msg)
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := s.Store.CreateUser(ctx, in.Username, hash)
	if errors.Is(err, store.ErrConflict) {
		return echo.NewHTTPError(http.StatusConflict, "Username is already taken")
	}
	if err != nil {
		return err
	}
	s.Metrics.registrations.Inc()
	s.Logger.InfoContext(ctx, "account registered", "user_id", u.ID, "username", u.Username)
	return s.startSession(c, http.StatusCreated, u)
}

func validPassword(pw string) string {
	switch {
	case utf8.RuneCountInString(pw) < MinPasswordChars:
		return "Password must be at least 8 characters"
	case len(pw) > MaxPasswordBytes:
		return "Password must be at most 1024 bytes"
	}
	return ""
}

func (s *Server) login(c echo.Context) error {
	var in credentials
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	name := strings.TrimPrefix(strings.TrimSpace(in.Username), "@")
	var u store.User
	var err error
	if usernameRE.MatchString(name) {
		u, err = s.Store.UserByUsername(ctx, name)
	} else {
		err = store.ErrNotFound
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		auth.CheckPasswordUnknownUser(in.Password) // same work as a wrong password
	case err != nil:
		return err
	case auth.CheckPassword(u.PasswordHash, in.Password):
		s.Metrics.logins.WithLabelValues("ok").Inc()
		return s.startSession(c, http.StatusOK, u)
	}
	s.Metrics.logins.WithLabelValues("failed").Inc()
	return echo.NewHTTPError(http.StatusUnauthorized, "Invalid username or password")
}

// startSession issues a session JWT, sets it as the HttpOnly cookie and returns it.
func (s *Server) startSession(c echo.Context, status int, u store.User) error {
	now := s.Now()
	tok, exp, err := s.JWT.Issue(u.ID, u.Username, now)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{
		Name:     auth.CookieName,
		Value:    tok,
		Path:     "/",
		Expires:  exp,
		MaxAge:   int(exp.Sub(now).Seconds()),
		HttpOnly: true,
		Secure:   secureRequest(c.Request()),
		SameSite: http.SameSiteLaxMode,
	})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, sessionResponse{User: userView{ID: u.ID, Username: u.Username}, Token: tok, ExpiresAt: exp.UTC()})
}

// logout clears the session cookie. Session tokens are stateless: one copied elsewhere stays
// valid until it expires.
func (s *Server) logout(c echo.Context) error {
	c.SetCookie(&http.Cookie{
		Name:     auth.CookieName,
		Value:    "",
		Path:     "/",
		MaxAge:   -1,
		Expires:  time.Unix(0, 0),
		HttpOnly: true,
		Secure:   secureRequest(c.Request()),
		SameSite: http.SameSiteLaxMode,
	})
	return c.NoContent(http.StatusNoContent)
}

type meResponse struct {
	User   userView `json:"user"`
	Auth   string   `json:"auth"` // "session" or "token"
	Scopes []string `json:"scopes"`
}

func (s *Server) me(c echo.Context) error {
	p := principal(c)
	out := meResponse{User: userView{ID: p.UserID, Username: p.Username}, Auth: "session", Scopes: allScopes}
	if p.IsToken() {
		out.Auth = "token"
		out.Scopes = p.Scopes
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}
