package vibe

import "strings"

// Text inside JSON string literals — a tool's arguments, a file written through a tool
// call, a transcript line quoted in another — reaches the rules as \" and \n instead of the
// quotes and line breaks it had, so a config file or a command line inside one loses the
// structure the rules read. The rules therefore run over a view of the text in which every
// escaped line break, tab and quote is written out again, at the same byte positions (the
// backslashes become blanks), so that what they find there masks the same bytes of the text.

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

// hasJSONEscape reports an escaped quote or line break.
func hasJSONEscape(s string) bool {
	return strings.Contains(s, `\"`) || strings.Contains(s, `\n`)
}
