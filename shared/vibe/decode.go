package vibe

import (
	"context"
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// urlEncodedToken is a run of non-space characters with at least one %XX escape.
var urlEncodedToken = regexp.MustCompile(`[^\s"'<>]*%[0-9A-Fa-f]{2}[^\s"'<>]*`)

const maxDecodeCandidates = 64

// decodeAndDetect looks inside base64 and URL-encoded runs: when the decoded text holds a
// secret (by any rule but the entropy fallback, or one the session has seen), the whole
// encoded run is masked.
func (s *Sanitizer) decodeAndDetect(ctx context.Context, text string, f *findings) {
	n := 0
	try := func(start, end int, decoded string) {
		n++
		if decoded == "" || expired(ctx) {
			return
		}
		inner := &findings{text: decoded}
		s.detect(ctx, decoded, inner, false)
		if len(inner.spans) > 0 {
			f.addSpan(ruleEncoded, start, end)
			for sec, rule := range inner.secrets {
				f.note(rule, sec)
			}
		}
	}
	forEachTokenRun(text, 16, func(start, end int) {
		if n >= maxDecodeCandidates || strings.ContainsAny(text[start:end], ".~") || inDataURI(text, start) {
			return
		}
		if d, ok := decodeBase64(text[start:end]); ok {
			try(start, end, d)
		}
	})
	if n >= maxDecodeCandidates || !strings.Contains(text, "%") {
		return
	}
	for _, loc := range urlEncodedToken.FindAllStringIndex(text, -1) {
		if n >= maxDecodeCandidates {
			return
		}
		if d, err := url.QueryUnescape(text[loc[0]:loc[1]]); err == nil && d != text[loc[0]:loc[1]] {
			try(loc[0], loc[1], d)
		}
	}
}

// decodeBase64 decodes s in any of the four base64 variants and reports whether the result
// is mostly printable text.
func decodeBase64(s string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(s)
		if err != nil || len(b) < 8 {
			continue
		}
		if printable(b) {
			return string(b), true
		}
	}
	return "", false
}

func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	bad := 0
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == utf8.RuneError {
			bad++
		}
	}
	return bad*20 <= len(b)
}
