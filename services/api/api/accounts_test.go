package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
)

func TestAccounts(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()

		t.Run("register returns the user, a session token and an HttpOnly cookie", func(t *testing.T) {
			r := e.anon().with("X-Forwarded-Proto", "https").expect(http.MethodPost, "/api/auth/register",
				map[string]string{"username": "Alice", "password": "correct horse battery"}, http.StatusCreated, nil)
			var s session
			r.json(t, &s)
			require.Equal(t, "Alice", s.User.Username)
			require.Positive(t, s.User.ID)
			require.NotEmpty(t, s.Token)
			require.NotContains(t, string(r.body), "password")
			cookie := r.header.Get("Set-Cookie")
			require.Contains(t, cookie, auth.CookieName+"="+s.Token)
			require.Contains(t, cookie, "HttpOnly")
			require.Contains(t, cookie, "SameSite=Lax")
			require.Contains(t, cookie, "Secure", "behind a TLS proxy the cookie is Secure")

			var me struct {
				Auth string `json:"auth"`
			}
			e.as(s.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, &me)
			require.Equal(t, "session", me.Auth)
			// the cookie alone authenticates too
			e.anon().with("Cookie", auth.CookieName+"="+s.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, nil)
		})

		t.Run("a plain-HTTP register sets a cookie without Secure", func(t *testing.T) {
			r := e.anon().expect(http.MethodPost, "/api/auth/register",
				map[string]string{"username": "plain_http", "password": "correct horse battery"}, http.StatusCreated, nil)
			require.NotContains(t, r.header.Get("Set-Cookie"), "Secure")
		})

		t.Run("duplicate username is 409, case-insensitively", func(t *testing.T) {
			for _, name := range []string{"Alice", "alice", "ALICE"} {
				r := e.anon().do(http.MethodPost, "/api/auth/register", map[string]string{"username": name, "password": "another password"})
				require.Equal(t, http.StatusConflict, r.status, name)
				require.Equal(t, "Username is already taken", r.errorMessage(t))
			}
		})

		t.Run("invalid registrations are 400 with a reason", func(t *testing.T) {
			cases := []struct {
				name, username, password, want string
			}{
				{"too short", "ab", "long enough pw", "Username must be 3 to 32 characters"},
				{"too long", strings.Repeat("a", 33), "long enough pw", "Username must be 3 to 32 characters"},
				{"bad charset", "al ice", "long enough pw", "Username must be 3 to 32 characters"},
				{"unicode", "alïce", "long enough pw", "Username must be 3 to 32 characters"},
				{"reserved page route", "studio", "long enough pw", "Username is reserved"},
				{"reserved api", "API", "long enough pw", "Username is reserved"},
				{"short password", "bob_ok", "short", "Password must be at least 8 characters"},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					r := e.anon().do(http.MethodPost, "/api/auth/register", map[string]string{"username": tc.username, "password": tc.password})
					require.Equal(t, http.StatusBadRequest, r.status)
					require.Contains(t, r.errorMessage(t), tc.want)
				})
			}
		})

		t.Run("malformed bodies are 4xx with a JSON error", func(t *testing.T) {
			cases := []struct {
				name   string
				body   string
				ctype  string
				status int
			}{
				{"not json", "{", "application/json", http.StatusBadRequest},
				{"unknown field", `{"username":"x","password":"y","admin":true}`, "application/json", http.StatusBadRequest},
				{"wrong type", `{"username":1,"password":"y"}`, "application/json", http.StatusBadRequest},
				{"empty", ``, "application/json", http.StatusBadRequest},
				{"form post", `username=x&password=y`, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					r := e.anon().with("Content-Type", tc.ctype).do(http.MethodPost, "/api/auth/register", tc.body)
					require.Equal(t, tc.status, r.status, string(r.body))
					require.NotEmpty(t, r.errorMessage(t))
				})
			}
		})

		t.Run("login", func(t *testing.T) {
			var s session
			e.anon().expect(http.MethodPost, "/api/auth/login", map[string]string{"username": "@alice", "password": "correct horse battery"}, http.StatusOK, &s)
			require.Equal(t, "Alice", s.User.Username)
			e.as(s.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, nil)

			for name, body := range map[string]map[string]string{
				"wrong password": {"username": "alice", "password": "wrong horse battery"},
				"unknown user":   {"username": "nobody_here", "password": "correct horse battery"},
				"invalid name":   {"username": "no such user!", "password": "correct horse battery"},
			} {
				r := e.anon().do(http.MethodPost, "/api/auth/login", body)
				require.Equal(t, http.StatusUnauthorized, r.status, name)
				require.Equal(t, "Invalid username or password", r.errorMessage(t), name)
				require.Empty(t, r.header.Get("Set-Cookie"), name)
			}
		})

		t.Run("logout clears the cookie", func(t *testing.T) {
			r := e.anon().expect(http.MethodPost, "/api/auth/logout", nil, http.StatusNoContent, nil)
			require.Contains(t, r.header.Get("Set-Cookie"), auth.CookieName+"=;")
			require.Contains(t, r.header.Get("Set-Cookie"), "Max-Age=0")
		})

		t.Run("me without credentials is 401", func(t *testing.T) {
			r := e.anon().do(http.MethodGet, "/api/me", nil)
			require.Equal(t, http.StatusUnauthorized, r.status)
			require.Equal(t, "Authentication required", r.errorMessage(t))
		})
	})
}

func TestSessionTokensRejected(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		s := e.register("carol")
		now := e.clock.Now()
		claims := jwt.MapClaims{
			"sub": strconv.FormatInt(s.User.ID, 10), "username": "carol", "iss": "openvibe.live", "aud": "openvibe.live",
			"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		}

		otherKey, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("another-secret-another-secret-0123456789"))
		require.NoError(t, err)
		none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
		require.NoError(t, err)
		hs512, err := jwt.NewWithClaims(jwt.SigningMethodHS512, claims).SignedString(testSecret)
		require.NoError(t, err)
		wrongAud := jwt.MapClaims{}
		for k, v := range claims {
			wrongAud[k] = v
		}
		wrongAud["aud"] = "someone-else"
		otherAud, err := jwt.NewWithClaims(jwt.SigningMethodHS256, wrongAud).SignedString(testSecret)
		require.NoError(t, err)
		good, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(testSecret)
		require.NoError(t, err)
		e.as(good).expect(http.MethodGet, "/api/me", nil, http.StatusOK, nil) // the control

		for name, tok := range map[string]string{
			"signed with another key": otherKey,
			"alg none":                none,
			"another algorithm":       hs512,
			"another audience":        otherAud,
			"garbage":                 "not.a.jwt",
		} {
			r := e.as(tok).do(http.MethodGet, "/api/me", nil)
			require.Equal(t, http.StatusUnauthorized, r.status, name)
		}

		e.clock.Advance(time.Hour + time.Second)
		r := e.as(s.Token).do(http.MethodGet, "/api/me", nil)
		require.Equal(t, http.StatusUnauthorized, r.status, "expired session")
	})
}
