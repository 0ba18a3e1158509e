package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// TokenPrefix starts every API token.
const TokenPrefix = "hbt_"

// tokenBytes is the randomness in a token: 256 bits.
const tokenBytes = 32

var tokenEncoding = base64.RawURLEncoding

// tokenLen is the length of a well-formed token.
var tokenLen = len(TokenPrefix) + tokenEncoding.EncodedLen(tokenBytes)

// NewAPIToken returns a new token (shown once), its SHA-256 (the only thing stored) and a
// short hint for listings.
func NewAPIToken() (token string, hash []byte, hint string, err error) {
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", nil, "", fmt.Errorf("read token randomness: %w", err)
	}
	token = TokenPrefix + tokenEncoding.EncodeToString(raw)
	return token, HashAPIToken(token), token[:len(TokenPrefix)+4], nil
}

// HashAPIToken is the stored form of a token.
func HashAPIToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// IsAPIToken reports whether s has the shape of an API token (as opposed to a JWT).
func IsAPIToken(s string) bool { return strings.HasPrefix(s, TokenPrefix) }

func wellFormedAPIToken(s string) bool {
	if len(s) != tokenLen || !IsAPIToken(s) {
		return false
	}
	_, err := tokenEncoding.DecodeString(s[len(TokenPrefix):])
	return err == nil
}
