package vibe

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ellipsis marks text cut short.
const Ellipsis = "…"

// truncateRunes cuts s to at most n characters, on a character boundary. When it cuts, the
// result ends with mark and, mark included, still has at most n characters.
func truncateRunes(s string, n int, mark string) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n { // fast path: byte length bounds the rune count
		return s
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	keep := n - utf8.RuneCountInString(mark)
	if keep < 0 {
		keep = 0
		mark = ""
	}
	i, count := 0, 0
	for i < len(s) && count < keep {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i] + mark
}

// cleanControl replaces invalid UTF-8 and removes terminal escape sequences, control
// characters, zero-width and bidirectional formatting characters. With keepLines, newlines
// and tabs survive (CRLF and lone CR become LF); without it they become spaces.
func cleanControl(s string, keepLines bool) string {
	s = stripANSI(s)
	if isPlainText(s, keepLines) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				continue
			}
			r = '\n'
			fallthrough
		case r == '\n' || r == '\t':
			if keepLines {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case unicode.IsControl(r) || isInvisibleFormat(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPlainText reports whether s is valid UTF-8 without anything cleanControl would change,
// so the common case costs one pass and no allocation.
func isPlainText(s string, keepLines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return isPlainUnicode(s[i:], keepLines)
		}
		if c < 0x20 || c == 0x7f {
			if !keepLines || (c != '\n' && c != '\t') {
				return false
			}
		}
	}
	return true
}

func isPlainUnicode(s string, keepLines bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '\r' || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return false
		}
		if !keepLines && (r == '\n' || r == '\t') {
			return false
		}
		if r >= 0x80 && (unicode.IsControl(r) || isInvisibleFormat(r)) {
			return false
		}
	}
	return true
}

// isInvisibleFormat reports zero-width and bidirectional formatting characters, which can
// hide text from a reader or split a secret so that no pattern matches it.
func isInvisibleFormat(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F, // zero-width space/joiners, LRM, RLM
		r >= 0x202A && r <= 0x202E, // bidi embeddings and overrides
		r >= 0x2060 && r <= 0x2064, // word joiner, invisible operators
		r >= 0x2066 && r <= 0x2069, // bidi isolates
		r == 0xFEFF, r == 0x00AD, r == 0x180E:
		return true
	}
	return false
}

// stripANSI removes terminal escape sequences whole, before any rule runs: ESC [ … final
// (colours, cursor moves), ESC ] … BEL or ESC \ (titles, hyperlinks), two-character ESC
// sequences, their C1 forms, the same written as escapes in JSON or shell text (\u001b[,
// \x1b[, \033[, \e[), and SGR remnants whose ESC was already dropped ([90m/home/…), so
// that no "[90m" stays glued to the path after it.
func stripANSI(s string) string {
	hasESC := strings.IndexByte(s, 0x1b) >= 0 || strings.ContainsRune(s, 0x9b)
	if hasESC {
		s = ansiSeq.ReplaceAllString(s, "")
	}
	if strings.IndexByte(s, '\\') >= 0 && strings.Contains(s, "[") && hasEscapedESC(s) {
		s = escapedANSI.ReplaceAllString(s, "")
	}
	if strings.IndexByte(s, '[') >= 0 && strings.IndexByte(s, 'm') >= 0 && hasBracketDigit(s) {
		s = sgrRemnant.ReplaceAllString(s, "")
	}
	return s
}

// hasEscapedESC reports whether s holds one of the written-out escapes escapedANSI opens
// with (\u001b, \x1b, \033, \e[): JSON-escaped text holds backslashes and brackets
// everywhere, and the expression run over a 4 KB tool call cost 6% of its sanitizing.
func hasEscapedESC(s string) bool {
	for i := strings.IndexByte(s, '\\'); i >= 0; {
		r := s[i+1:]
		if strings.HasPrefix(r, "u001") || strings.HasPrefix(r, "x1") || strings.HasPrefix(r, "033") || strings.HasPrefix(r, "e[") {
			return true
		}
		j := strings.IndexByte(r, '\\')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// hasBracketDigit reports whether s holds a [ followed by a digit, as every SGR remnant does.
func hasBracketDigit(s string) bool {
	for i := strings.IndexByte(s, '['); i >= 0 && i+1 < len(s); {
		if isDigitByte(s[i+1]) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '[')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

var (
	ansiSeq     = regexp.MustCompile("(?:\x1b\\[|\u009b)[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[@-Z\\\\-_]")
	escapedANSI = regexp.MustCompile(`(?:\\u001[bB]|\\x1[bB]|\\033|\\e)\[[0-?]*[ -/]*[@-~]`)
	// sgrRemnant is a colour code whose ESC is gone: [0m, [1;32m, [38;5;245m.
	sgrRemnant = regexp.MustCompile(`\[\d{1,3}(?:;\d{1,3}){0,4}m`)
)
