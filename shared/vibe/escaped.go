package vibe

import (
	"context"
	"strings"
	"unicode/utf8"
)

// Text inside JSON string literals that hold escapes — a tool's arguments, a file written
// through a tool call, a transcript line quoted in another — reaches the rules as \" and \n
// instead of the quotes and line breaks it had, so a config file or a command line inside
// one loses the structure the rules read. Each such literal is unescaped (one level inside
// another too) and the rules run over the result; what they find there is masked where the
// escaped text spells it.

// maxEscapedLiterals bounds the literals unescaped per text.
const maxEscapedLiterals = 32

// findEscaped runs the rules over the unescaped contents of the JSON string literals of text
// that hold escapes, and records their findings as spans of text.
func (s *Sanitizer) findEscaped(ctx context.Context, text string, f *findings, depth int) {
	if !hasJSONEscape(text) {
		return
	}
	for i, lit := range escapedLiterals(text) {
		if i >= maxEscapedLiterals || expired(ctx) {
			return
		}
		dec, pos := unescapeJSON(text[lit.start:lit.end])
		if len(dec) < 8 {
			continue
		}
		inner := &findings{text: dec}
		s.detect(ctx, dec, inner, true)
		if depth == 0 {
			s.findEscaped(ctx, dec, inner, 1)
		}
		for _, sp := range inner.spans {
			f.spans = append(f.spans, span{start: lit.start + pos[sp.start], end: lit.start + pos[sp.end], rule: sp.rule, class: sp.class})
		}
		for sec, rule := range inner.secrets {
			f.note(rule, sec)
		}
	}
}

// hasJSONEscape reports an escaped quote or line break.
func hasJSONEscape(s string) bool {
	return strings.Contains(s, `\"`) || strings.Contains(s, `\n`)
}

// escapedLiterals returns the contents of the JSON string literals in text that hold an
// escape, as spans of text: from an opening quote to the next quote no backslash escapes,
// or to the end of the text when a preview cut the literal short.
func escapedLiterals(text string) []piece {
	var out []piece
	for i := 0; i < len(text); i++ {
		if text[i] != '"' || escapedAt(text, i) {
			continue
		}
		start, escapes := i+1, false
		j := start
		for ; j < len(text); j++ {
			if text[j] == '\\' && j+1 < len(text) {
				escapes = escapes || strings.IndexByte(`"\/bfnrtu`, text[j+1]) >= 0
				j++
				continue
			}
			if text[j] == '"' {
				break
			}
		}
		if escapes && j-start >= 16 {
			out = append(out, piece{start, j})
		}
		i = j
	}
	return out
}

// escapedAt reports whether the byte at i is escaped by an odd run of backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// unescapeJSON decodes the escapes of a JSON string's contents (invalid ones are kept as
// written) and returns, for each byte of the result and one past its end, the offset in s
// it came from.
func unescapeJSON(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	pos := make([]int, 0, len(s)+1)
	emit := func(str string, at int) {
		for k := 0; k < len(str); k++ {
			pos = append(pos, at)
		}
		b.WriteString(str)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			pos = append(pos, i)
			b.WriteByte(c)
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			emit(string(e), i)
			i++
		case 'n':
			emit("\n", i)
			i++
		case 'r':
			emit("\r", i)
			i++
		case 't':
			emit("\t", i)
			i++
		case 'b', 'f':
			emit(" ", i)
			i++
		case 'u':
			if r, ok := hex4(s, i+2); ok {
				if !utf8.ValidRune(r) || r < 0x20 {
					r = ' '
				}
				emit(string(r), i)
				i += 5
				continue
			}
			pos = append(pos, i)
			b.WriteByte(c)
		default:
			pos = append(pos, i)
			b.WriteByte(c)
		}
	}
	pos = append(pos, len(s))
	return b.String(), pos
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for k := i; k < i+4; k++ {
		c := s[k]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
