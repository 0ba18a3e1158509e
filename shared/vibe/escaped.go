package vibe

import "strings"

// Text inside JSON string literals — a tool's arguments, a file written through a tool
// call, a transcript line quoted in another — reaches the rules as \" and \n instead of the
// quotes and line breaks it had, so a config file or a command line inside one loses the
// structure the rules read. The rules therefore run over a view of the text in which every
// escaped line break, tab and quote is written out again, at the same byte positions (the
// backslashes become blanks), so that what they find there masks the same bytes of the text.
// A \u escape of a printable ASCII character (Go's encoding/json writes <, > and & so)
// becomes that character and blanks.

// escapeView returns text with its escaped line breaks, tabs and quotes written out in
// place, or text itself when it has none. A run of backslashes before n, r, t or " is one
// escape whatever its length: a string escaped twice (JSON inside JSON) reads the same.
func escapeView(text string) string {
	if !hasJSONEscape(text) {
		return text
	}
	b := []byte(text)
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		j := i
		for j < len(b) && b[j] == '\\' {
			j++
		}
		if j >= len(b) {
			break
		}
		switch b[j] {
		case 'u':
			// \u003c, \u0026 (Go escapes <, > and & so): the character, then blanks.
			if r, ok := hex4(text, j+1); ok && r >= 0x20 && r < 0x7f {
				for k := i; k <= j+4; k++ {
					b[k] = ' '
				}
				// An opening character goes last, next to what it opens (     <password),
				// any other first, next to what it ends (password>     ).
				if strings.IndexByte("<([{", byte(r)) >= 0 {
					b[j+4] = byte(r)
				} else {
					b[i] = byte(r)
				}
				i = j + 4
				continue
			}
		case 'n', 'r', 't':
			c := byte('\n')
			if b[j] == 't' {
				c = '\t'
			} else if b[j] == 'r' {
				c = ' '
			}
			// The break first, so the next line starts where the escape did.
			b[i] = c
			for k := i + 1; k <= j; k++ {
				b[k] = ' '
			}
		case '"':
			if closingQuote(b, i, j) {
				b[i] = '"' // abc\" → abc"  : the quote right after the value
				for k := i + 1; k <= j; k++ {
					b[k] = ' '
				}
			} else {
				for k := i; k < j; k++ { // = \"abc → =  "abc: the quote right before it
					b[k] = ' '
				}
			}
		}
		i = j
	}
	return string(b)
}

// closingQuote reports whether the escaped quote whose backslashes start at i and whose
// quote is at j closes a string: a value character before it and none after.
func closingQuote(b []byte, i, j int) bool {
	if i == 0 {
		return false
	}
	prev := b[i-1]
	if prev == ' ' || prev == '\t' || prev == '\n' || strings.IndexByte(":=([{,", prev) >= 0 {
		return false
	}
	return j+1 >= len(b) || strings.IndexByte(" \t\n,;:)]}&|", b[j+1]) >= 0 || b[j+1] == '\\'
}

// hasJSONEscape reports an escaped quote, line break or \u escape.
func hasJSONEscape(s string) bool {
	return strings.Contains(s, `\"`) || strings.Contains(s, `\n`) || strings.Contains(s, `\u00`)
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
