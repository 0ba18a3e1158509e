package vibe

import (
	"context"
	"encoding/base64"
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
	// pos, when set, maps each byte of decoded to where it starts in text[start:end]: only
	// what holds the secret is masked then, so a URL keeps its scheme, host and path.
	try := func(start, end int, decoded string, pos []int) {
		n++
		if decoded == "" || expired(ctx) {
			return
		}
		inner := &findings{text: decoded}
		s.detect(ctx, decoded, inner, false)
		if len(inner.spans) > 0 {
			if pos == nil {
				f.addSpan(ruleEncoded, start, end)
			}
			for _, sp := range inner.spans {
				if pos != nil {
					// To the end of the parameter's value: what the rule left of a value
					// read apart from the URL (a blank for a +) goes with it. A userinfo's
					// password ends at its @, before the host.
					e := start + pos[sp.end]
					if i := strings.IndexAny(text[e:end], "&#@"); i >= 0 {
						e += i
					} else {
						e = end
					}
					f.addSpan(ruleEncoded, start+pos[sp.start], e)
				}
			}
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
			try(start, end, d, nil)
		}
	})
	if n >= maxDecodeCandidates || !strings.Contains(text, "%") {
		return
	}
	for _, loc := range urlEncodedToken.FindAllStringIndex(text, -1) {
		if n >= maxDecodeCandidates {
			return
		}
		if d, pos, ok := queryUnescape(text[loc[0]:loc[1]]); ok && d != text[loc[0]:loc[1]] {
			try(loc[0], loc[1], d, pos)
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

// queryUnescape decodes s as url.QueryUnescape does (%XX escapes, + for a blank) and maps
// each byte of the result, and its end, to where it starts in s.
func queryUnescape(s string) (string, []int, bool) {
	var b strings.Builder
	pos := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		pos = append(pos, i)
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1:i+3]) {
				return "", nil, false
			}
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 3
		case c == '+':
			b.WriteByte(' ')
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), append(pos, len(s)), true
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
