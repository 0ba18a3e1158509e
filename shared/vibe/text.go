package vibe

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
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
	return s[:wordCut(s, i)] + mark
}

// wordBackoff is how many characters a cut moves back to reach a word's start.
const wordBackoff = 24

// wordCut moves a cut at byte i that falls inside a word back to the word's start, when that
// is at most wordBackoff characters away, so no piece of a word is shown: half a word reads
// as another (cyspbot cut to cysp, an account's name). A longer word is cut where i falls.
func wordCut(s string, i int) int {
	if i <= 0 || i >= len(s) {
		return i
	}
	next, _ := utf8.DecodeRuneInString(s[i:])
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if !textWordRune(next) || !textWordRune(prev) {
		return i
	}
	for k, n := i, 0; k > 0 && n <= wordBackoff; n++ {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if !textWordRune(r) {
			return k
		}
		k -= size
	}
	return i
}

func textWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// Truncate cuts s to at most n characters, ending with an ellipsis when it cuts, at a word's
// start when the cut would fall inside a short word: how events are capped for viewers.
func Truncate(s string, n int) string { return truncateRunes(s, n, Ellipsis) }

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
		s = dropSGRRemnants(s)
	}
	return s
}

// dropSGRRemnants removes the colour codes sgrRemnant finds, but not a bracketed duration or
// count that looks like one ("Created .env.local [240ms]", "[5m]", "[12min]"): a lone number
// that no SGR code is, or a lone number followed by the rest of a unit and the closing
// bracket.
func dropSGRRemnants(s string) string {
	idx := sgrRemnant.FindAllStringIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		if !strings.Contains(s[m[0]:m[1]], ";") {
			n, _ := strconv.Atoi(s[m[0]+1 : m[1]-1])
			rest := s[m[1]:]
			k := 0
			for k < len(rest) && k < 3 && rest[k] >= 'a' && rest[k] <= 'z' {
				k++
			}
			if !sgrCode(n) || k < len(rest) && (rest[k] == ']' || rest[k] == ')') {
				continue
			}
		}
		b.WriteString(s[last:m[0]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// sgrCode reports a Select Graphic Rendition parameter a terminal acts on alone: attributes,
// the 8 and 16 colours, their resets.
func sgrCode(n int) bool {
	return n <= 29 || n >= 30 && n <= 55 || n >= 60 && n <= 65 || n >= 73 && n <= 75 || n >= 90 && n <= 97 || n >= 100 && n <= 107
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

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// isModelName is modelName.MatchString, decided by hand for the ASCII names it is asked
// about (Go's regexp runs the expression's bounded repetitions as a backtracking machine of
// some hundred states, several microseconds a token): an optional owner and a slash, then a
// letter, name characters, and one to ten parts of a separator and one to 24 letters,
// digits or dots. Other texts, and long ones, go to the expression.
func isModelName(s string) bool {
	if len(s) > 120 || !isASCII(s) {
		return modelName.MatchString(s)
	}
	rest := s
	if j := strings.IndexByte(s, '/'); j >= 0 {
		// The owner, [A-Za-z0-9][\w.-]{0,40}/: no other part holds a slash.
		if j < 1 || j > 41 || !isLetter(s[0]) && !isDigitByte(s[0]) {
			return false
		}
		for i := 1; i < j; i++ {
			if !isWordByte(s[i]) && s[i] != '.' && s[i] != '-' {
				return false
			}
		}
		rest = s[j+1:]
		if strings.IndexByte(rest, '/') >= 0 {
			return false
		}
	}
	n := len(rest)
	if n < 3 || !isLetter(rest[0]) {
		return false
	}
	// reach[i] has bit c when rest[:i] is the name and c parts.
	var reach [121]uint16
	for k := 1; k <= n; k++ {
		reach[k] = 1
		if k < n && !isWordByte(rest[k]) && rest[k] != '.' {
			break
		}
	}
	for i := 1; i < n; i++ {
		if reach[i] == 0 || strings.IndexByte("-_.:", rest[i]) < 0 {
			continue
		}
		next := reach[i] << 1 & 0x7fe // one part more; at most ten
		for l := 1; l <= 24 && i+l < n && (isLetter(rest[i+l]) || isDigitByte(rest[i+l]) || rest[i+l] == '.'); l++ {
			reach[i+l+1] |= next
		}
	}
	return reach[n]&0x7fe != 0
}

// isPlaceholder is placeholder.MatchString: an ASCII value that opens with none of the
// characters the expression's forms open with, holds no xxx, *** or ..., and is none of its
// words, is no placeholder, without running the expression.
func isPlaceholder(v string) bool {
	if !isASCII(v) || v == "" || placeholderOpening(v) {
		return placeholder.MatchString(v)
	}
	return false
}

// generatedInBrackets reports what a bracket holds when it is a value: no blank, no quote,
// upper- and lower-case letters and digits, eight characters or more.
func generatedInBrackets(in string) bool {
	if len(in) < 8 || strings.ContainsAny(in, " \t\"',[]") || countDigits(in) == 0 {
		return false
	}
	return strings.ToLower(in) != in && strings.ToUpper(in) != in
}

// placeholderOpening reports whether the ASCII value v may match placeholder: it opens with
// $ % < { [ * x . - _ #, holds xxx, *** or ... in any case, opens with your, change, os. or
// process.env, or is one of the expression's words.
func placeholderOpening(v string) bool {
	if strings.IndexByte("$%<{[*xX.-_#", v[0]) >= 0 {
		return true
	}
	for i := 0; i+3 <= len(v); i++ {
		switch v[i] {
		case 'x', 'X':
			if v[i+1]|0x20 == 'x' && v[i+2]|0x20 == 'x' {
				return true
			}
		case '*', '.':
			if v[i+1] == v[i] && v[i+2] == v[i] {
				return true
			}
		}
	}
	if hasPrefixFold(v, "your") || hasPrefixFold(v, "change") || hasPrefixFold(v, "os.") || hasPrefixFold(v, "process.env") {
		return true
	}
	var buf [16]byte
	if len(v) > len(buf) {
		return false // longer than every word
	}
	l := buf[:len(v)]
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	return placeholderWordSet[string(l)]
}

// placeholderWordSet holds the words placeholder matches as a whole value.
var placeholderWordSet = map[string]bool{"null": true, "nil": true, "none": true, "undefined": true, "true": true, "false": true,
	"yes": true, "no": true, "on": true, "off": true, "required": true, "optional": true, "string": true, "str": true, "bool": true,
	"int": true, "number": true, "bytes": true, "text": true, "password": true, "secret": true, "token": true, "changeme": true, "changeit": true,
	"example": true, "sample": true, "dummy": true, "placeholder": true, "redacted": true, "todo": true, "tbd": true, "fixme": true, "env": true,
	"test": true, "pass": true, "foo": true, "bar": true, "baz": true, "demo": true, "value": true}

// hasPrefixFold reports whether s opens with the lower-case ASCII prefix p, in any case.
func hasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}

// asciiLower is strings.ToLower of an ASCII text, in one pass and one allocation.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, len(s))
	copy(b, s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// gitRefOpening reports whether line may match gitRefLine: its first character after
// whitespace opens one of the expression's forms (a hex digit, + * - = or !).
func gitRefOpening(line string) bool {
	i := 0
	for i < len(line) && strings.IndexByte(" \t\n\f\r", line[i]) >= 0 {
		i++
	}
	return i < len(line) && strings.IndexByte("0123456789abcdef+*-=!", line[i]) >= 0
}

// hasPathSegment reports whether tok may match pathToken: every match holds a separator (/
// or \) right before a segment's first character, which is none of the bytes segments
// exclude. A token without one, such as a comment's //, does not run the expression.
func hasPathSegment(tok string) bool {
	for k := 0; k+1 < len(tok); k++ {
		if (tok[k] == '/' || tok[k] == '\\') && !notSegmentByte[tok[k+1]] {
			return true
		}
	}
	return false
}

// notSegmentByte holds the bytes pathToken's segments exclude: [^\s"'<>|*?:;,()\[\]{}`\\/].
var notSegmentByte = func() (t [256]bool) {
	for _, c := range []byte("\t\n\f\r \"'<>|*?:;,()[]{}`\\/") {
		t[c] = true
	}
	return t
}()
