package vibe

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// findings collects what to mask in one text: positions found by rules, and secret strings
// whose every occurrence is masked.
type findings struct {
	text    string
	view    string // what the rules read: text with its JSON escapes written out (escaped.go), or ""
	spans   []span
	secrets map[string]string // secret → rule
}

type span struct {
	start, end int
	rule       string
	class      string // when set, the class of the secret (a seen secret keeps its first rule's)
}

// read returns the text the rules read: the view, or the text itself.
func (f *findings) read() string {
	if f.view != "" {
		return f.view
	}
	return f.text
}

func (f *findings) addSpan(rule string, start, end int) {
	if f.view != "" {
		// Blanks the view put in place of escapes are not part of what a rule found.
		for start < end && (f.view[start] == ' ' || f.view[start] == '\n') && f.view[start] != f.text[start] {
			start++
		}
		for end > start && (f.view[end-1] == ' ' || f.view[end-1] == '\n') && f.view[end-1] != f.text[end-1] {
			end--
		}
	}
	if start >= end {
		return
	}
	end = start + trailingStringQuote(f.text[start:end])
	f.spans = append(f.spans, span{start: start, end: end, rule: rule})
	if end-start >= 4 {
		f.note(rule, f.text[start:end])
	}
}

// addSecret records a secret string: every occurrence in the text, in its plain, JSON-escaped
// and URL-encoded forms, is masked.
func (f *findings) addSecret(rule, secret string) {
	secret = strings.TrimSpace(secret)
	if len(secret) < 4 || placeholderWords(secret) || selfDescribing(secret) || vendorNamed(rule, secret) || tokenVariableName(secret) {
		return
	}
	f.note(rule, secret)
	f.addOccurrences(rule, secret)
	for _, v := range []string{url.QueryEscape(secret), url.PathEscape(secret), jsonEscape(secret)} {
		if v != secret {
			f.addOccurrences(rule, v)
		}
	}
}

func (f *findings) note(rule, secret string) {
	if f.secrets == nil {
		f.secrets = make(map[string]string)
	}
	if _, ok := f.secrets[secret]; !ok {
		f.secrets[secret] = rule
	}
}

func (f *findings) addOccurrences(rule, secret string) {
	for from := 0; ; {
		i := strings.Index(f.text[from:], secret)
		if i < 0 {
			return
		}
		start := from + i
		f.spans = append(f.spans, span{start: start, end: start + len(secret), rule: rule})
		from = start + len(secret)
	}
}

// addRepeats masks every other occurrence in the text of a secret found once in it: a
// password printed as `Login:x Pwd:x` or echoed on the next line.
func (f *findings) addRepeats() {
	// In a fixed order: which of two rules on the same span names it depends on the order.
	for _, sec := range slices.Sorted(maps.Keys(f.secrets)) {
		rule := f.secrets[sec]
		if len(sec) >= 6 && hasAlnum(sec) && (!allLetters(sec) || len(sec) >= 16) && !grammarPhrase(sec) && !primitiveUnion(sec) {
			if len(sec) < 16 && nameLike(sec) {
				f.addBoundedOccurrences(rule, sec) // grafana-api-key: api-key, then #create-api-key: not inside a longer name
				continue
			}
			f.addOccurrences(rule, sec)
		}
	}
}

// tokenVariableName reports a variable's name in upper snake case that ends in a token's or a
// key's word (ADMIN_TOKEN, SERVICE_JWT, STRIPE_API_KEY), written where its value goes: curl -H
// "Authorization: Bearer ADMIN_TOKEN" shows how to call, not a token.
func tokenVariableName(v string) bool {
	k := strings.LastIndexByte(v, '_')
	if k <= 0 || len(v) > 48 || !upperSnakeName(v) {
		return false
	}
	for _, p := range strings.Split(v, "_") {
		if len(p) < 2 || !isLetters(p) {
			return false
		}
	}
	switch v[k+1:] {
	case "TOKEN", "JWT", "KEY", "APIKEY", "PAT":
		return true
	}
	return false
}

// nameLike reports letters, digits and the - _ . a name joins its parts with, a letter among
// them.
func nameLike(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isWordByte(c) && c != '-' && c != '.' {
			return false
		}
		letter = letter || isLetter(c)
	}
	return letter
}

