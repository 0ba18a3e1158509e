package vibe

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
)

var (
	uuidRe      = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	integrityRe = regexp.MustCompile(`^(?:sha(?:1|224|256|384|512)-[A-Za-z0-9+/]+=*|h1:.*)$`)
)

// knownShapeSecret reports tokens whose shape alone says secret, whatever their entropy: a
// base32 TOTP seed (16 or 32 characters of A-Z2-7 with digits), an Atlassian personal
// access token (base64 of "<12 digits>:<random>"), a Salesforce org id.
func knownShapeSecret(tok string) bool {
	switch {
	case (len(tok) == 16 || len(tok) == 32) && base32Seed(tok):
		return true
	case len(tok) == 44 && strings.IndexByte("MNO", tok[0]) >= 0:
		b, err := base64.RawURLEncoding.DecodeString(tok[:40])
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(tok[:40])
		}
		return err == nil && len(b) == 30 && isDigits(string(b[:12])) && b[12] == ':'
	}
	return false
}

func base32Seed(tok string) bool {
	digits := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= '2' && c <= '7':
			digits++
		case c < 'A' || c > 'Z':
			return false
		}
	}
	return digits >= 2 && shannonEntropy(tok) >= 3.5
}

// highEntropySecret reports whether tok (a match of entropyToken) looks like a random secret:
// long, mixed character classes, high Shannon entropy, and not one of the random-looking
// strings code is full of (git SHAs and other hex digests, UUIDs, integrity hashes, paths,
// dotted names).
func highEntropySecret(tok string) bool {
	tok = strings.Trim(tok, "=.-_~/")
	if len(tok) < 20 || uuidRe.MatchString(tok) || integrityRe.MatchString(tok) || isHex(tok) {
		return false
	}
	if strings.Count(tok, "/") >= 2 && !strings.ContainsAny(tok, "+=") && !randomBase64(tok) {
		return false // a path
	}
	if strings.Count(tok, ".") >= 1 && !strings.HasPrefix(tok, "ey") && dottedWords(tok) {
		return false // a dotted identifier or host name
	}
	var lower, upper, digit int
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit++
		}
	}
	if digit < 2 || lower+upper < 4 {
		return false
	}
	classes := 0
	for _, n := range []int{lower, upper, digit} {
		if n > 0 {
			classes++
		}
	}
	if classes < 3 && len(tok) < 32 {
		return false
	}
	if meanRunLength(tok) >= 3.75 {
		return false // made of words: wantsHttp10KeepAlive, TLS12_CIPHER_SUITES
	}
	return shannonEntropy(tok) >= entropyThreshold(len(tok))
}

// randomBase64 reports whether a slash-separated token is one random base64 string (an AWS
// secret key such as wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp) rather than a path: long once
// the slashes are removed, and changing character class every one or two characters where
// path segments are words.
func randomBase64(tok string) bool {
	s := strings.ReplaceAll(tok, "/", "")
	return len(s) >= 30 && meanRunLength(s) < 2.2
}

// meanRunLength splits s into runs at lower-to-upper case changes, letter-digit changes and
// punctuation, and returns their mean length: identifiers are made of words (long runs),
// random strings change class every one or two characters.
func meanRunLength(s string) float64 {
	class := func(c byte) int {
		switch {
		case c >= 'a' && c <= 'z':
			return 1
		case c >= 'A' && c <= 'Z':
			return 2
		case c >= '0' && c <= '9':
			return 3
		}
		return 0
	}
	runs, letters := 0, 0
	prev := 0
	for i := 0; i < len(s); i++ {
		c := class(s[i])
		if c == 0 {
			prev = 0
			continue
		}
		letters++
		// upper→lower continues a word (Http); every other change starts a run.
		if c != prev && !(prev == 2 && c == 1) {
			runs++
		}
		prev = c
	}
	if runs == 0 {
		return 0
	}
	return float64(letters) / float64(runs)
}

// entropyThreshold grows with length up to 4.3 bits per character; random base64 or base62
// strings of 20+ characters score above it, identifiers and words below.
func entropyThreshold(n int) float64 {
	return min(4.3, 0.86*math.Log2(float64(n)))
}

func shannonEntropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// dottedWords reports whether every dot-separated part of s is a plain word or version
// number (golang.org.x.crypto, v1.2.3, foo.bar.baz).
func dottedWords(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if len(part) > 24 {
			return false
		}
		if hasDigitAndLetter(part) && len(part) > 8 {
			return false
		}
	}
	return true
}
