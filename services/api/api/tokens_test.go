package api_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
)

func TestAPITokens(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv()
		alice := e.register("alice")
		bob := e.register("bob")

		tok := e.createToken(alice.Token, "read", "vibe_coding_publish", "read")
		require.True(t, strings.HasPrefix(tok.Token, "hbt_"))
		require.Equal(t, []string{"read", "vibe_coding_publish"}, tok.Scopes, "scopes deduplicated and sorted")
		require.Equal(t, "active", tok.Status)
		require.True(t, strings.HasPrefix(tok.Token, strings.TrimSuffix(tok.Hint, "…")))

		t.Run("the secret is never returned again", func(t *testing.T) {
			r := e.as(alice.Token).expect(http.MethodGet, "/api/tokens", nil, http.StatusOK, nil)
			require.NotContains(t, string(r.body), tok.Token)
			require.NotContains(t, string(r.body), `"token"`)
			require.NotContains(t, string(r.body), `"hash"`)
			var list struct {
				Tokens []tokenResp `json:"tokens"`
			}
			r.json(t, &list)
			require.Len(t, list.Tokens, 1)
			require.Equal(t, tok.ID, list.Tokens[0].ID)
			require.Empty(t, list.Tokens[0].Token)
		})

		t.Run("the secret is stored only as its SHA-256", func(t *testing.T) {
			stored, err := e.store.APITokenByHash(context.Background(), auth.HashAPIToken(tok.Token))
			require.NoError(t, err)
			require.Equal(t, tok.ID, stored.ID)
			require.NotContains(t, string(stored.Hash), tok.Token)
			if e.dbPath == "" {
				return
			}
			// Nothing in the SQLite files holds the token text.
			files, err := filepath.Glob(e.dbPath + "*")
			require.NoError(t, err)
			require.NotEmpty(t, files)
			for _, f := range files {
				raw, err := os.ReadFile(f)
				require.NoError(t, err)
				require.False(t, bytes.Contains(raw, []byte(tok.Token)), "token text found in %s", f)
				require.False(t, bytes.Contains(raw, []byte(tok.Token[4:])), "token text found in %s", f)
			}
		})

		t.Run("an API token authenticates but cannot manage tokens", func(t *testing.T) {
			var me struct {
				Auth   string   `json:"auth"`
				Scopes []string `json:"scopes"`
			}
			e.as(tok.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, &me)
			require.Equal(t, "token", me.Auth)
			require.Equal(t, tok.Scopes, me.Scopes)
			for _, req := range []struct{ method, path string }{
				{http.MethodPost, "/api/tokens"}, {http.MethodGet, "/api/tokens"}, {http.MethodDelete, "/api/tokens/1"},
			} {
				var body any
				if req.method == http.MethodPost {
					body = map[string]any{"name": "x", "scopes": []string{"read"}}
				}
				r := e.as(tok.Token).do(req.method, req.path, body)
				require.Equal(t, http.StatusForbidden, r.status, req.path)
			}
			// as a query parameter too (what WebSocket clients use)
			e.anon().expect(http.MethodGet, "/api/me?token="+tok.Token, nil, http.StatusOK, nil)
		})

		t.Run("invalid token requests are 400", func(t *testing.T) {
			for name, body := range map[string]map[string]any{
				"no scopes":      {"name": "x", "scopes": []string{}},
				"unknown scope":  {"name": "x", "scopes": []string{"admin"}},
				"no name":        {"name": "  ", "scopes": []string{"read"}},
				"long name":      {"name": strings.Repeat("n", 65), "scopes": []string{"read"}},
				"zero days":      {"name": "x", "scopes": []string{"read"}, "expires_in_days": 0},
				"too many days":  {"name": "x", "scopes": []string{"read"}, "expires_in_days": 4000},
				"days as string": {"name": "x", "scopes": []string{"read"}, "expires_in_days": "7"},
			} {
				r := e.as(alice.Token).do(http.MethodPost, "/api/tokens", body)
				require.Equal(t, http.StatusBadRequest, r.status, name)
				require.NotEmpty(t, r.errorMessage(t), name)
			}
		})

		t.Run("revoked tokens are rejected and revoking is owner-only", func(t *testing.T) {
			victim := e.createToken(alice.Token, "read")
			e.as(victim.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, nil)
			r := e.as(bob.Token).do(http.MethodDelete, "/api/tokens/"+itoa(victim.ID), nil)
			require.Equal(t, http.StatusNotFound, r.status, "bob cannot revoke alice's token")
			e.as(victim.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, nil)

			e.as(alice.Token).expect(http.MethodDelete, "/api/tokens/"+itoa(victim.ID), nil, http.StatusNoContent, nil)
			require.Equal(t, http.StatusUnauthorized, e.as(victim.Token).do(http.MethodGet, "/api/me", nil).status)
			require.Equal(t, http.StatusNotFound, e.as(alice.Token).do(http.MethodDelete, "/api/tokens/"+itoa(victim.ID), nil).status, "already revoked")
			require.Equal(t, http.StatusNotFound, e.as(alice.Token).do(http.MethodDelete, "/api/tokens/abc", nil).status)

			var list struct {
				Tokens []tokenResp `json:"tokens"`
			}
			e.as(alice.Token).expect(http.MethodGet, "/api/tokens", nil, http.StatusOK, &list)
			statuses := map[int64]string{}
			for _, tk := range list.Tokens {
				statuses[tk.ID] = tk.Status
			}
			require.Equal(t, "revoked", statuses[victim.ID])
		})

		t.Run("expired and unknown tokens are rejected", func(t *testing.T) {
			var short tokenResp
			e.as(alice.Token).expect(http.MethodPost, "/api/tokens", map[string]any{"name": "short", "scopes": []string{"read"}, "expires_in_days": 1}, http.StatusCreated, &short)
			e.as(short.Token).expect(http.MethodGet, "/api/me", nil, http.StatusOK, nil)

			unknown, _, _, err := auth.NewAPIToken()
			require.NoError(t, err)
			require.Equal(t, http.StatusUnauthorized, e.as(unknown).do(http.MethodGet, "/api/me", nil).status, "unknown token")
			require.Equal(t, http.StatusUnauthorized, e.as("hbt_short").do(http.MethodGet, "/api/me", nil).status, "malformed token")

			e.clock.Advance(24*time.Hour + time.Second)
			require.Equal(t, http.StatusUnauthorized, e.as(short.Token).do(http.MethodGet, "/api/me", nil).status, "expired token")
		})
	})
}
