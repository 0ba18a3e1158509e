package vibe

import "strings"

// keywordStems find candidate key names for the keyword-assignment rule; nameHasSecretWord
// then decides on the whole name.
var keywordStems = []string{"pass", "pwd", "secret", "token", "key", "cred", "dsn", "auth"}

// findKeywordAssignments is the keyword-assignment rule: NAME=value, NAME: value,
// "name": "value", name := "value", name => 'value' where the key name says secret. It is
// written out by hand because, as a regular expression, it cost more than every other rule
// together. It records each value that keepKeyword accepts.
func findKeywordAssignments(chunk, lower string, off int, f *findings) {
	for _, stem := range keywordStems {
		for from := 0; ; {
			i := strings.Index(lower[from:], stem)
			if i < 0 {
				break
			}
			i += from
			from = i + len(stem)
			nameStart, nameEnd := i, i+len(stem)
			for nameStart > 0 && i-nameStart < 60 && isNameByte(chunk[nameStart-1]) {
				nameStart--
			}
			for nameEnd < len(chunk) && nameEnd-i < 60 && isNameByte(chunk[nameEnd]) {
				nameEnd++
			}
			from = max(from, nameEnd)
			name := chunk[nameStart:nameEnd]
			if !nameHasSecretWord(name) {
				continue
			}
			vs, ve, ok := assignedValue(chunk, nameEnd)
			if !ok {
				continue
			}
			for ve > vs && chunk[ve-1] == '\\' {
				ve--
			}
			if keepKeyword(name, chunk[vs:ve]) {
				f.addSpan(ruleKeyword, off+vs, off+ve)
			}
		}
	}
}

func isNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

// assignedValue parses `["']? ws? op ws? ["']? value` after a key name and returns the
// value's span. The operators are = := ::= ?= : => and ->; == and != are comparisons.
func assignedValue(s string, i int) (int, int, bool) {
	i = skipEscapedQuote(s, i, 0)
	i = skipBlanks(s, i, 4)
	if i >= len(s) {
		return 0, 0, false
	}
	switch {
	case strings.HasPrefix(s[i:], "::="):
		i += 3
	case strings.HasPrefix(s[i:], ":="), strings.HasPrefix(s[i:], "?="), strings.HasPrefix(s[i:], "=>"), strings.HasPrefix(s[i:], "->"):
		i += 2
	case s[i] == '=':
		if i+1 < len(s) && s[i+1] == '=' {
			return 0, 0, false
		}
		i++
	case s[i] == ':':
		if i+1 < len(s) && s[i+1] == ':' {
			return 0, 0, false
		}
		i++
	default:
		return 0, 0, false
	}
	i = skipBlanks(s, i, 4)
	i = skipEscapedQuote(s, i, 1)
	if i >= len(s) {
		return 0, 0, false
	}
	if q := s[i]; q == '"' || q == '\'' || q == '`' {
		end := strings.IndexByte(s[i+1:], q)
		nl := strings.IndexByte(s[i+1:], '\n')
		if end <= 0 || end > 400 || (nl >= 0 && nl < end) {
			return 0, 0, false
		}
		return i + 1, i + 1 + end, true
	}
	start := i
	for i < len(s) && i-start < 400 && !strings.ContainsRune(" \t\r\n\"'`,;<>&", rune(s[i])) {
		i++
	}
	return start, i, i > start
}

func skipBlanks(s string, i, limit int) int {
	for n := 0; i < len(s) && n < limit && (s[i] == ' ' || s[i] == '\t'); n++ {
		i++
	}
	return i
}

// skipEscapedQuote skips up to seven backslashes followed by a quote (a JSON-escaped
// quote); with minSlashes 0 a bare quote is skipped too.
func skipEscapedQuote(s string, i, minSlashes int) int {
	j := i
	for j < len(s) && j-i < 7 && s[j] == '\\' {
		j++
	}
	if j-i >= minSlashes && j < len(s) && (s[j] == '"' || s[j] == '\'') {
		return j + 1
	}
	return i
}
