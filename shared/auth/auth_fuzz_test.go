package auth

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"openvibe.live/backend/shared/store"
)

// FuzzJWTVerify: no input panics Verify, a token that verifies was signed with the secret
// (only the genuine token, verbatim, is ever accepted among the mutations the fuzzer makes
// of it), and a rejection always wraps ErrUnauthenticated.
func FuzzJWTVerify(f *testing.F) {
	j := fuzzJWT(f)
	now := time.Unix(1_800_000_000, 0)
	genuine, _, err := j.Issue(42, "ada", now)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		genuine, "", ".", "..", "a.b.c", genuine + "x", strings.ToUpper(genuine),
		"eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiI0MiJ9.",
		"eyJhbGciOiJIUzI1NiJ9.e30.ZZZZ", strings.Repeat("A", 4096),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, token string) {
		c, err := j.Verify(token, now)
		if err != nil {
			if !errors.Is(err, ErrUnauthenticated) {
				t.Fatalf("rejection does not wrap ErrUnauthenticated: %v", err)
			}
			return
		}
		// Nobody but the key holder can sign: whatever the fuzzer changed, a token that
		// verifies carries the genuine token's claims (base64url may spell the same bytes
		// in more than one way, which changes nothing).
		if c != (Claims{UserID: 42, Username: "ada"}) {
			t.Fatalf("%q verified with claims %+v", token, c)
		}
	})
}

// FuzzAuthenticate: a random credential never authenticates, whether it looks like an API
// token or a session token; only the one stored token does.
func FuzzAuthenticate(f *testing.F) {
	tok, hash, hint, err := NewAPIToken()
	if err != nil {
		f.Fatal(err)
	}
	st := &tokenStore{
		tokens: map[string]store.APIToken{string(hash): {ID: 1, UserID: 7, Hash: hash, Hint: hint, Scopes: []string{store.ScopeRead}}},
		users:  map[int64]store.User{7: {ID: 7, Username: "ada"}},
	}
	a := NewAuthenticator(st, fuzzJWT(f), func() time.Time { return time.Unix(1_800_000_000, 0) })
	for _, seed := range []string{tok, "", "hbt_", "hbt_" + strings.Repeat("A", 43), tok[:len(tok)-1], tok + "A",
		" " + tok + " ", "HBT_" + tok[4:], "Bearer " + tok, "hbt_" + strings.Repeat("é", 43)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cred string) {
		p, err := a.Authenticate(context.Background(), cred)
		if err != nil {
			if !errors.Is(err, ErrUnauthenticated) {
				t.Fatalf("rejection does not wrap ErrUnauthenticated: %v", err)
			}
			return
		}
		if strings.TrimSpace(cred) != tok {
			t.Fatalf("%q authenticated as %+v", cred, p)
		}
		if p.UserID != 7 || p.TokenID != 1 {
			t.Fatalf("the stored token authenticated as %+v", p)
		}
	})
}

func fuzzJWT(f *testing.F) *JWT {
	j, err := NewJWT(JWTConfig{Secret: []byte(secretA), Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	if err != nil {
		f.Fatal(err)
	}
	return j
}
