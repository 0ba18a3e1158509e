package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"openvibe.live/backend/shared/store"
)

// ErrUnauthenticated is wrapped by every authentication failure: a missing, malformed,
// unknown, expired or revoked credential.
var ErrUnauthenticated = errors.New("authentication required")

// CookieName is the session cookie set by the api and read by every service.
const CookieName = "ov_token"

// touchEvery bounds how often a token's last_used_at is written.
const touchEvery = time.Minute

// Store is what authentication reads.
type Store interface {
	APITokenByHash(ctx context.Context, hash []byte) (store.APIToken, error)
	UserByID(ctx context.Context, id int64) (store.User, error)
	TouchAPIToken(ctx context.Context, tokenID int64, at time.Time) error
}

// Principal is an authenticated caller.
type Principal struct {
	UserID   int64
	Username string
	TokenID  int64 // the API token used; 0 for a JWT session
	Scopes   []string
}

// IsToken reports whether the caller used an API token.
func (p Principal) IsToken() bool { return p.TokenID != 0 }

// HasAnyScope reports whether the caller may act with one of scopes. A JWT is the user's own
// session and holds every scope; with no scopes given, any token qualifies.
func (p Principal) HasAnyScope(scopes ...string) bool {
	if !p.IsToken() || len(scopes) == 0 {
		return true
	}
	for _, s := range scopes {
		if slices.Contains(p.Scopes, s) {
			return true
		}
	}
	return false
}

// Authenticator resolves a bearer credential to a Principal.
type Authenticator struct {
	st  Store
	jwt *JWT
	now func() time.Time
}

func NewAuthenticator(st Store, jwt *JWT, now func() time.Time) *Authenticator {
	if now == nil {
		now = time.Now
	}
	return &Authenticator{st: st, jwt: jwt, now: now}
}

// Authenticate checks an hbt_ token or a JWT.
func (a *Authenticator) Authenticate(ctx context.Context, bearer string) (Principal, error) {
	bearer = strings.TrimSpace(bearer)
	switch {
	case bearer == "":
		return Principal{}, fmt.Errorf("%w: no credential", ErrUnauthenticated)
	case IsAPIToken(bearer):
		return a.apiToken(ctx, bearer)
	default:
		return a.session(ctx, bearer)
	}
}

func (a *Authenticator) apiToken(ctx context.Context, token string) (Principal, error) {
	if !wellFormedAPIToken(token) {
		return Principal{}, fmt.Errorf("%w: malformed token", ErrUnauthenticated)
	}
	hash := HashAPIToken(token)
	t, err := a.st.APITokenByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, fmt.Errorf("%w: unknown token", ErrUnauthenticated)
	}
	if err != nil {
		return Principal{}, fmt.Errorf("look up token: %w", err)
	}
	now := a.now()
	switch {
	case subtle.ConstantTimeCompare(t.Hash, hash) != 1:
		return Principal{}, fmt.Errorf("%w: unknown token", ErrUnauthenticated)
	case t.RevokedAt != nil:
		return Principal{}, fmt.Errorf("%w: revoked token", ErrUnauthenticated)
	case t.ExpiresAt != nil && !now.Before(*t.ExpiresAt):
		return Principal{}, fmt.Errorf("%w: expired token", ErrUnauthenticated)
	}
	u, err := a.st.UserByID(ctx, t.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, fmt.Errorf("%w: token owner gone", ErrUnauthenticated)
	}
	if err != nil {
		return Principal{}, fmt.Errorf("look up token owner: %w", err)
	}
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= touchEvery {
		if err := a.st.TouchAPIToken(ctx, t.ID, now); err != nil {
			return Principal{}, fmt.Errorf("record token use: %w", err)
		}
	}
	return Principal{UserID: u.ID, Username: u.Username, TokenID: t.ID, Scopes: t.Scopes}, nil
}

func (a *Authenticator) session(ctx context.Context, token string) (Principal, error) {
	if a.jwt == nil {
		return Principal{}, fmt.Errorf("%w: sessions not accepted", ErrUnauthenticated)
	}
	c, err := a.jwt.Verify(token, a.now())
	if err != nil {
		return Principal{}, err
	}
	u, err := a.st.UserByID(ctx, c.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, fmt.Errorf("%w: user gone", ErrUnauthenticated)
	}
	if err != nil {
		return Principal{}, fmt.Errorf("look up session user: %w", err)
	}
	return Principal{UserID: u.ID, Username: u.Username}, nil
}

// TokenFromRequest returns the credential of a request: the token query parameter, else an
// Authorization: Bearer header, else the ov_token cookie.
func TokenFromRequest(r *http.Request) string {
	if t := r.URL.Query().Get("token"); t != "" {
		return t
	}
	if h := r.Header.Get("Authorization"); h != "" {
		if scheme, t, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(t)
		}
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return c.Value
	}
	return ""
}
