package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
)

// allScopes are the scopes a token may hold.
var allScopes = []string{store.ScopeVibeCodingPublish, store.ScopeRead, store.ScopeStream, store.ScopeAgent}

// Token limits.
const (
	MaxTokenNameChars  = 64
	MaxTokenExpiryDays = 3650
	MaxActiveTokens    = 100
)

type createTokenRequest struct {
	Name          string   `json:"name"`
	Scopes        []string `json:"scopes"`
	ExpiresInDays *int     `json:"expires_in_days"`
}

type tokenView struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Hint       string     `json:"hint"`
	Scopes     []string   `json:"scopes"`
	Status     string     `json:"status"` // active, expired or revoked
	CreatedAt  time.Time  `json:"created_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

type createdToken struct {
	tokenView
	// Token is the secret, returned by this response only.
	Token string `json:"token"`
}

func viewToken(t store.APIToken, now time.Time) tokenView {
	status := "active"
	switch {
	case t.RevokedAt != nil:
		status = "revoked"
	case t.ExpiresAt != nil && !now.Before(*t.ExpiresAt):
		status = "expired"
	}
	scopes := t.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	return tokenView{
		ID: t.ID, Name: t.Name, Hint: t.Hint + "…", Scopes: scopes, Status: status,
		CreatedAt: t.CreatedAt.UTC(), ExpiresAt: utcPtr(t.ExpiresAt),
		LastUsedAt: utcPtr(t.LastUsedAt), RevokedAt: utcPtr(t.RevokedAt),
	}
}

func (s *Server) createToken(c echo.Context) error {
	var in createTokenRequest
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	name, scopes, err := validateToken(in)
	if err != nil {
		return err
	}
	p := principal(c)
	ctx := c.Request().Context()
	now := s.Now()
	existing, err := s.Store.ListAPITokens(ctx, p.UserID)
	if err != nil {
		return err
	}
	active := 0
	for _, t := range existing {
		if viewToken(t, now).Status == "active" {
			active++
		}
	}
	if active >= MaxActiveTokens {
		return echo.NewHTTPError(http.StatusConflict, fmt.Sprintf("At most %d active API tokens: revoke one first", MaxActiveTokens))
	}
	secret, hash, hint, err := auth.NewAPIToken()
	if err != nil {
		return err
	}
	t := store.APIToken{UserID: p.UserID, Name: name, Hash: hash, Hint: hint, Scopes: scopes, CreatedAt: now}
	if in.ExpiresInDays != nil {
		exp := now.Add(time.Duration(*in.ExpiresInDays) * 24 * time.Hour)
		t.ExpiresAt = &exp
	}
	t, err = s.Store.CreateAPIToken(ctx, t)
	if err != nil {
		return err
	}
	s.Metrics.tokensCreated.Inc()
	s.Logger.InfoContext(ctx, "api token created", "user_id", p.UserID, "token_id", t.ID, "scopes", scopes)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, createdToken{tokenView: viewToken(t, now), Token: secret})
}

func validateToken(in createTokenRequest) (string, []string, error) {
	bad := func(msg string) error { return echo.NewHTTPError(http.StatusBadRequest, msg) }
	name := strings.TrimSpace(in.Name)
	if n := utf8.RuneCountInString(name); n < 1 || n > MaxTokenNameChars || strings.ContainsFunc(name, isControl) {
		return "", nil, bad(fmt.Sprintf("name must be 1 to %d printable characters", MaxTokenNameChars))
	}
	if len(in.Scopes) == 0 {
		return "", nil, bad("scopes must list at least one of " + strings.Join(allScopes, ", "))
	}
	var scopes []string
	for _, sc := range in.Scopes {
		if !slices.Contains(allScopes, sc) {
			return "", nil, bad(fmt.Sprintf("unknown scope %q: use %s", sc, strings.Join(allScopes, ", ")))
		}
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	slices.Sort(scopes)
	if d := in.ExpiresInDays; d != nil && (*d < 1 || *d > MaxTokenExpiryDays) {
		return "", nil, bad(fmt.Sprintf("expires_in_days must be between 1 and %d", MaxTokenExpiryDays))
	}
	return name, scopes, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func (s *Server) listTokens(c echo.Context) error {
	p := principal(c)
	toks, err := s.Store.ListAPITokens(c.Request().Context(), p.UserID)
	if err != nil {
		return err
	}
	now := s.Now()
	out := make([]tokenView, 0, len(toks))
	for _, t := range toks {
		out = append(out, viewToken(t, now))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"tokens": out})
}

func (s *Server) revokeToken(c echo.Context) error {
	id, err := parseID(c.Param("id"), "Token not found")
	if err != nil {
		return err
	}
	p := principal(c)
	ctx := c.Request().Context()
	err = s.Store.RevokeAPIToken(ctx, p.UserID, id, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, "Token not found")
	}
	if err != nil {
		return err
	}
	s.Metrics.tokensRevoked.Inc()
	s.Logger.InfoContext(ctx, "api token revoked", "user_id", p.UserID, "token_id", id)
	return c.NoContent(http.StatusNoContent)
}
