package main

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/vibe"
)

// claimsFor are the claims the server issues for a user, valid for an hour.
func claimsFor(tn *tenant) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{
		"username": tn.username, "sub": strconv.FormatInt(tn.id, 10),
		"iss": "openvibe.live", "aud": []string{"openvibe.live"},
		"iat": now.Unix(), "nbf": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

func sign(t *testing.T, m jwt.SigningMethod, claims jwt.MapClaims, key any) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	require.NoError(t, err)
	return s
}

func with(c jwt.MapClaims, k string, v any) jwt.MapClaims {
	out := jwt.MapClaims{}
	for kk, vv := range c {
		out[kk] = vv
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

// forgedTokens are session tokens for tn that must all be refused.
func forgedTokens(t *testing.T, tn *tenant, other *tenant) map[string]string {
	t.Helper()
	key := []byte(testJWTSecret)
	c := claimsFor(tn)
	genuine := sign(t, jwt.SigningMethodHS256, c, key)
	parts := strings.Split(genuine, ".")
	// The same signature over claims naming another user.
	otherPayload := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil,
		`{"username":%q,"sub":"%d","iss":"openvibe.live","aud":["openvibe.live"],"exp":%d}`, other.username, other.id, time.Now().Add(time.Hour).Unix()))
	flipped := []byte(parts[2])
	flipped[3] ^= 1
	noneHeader := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	return map[string]string{
		"alg none":           sign(t, jwt.SigningMethodNone, c, jwt.UnsafeAllowNoneSignatureType),
		"alg none, no sig":   noneHeader + "." + parts[1] + ".",
		"alg NONE":           base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"NONE","typ":"JWT"}`)) + "." + parts[1] + ".",
		"HS512 right key":    sign(t, jwt.SigningMethodHS512, c, key),
		"HS384 right key":    sign(t, jwt.SigningMethodHS384, c, key),
		"wrong key":          sign(t, jwt.SigningMethodHS256, c, []byte("another-secret-of-enough-length-123456")),
		"empty key":          sign(t, jwt.SigningMethodHS256, c, []byte{}),
		"wrong issuer":       sign(t, jwt.SigningMethodHS256, with(c, "iss", "evil.example"), key),
		"no issuer":          sign(t, jwt.SigningMethodHS256, with(c, "iss", nil), key),
		"wrong audience":     sign(t, jwt.SigningMethodHS256, with(c, "aud", []string{"evil.example"}), key),
		"no audience":        sign(t, jwt.SigningMethodHS256, with(c, "aud", nil), key),
		"expired":            sign(t, jwt.SigningMethodHS256, with(c, "exp", time.Now().Add(-time.Second).Unix()), key),
		"no expiry":          sign(t, jwt.SigningMethodHS256, with(c, "exp", nil), key),
		"not yet valid":      sign(t, jwt.SigningMethodHS256, with(c, "nbf", time.Now().Add(time.Hour).Unix()), key),
		"bad subject":        sign(t, jwt.SigningMethodHS256, with(c, "sub", "0"), key),
		"flipped signature":  parts[0] + "." + parts[1] + "." + string(flipped),
		"swapped payload":    parts[0] + "." + otherPayload + "." + parts[2],
		"truncated":          genuine[:len(genuine)-5],
		"garbage":            "eyJhbGciOiJIUzI1NiJ9.not-base64!.sig",
		"hbt_ prefix on jwt": "hbt_" + genuine,
	}
}

// A forged or tampered session token is refused everywhere a session is accepted: REST
// (header and cookie), the publisher socket (4401) and chat.send (the viewer stays
// anonymous). A genuine token minted the same way is accepted, so the forgeries fail for
// the reason they were made.
func testJWTTampering(t *testing.T, s *secServer) {
	a := s.newTenant("danajwt", "dana-slot", "Dana")
	b := s.newTenant("eddiejwt", "eddie-slot", "Eddie")
	genuine := sign(t, jwt.SigningMethodHS256, claimsFor(a), []byte(testJWTSecret))
	s.must(http.StatusOK, "GET", "/api/me", genuine, nil, nil)
	settings := fmt.Sprintf("/api/vibe-coding/managed/%d/settings", a.slotID)
	for name, tok := range forgedTokens(t, a, b) {
		r := s.request("GET", "/api/me", tok, nil, nil)
		require.Equal(t, http.StatusUnauthorized, r.status, "%s: %s", name, r)
		require.Equal(t, "Authentication required", r.errorText(t))
		r = s.request("GET", "/api/me", "", nil, http.Header{"Cookie": {auth.CookieName + "=" + tok}})
		require.Equal(t, http.StatusUnauthorized, r.status, "%s (cookie): %s", name, r)
		r = s.request("PUT", settings, tok, map[string]any{"settings": map[string]any{"paused": 1}}, nil)
		require.Equal(t, http.StatusUnauthorized, r.status, "%s: %s", name, r)

		k := s.publishSocket(tok, a.slotID, "")
		code, reason, msgs := k.closed()
		require.Equal(t, vibe.CloseUnauthorized, int(code), "%s: %v", name, msgs)
		require.Equal(t, vibe.ReasonAuthRequired, reason)

		v, w := s.viewer(a.username, a.slug, tok)
		require.Nil(t, w["user"], "%s: the viewer must stay anonymous", name)
		v.send(map[string]any{"type": "chat.send", "text": "forged " + name})
		require.Equal(t, "log in to chat", v.expect("error")["error"], name)
		v.close()
	}
	// Nothing the forgeries tried took effect.
	var got struct{ Settings vibe.Settings }
	s.must(http.StatusOK, "GET", settings, a.session, nil, &got)
	require.Equal(t, 0, got.Settings.Paused)
	v, _ := s.viewer(a.username, a.slug, "")
	history := v.expect("chat.history")
	require.NotContains(t, fmt.Sprint(history), "forged", "no forged chat message was stored")
}