// addBoundedOccurrences is addOccurrences for a short secret spelled like a name: an
// occurrence counts where no letter, digit, -, _ or . goes on either side of it.
func (f *findings) addBoundedOccurrences(rule, secret string) {
	nameByte := func(c byte) bool { return isWordByte(c) || c == '-' }
	for from := 0; ; {
		i := strings.Index(f.text[from:], secret)
		if i < 0 {
			return
		}
		start := from + i
		end := start + len(secret)
		from = end
		if start > 0 && nameByte(f.text[start-1]) || end < len(f.text) && nameByte(f.text[end]) {
			continue
		}
		f.spans = append(f.spans, span{start: start, end: end, rule: rule})
	}
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

// addSplitSeen finds secrets broken up by whitespace or escaped line breaks (a terminal
// wrapping a long token, a JSON string with \n inside) and masks the whole broken-up run.
func (f *findings) addSplitSeen(seen []string, class map[string]string) {
	if !strings.ContainsAny(f.text, " \t\n\\\"'") {
		return
	}
	norm, marks := squeeze(f.text)
	for _, sec := range seen {
		for from := 0; ; {
			i := strings.Index(norm[from:], sec)
			if i < 0 {
				break
			}
			start := from + i
			end := start + len(sec)
			st, en := squeezedPos(f.text, marks, start), squeezedPos(f.text, marks, end-1)+1
			if !namedID(class[sec], f.text, st, en) {
				f.spans = append(f.spans, span{start: st, end: en, rule: ruleSeen, class: class[sec]})
			}
			from = end
		}
	}
}

// squeeze removes whitespace, the escapes \n, \r, \t and the joints of string literals
// joined into one ("abc" + "def", 'abc' . 'def', "abc" "def") from s, returning the result and
// marks for squeezedPos: the position in s of every squeezeMark-th byte kept.
func squeeze(s string) (string, []int32) {
	b := make([]byte, len(s))
	marks := make([]int32, 0, len(s)/squeezeMark/2+1) // int32: MaxSanitizeInput is far below 2 GB
	n := 0
	for i := 0; i < len(s); i++ {
		if squeezeDrops[s[i]] {
			if i = squeezeNext(s, i); i == len(s) {
				break
			}
		}
		if n%squeezeMark == 0 {
			marks = append(marks, int32(i))
		}
		b[n] = s[i]
		n++
	}
	return unsafe.String(unsafe.SliceData(b), n), marks
}

// squeezeDrops holds the bytes at which squeeze may drop something.
var squeezeDrops = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\\': true, '"': true, '\'': true}

// squeezeMark is how far apart squeeze marks the positions of the bytes it keeps; a
// position between marks is found by walking on from the mark before it.
const squeezeMark = 32

// squeezedPos returns the position in s of byte k of squeeze(s), whose marks are marks.
func squeezedPos(s string, marks []int32, k int) int {
	i := int(marks[k/squeezeMark])
	for r := k % squeezeMark; r > 0; r-- {
		i = squeezeNext(s, i+1)
	}
	return i
}

// squeezeNext returns the position of the first byte at or after i that squeeze keeps, or
// len(s).
func squeezeNext(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r' || s[i+1] == 't'):
			i += 2
			continue
		case c == '"' || c == '\'':
			if j := literalJoint(s, i); j > i {
				i = j + 1
				continue
			}
		}
		return i
	}
	return len(s)
}

// literalJoint returns the position of the quote that reopens a literal closed at i, when
// only blanks and one join operator (+ . .. & ||) lie between: "abc" + "def". Otherwise i.
func literalJoint(s string, i int) int {
	j := skipLiteralSpace(s, i+1)
	switch {
	case strings.HasPrefix(s[j:], "||"), strings.HasPrefix(s[j:], ".."):
		j = skipLiteralSpace(s, j+2)
	case j < len(s) && (s[j] == '+' || s[j] == '.' || s[j] == '&'):
		j = skipLiteralSpace(s, j+1)
	}
	if j < len(s) && j > i+1 && s[j] == s[i] {
		return j
	}
	return i
}

func skipLiteralSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

var jsonEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "/", `\/`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

func jsonEscape(s string) string { return jsonEscaper.Replace(s) }

// apply returns the text with every span replaced by its marker, [redacted:<class>/<rule>];
// overlapping spans merge and keep the most specific rule.
func (f *findings) apply() string {
	if len(f.spans) == 0 {
		return f.text
	}
	f.dropInsideMarks()
	if len(f.spans) == 0 {
		return f.text
	}
	slices.SortFunc(f.spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	b.Grow(len(f.text))
	last := 0
	for i := 0; i < len(f.spans); {
		cur := f.spans[i]
		i++
		for i < len(f.spans) && f.spans[i].start < cur.end {
			cur.end = max(cur.end, f.spans[i].end)
			if rulePriority(f.spans[i].rule) > rulePriority(cur.rule) {
				cur.rule, cur.class = f.spans[i].rule, f.spans[i].class
			}
			i++
		}
		if cur.start < last {
			cur.start = last
		}
		b.WriteString(f.text[last:cur.start])
		if cur.class != "" && cur.class != ruleClass(cur.rule) {
			b.WriteString("[redacted:" + cur.class + "/" + cur.rule + "]")
		} else {
			b.WriteString(mark(cur.rule))
		}
		last = cur.end
	}
	b.WriteString(f.text[last:])
	return b.String()
}

// dropInsideMarks drops spans that touch a redaction marker already in the text (a text
// sanitized twice, by the publisher and the gateway): [redacted:password/keyword-assignment]
// must not read as password: keyword-assignment.
func (f *findings) dropInsideMarks() {
	if !strings.Contains(f.text, "[redacted") {
		return
	}
	var marks [][2]int
	for from := 0; ; {
		i := strings.Index(f.text[from:], "[redacted")
		if i < 0 {
			break
		}
		i += from
		end := strings.IndexByte(f.text[i:], ']')
		if end < 0 {
			break
		}
		marks = append(marks, [2]int{i, i + end + 1})
		from = i + end + 1
	}
	f.spans = slices.DeleteFunc(f.spans, func(s span) bool {
		for _, m := range marks {
			if s.start < m[1] && s.end > m[0] {
				return true
			}
		}
		return false
	})
}

// dropInDataURIs drops spans that lie inside the base64 payload of a data: URI (an inline
// image or font, data:font/woff2;charset=utf-8;base64,d09G…): its bytes are a file's, and
// any run of them can look like a token. What such a span found is not remembered either.
func (f *findings) dropInDataURIs() {
	if !strings.Contains(f.text, "data:") {
		return
	}
	var payloads [][2]int
	for from := 0; ; {
		i := strings.Index(f.text[from:], "data:")
		if i < 0 {
			break
		}
		i += from
		from = i + 5
		head := f.text[i:min(len(f.text), i+160)]
		c := strings.Index(head, ";base64,")
		if c < 0 || strings.ContainsAny(head[:c], " \t\n\"'") {
			continue
		}
		start := i + c + len(";base64,")
		end := start
		for end < len(f.text) && (isWordByte(f.text[end]) || strings.IndexByte("+/=-", f.text[end]) >= 0) {
			end++
		}
		end = wrappedPayloadEnd(f.text, end)
		if end-start >= 16 {
			payloads = append(payloads, [2]int{start, end})
		}
		from = end
	}
	if len(payloads) == 0 {
		return
	}
	f.dropSpans(func(s span) bool {
		for _, p := range payloads {
			if s.start >= p[0] && s.end <= p[1] {
				return true
			}
		}
		return false
	})
}

// wrappedPayloadEnd carries a data: URI's payload that ends a line at end on over the lines of
// base64 after it (an SVG's embedded image wrapped at 76 columns, as editors write it), to
// where a line ends otherwise: at a closing quote or bracket, or at a line holding anything else.
func wrappedPayloadEnd(text string, end int) int {
	for end < len(text) && (text[end] == '\n' || text[end] == '\r') {
		j := end
		for j < len(text) && (text[j] == '\n' || text[j] == '\r' || text[j] == ' ' || text[j] == '\t') {
			j++
		}
		k := j
		for k < len(text) && (isBase64Byte(text[k]) || text[k] == '=' || text[k] == '-' || text[k] == '_') {
			k++
		}
		if k == j || k < len(text) && strings.IndexByte("\r\n\"')", text[k]) < 0 {
			return end
		}
		end = k
	}
	return end
}

// dropSpans removes the spans drop reports, and forgets what they found.
func (f *findings) dropSpans(drop func(span) bool) {
	f.spans = slices.DeleteFunc(f.spans, func(s span) bool {
		if !drop(s) {
			return false
		}
		if f.secrets != nil {
			delete(f.secrets, f.text[s.start:s.end])
		}
		return true
	})
}

// dropNoSecrets drops the spans of credential-name rules whose value is no secret by what it
// is or what surrounds it:
//   - code: a TypeScript member path with non-null assertions (apiKey:
//     process.env.OPENAI_API_KEY!, token = session!.accessToken!) or a value codeValueSpan
//     tells by its context;
//   - a word or a short label of some other language in a translation file, under a
//     secret's name ("password": "Salasana", auth.password=Mot de passe, "Secret Key" =
//     "Slepenā atslēga", <string name="api_key">API-Schlüssel</string>, "token": "令牌"). Once
//     the text shows one, its other capitalised labels of letters are translations too
//     ("api_key": "API-avain", "secret": "Salaisuus" beside "password": "Salasana").
func (f *findings) dropNoSecrets() {
	if len(f.spans) == 0 {
		return
	}
	translated := false
	for _, s := range f.spans {
		if ruleClass(s.rule) == ClassPassword && languageLabel(f.text[s.start:labelEnd(f.text, s.end)]) {
			translated = true
			break
		}
	}
	f.dropSpans(func(s span) bool {
		c := ruleClass(s.rule)
		if c != ClassPassword && c != ClassCredential {
			return false
		}
		if nonNullReference(f.text[s.start:s.end]) || codeValueSpan(f.text, s.start, s.end) || sentenceOpening(f.text, s.start, s.end) ||
			bracketedInstruction(f.text, s.start) {
			return true
		}
		if c != ClassPassword || !translated && !phraseKeyed(f.text, s.start) {
			return false
		}
		v := f.text[s.start:labelEnd(f.text, s.end)]
		return languageLabel(v) || capitalisedLabel(v)
	})
}

// labelEnd is where the words after a value's first one end: at a quote, a tag, a
// separator or the line's end (a label is short: at most 120 bytes are read).
func labelEnd(text string, i int) int {
	for limit := min(len(text), i+120); i < limit; {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r != ' ' && r != '-' && r != '\'' && !unicode.IsLetter(r) {
			break
		}
		i += n
	}
	return i
}

// rulePriority prefers a specific rule's name over the catch-all ones when spans overlap.
func rulePriority(rule string) int {
	switch rule {
	case ruleEntropy:
		return 0
	case ruleSeen, ruleEncoded, ruleIDPassword, ruleVendorKey:
		return 1
	case ruleKeyword, ruleURLQuery, rulePrefixed, ruleTableFormat:
		return 2
	}
	return 3
}

// trailingStringQuote returns where a found value ends when a rule's match ran on through the
// quote closing the string it is written in ({"cmd": "mysql -pS3cr3t"}: S3cr3t"} ): at that
// quote (closingStringQuote's), when it is the value's only quote and only blanks, commas and
// closing brackets follow it; else len(t). A value that opens with a quote is a quoted
// literal and is left whole.
func trailingStringQuote(t string) int {
	q := closingStringQuote(t)
	if q == len(t) || strings.Count(t, `"`) != 1 || strings.Trim(t[q+1:], " \t,}]") != "" {
		return len(t)
	}
	return q
}

// vendorNamed reports a finding of letters alone that holds its rule's vendor's name
// (linkedin-client-secret on ProviderLinkedin): an identifier named for the vendor, where the
// vendor's keys are generated characters that never spell it.
func vendorNamed(rule, secret string) bool {
	vendor, _, ok := strings.Cut(rule, "-")
	return ok && len(vendor) >= 4 && isLetters(secret) && strings.Contains(strings.ToLower(secret), vendor)
}
