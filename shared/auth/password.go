// Package auth verifies who is calling: password hashes for accounts, JWT user sessions and
// hbt_ API tokens with scopes.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters (OWASP: m=19 MiB, t=2, p=1).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// MaxPasswordBytes bounds the work an attacker can ask for with one login.
const MaxPasswordBytes = 1024

var b64 = base64.RawStdEncoding

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(pw string) (string, error) {
	if len(pw) > MaxPasswordBytes {
		return "", errors.New("password too long")
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("read salt: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether pw matches hash, in constant time for a given hash.
// A malformed hash never matches.
func CheckPassword(hash, pw string) bool {
	if len(pw) > MaxPasswordBytes {
		return false
	}
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	var mem, iter uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iter, &threads); err != nil {
		return false
	}
	if mem == 0 || mem > 1<<20 || iter == 0 || iter > 16 || threads == 0 {
		return false
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, iter, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked against when a login names an unknown user, so that the response time
// does not reveal whether the account exists.
var dummyHash, _ = HashPassword("openvibe-timing-equalizer")

// CheckPasswordUnknownUser spends the time CheckPassword would and returns false.
func CheckPasswordUnknownUser(pw string) bool {
	CheckPassword(dummyHash, pw)
	return false
}
