package vibe

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// seenSecrets is a session's memory of the secrets it has found: each one in the forms it
// may come back in later (raw, base64 in each alphabet and at each alignment, hex, URL- and
// JSON-escaped), found again in one pass over a text by an index of their first bytes.
type seenSecrets struct {
	order   []string          // secrets, oldest first
	class   map[string]string // secret → class of the rule that found it
	forms   []seenForm        // the forms of the secrets in the index
	index   *formIndex        // nil until the first rebuild
	stale   bool              // forms changed since the index was built: build before the next find
	pending []seenForm        // forms of secrets added since, looked for one by one
	dedup   map[string]bool   // every form held, in the index or pending
}

// rebuildEvery is how many new secrets' forms are looked for one by one before the index is
// built again: rebuilding for every secret made a session with many secrets quadratic.
const rebuildEvery = 16

type seenForm struct {
	form, class string
	// full and off, for a window of a secret (truncatedForms): the secret, and where in it
	// the window starts, so that a match extends over as much of the secret as follows.
	full string
	off  int
}

// Windows of a secret: a secret of minTruncated or more characters is also looked for as its
// first windowLen characters, those after each separator (-, _, ., =, :, /) among its first
// 48 and its last windowLen, so that it is found again truncated (a log printing the first
// ten characters, a label cut short, a display keeping its end) or without its prefix
// (sk-live- dropped, the value of NAME-SECRET-value). A match takes in as much of the secret
// as stands on either side of it.
const (
	minTruncated = 20
	windowLen    = 10
	maxWindows   = 6
)

// truncatedForms returns the offsets of a secret's windows.
func truncatedForms(sec string) []int {
	if len(sec) < minTruncated || strings.ContainsAny(sec, " \t\n") {
		return nil
	}
	offs := []int{0}
	for i := 0; i < min(len(sec), 48) && len(offs) < maxWindows; i++ {
		if strings.IndexByte("-_.=:/", sec[i]) >= 0 && i+1+windowLen <= len(sec) && i+1 > offs[len(offs)-1] {
			if w := sec[i+1 : i+1+windowLen]; hasDigitAndLetter(w) || mixedClasses(w) {
				offs = append(offs, i+1)
			}
		}
	}
	if !hasDigitAndLetter(sec[:windowLen]) && !mixedClasses(sec[:windowLen]) {
		offs = offs[1:] // a window of one class of characters would match by chance
	}
	// Its last characters too: a display that keeps a secret's end (…Yw3Ks5Hd7Fg2).
	if last := len(sec) - windowLen; (len(offs) == 0 || last > offs[len(offs)-1]) && (hasDigitAndLetter(sec[last:]) || mixedClasses(sec[last:])) {
		offs = append(offs, last)
	}
	return offs
}

// displayForms returns how a secret is shown masked: its first or last displayLen characters
// beside an elision (Zq8x7Vb2…, Zq8x7Vb2..., Zq8x7Vb2****, ...K8vN3cQ1): a settings page, a CLI's
// "configured" line or a log that hides the rest. Eight characters alone would match by chance;
// beside an elision they are the display of this secret.
func displayForms(sec string) []string {
	if len(sec) < minTruncated || strings.ContainsAny(sec, " \t\n") {
		return nil
	}
	var forms []string
	head, tail := sec[:displayLen], sec[len(sec)-displayLen:]
	if hasDigitAndLetter(head) || mixedClasses(head) {
		for _, e := range displayElisions {
			forms = append(forms, head+e)
		}
	}
	if hasDigitAndLetter(tail) || mixedClasses(tail) {
		for _, e := range displayElisions {
			forms = append(forms, e+tail)
		}
	}
	return forms
}

const displayLen = 8

var displayElisions = []string{"...", "…", "***", "xxxx"}

// minSeenForm is the shortest encoded form kept: shorter ones would match by chance.
const minSeenForm = 10

// add remembers secret and reports whether it was new.
func (s *seenSecrets) add(secret, class string) bool {
	if s.class == nil {
		s.class = make(map[string]string)
	}
	if _, ok := s.class[secret]; ok {
		return false
	}
	s.class[secret] = class
	s.order = append(s.order, secret)
	for len(s.order) > maxSeenSecrets {
		delete(s.class, s.order[0])
		s.order = s.order[1:]
	}
	return true
}

var (
	htmlEscaper  = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
	shellEscaper = strings.NewReplacer("!", `\!`, "$", `\$`, "&", `\&`, ";", `\;`, "|", `\|`, "<", `\<`, ">", `\>`,
		"(", `\(`, ")", `\)`, `"`, `\"`, "'", `\'`, "`", "\\`", `\`, `\\`, "*", `\*`, " ", `\ `)
)

// addForms queues the forms of a new secret, rebuilding the index once enough are queued.
func (s *seenSecrets) addForms(secret string) {
	if s.dedup == nil {
		s.dedup = make(map[string]bool)
	}
	for _, f := range slices.Concat(secretForms(secret), displayForms(secret)) {
		if len(f) < minSeenForm || s.dedup[f] {
			continue
		}
		s.dedup[f] = true
		s.pending = append(s.pending, seenForm{form: f, class: s.class[secret]})
	}
	for _, off := range truncatedForms(secret) {
		if f := secret[off : off+windowLen]; !s.dedup[f] {
			s.dedup[f] = true
			s.pending = append(s.pending, seenForm{form: f, class: s.class[secret], full: secret, off: off})
		}
	}
	if len(s.pending) >= rebuildEvery*8 || len(s.order) > 0 && len(s.order)%rebuildEvery == 0 {
		s.rebuild()
	}
}

// rebuild lists every remembered secret's forms for the index; build builds it, once per
// batch of secrets, which can pass the rebuild mark several times (a private key's lines).
func (s *seenSecrets) rebuild() {
	s.forms, s.pending = s.forms[:0], nil
	s.dedup = make(map[string]bool)
	for _, sec := range s.order {
		for _, f := range slices.Concat(secretForms(sec), displayForms(sec)) {
			if len(f) < minSeenForm || s.dedup[f] {
				continue
			}
			s.dedup[f] = true
			s.forms = append(s.forms, seenForm{form: f, class: s.class[sec]})
		}
		for _, off := range truncatedForms(sec) {
			if f := sec[off : off+windowLen]; !s.dedup[f] {
				s.dedup[f] = true
				s.forms = append(s.forms, seenForm{form: f, class: s.class[sec], full: sec, off: off})
			}
		}
	}
	s.stale = true
}

// build builds the index of the forms the last rebuild listed, if it has not been yet.
func (s *seenSecrets) build() {
	if !s.stale {
		return
	}
	forms := make([]string, len(s.forms))
	for i, f := range s.forms {
		forms[i] = f.form
	}
	s.index, s.stale = newFormIndex(forms), false
}

// find marks every occurrence of a known secret's forms in f's text.
func (s *seenSecrets) find(f *findings) {
	if s.index != nil && len(s.forms) > 0 {
		s.index.each(f.text, func(pattern, start, end int) {
			sf := s.forms[pattern]
			st, en := sf.extendBack(f.text, start), sf.extend(f.text, start, end)
			if namedID(sf.class, f.text, st, en) {
				return // a random string found by its looks alone, here named an id
			}
			st, en = encodingEnds(f.text, st, en)
			f.spans = append(f.spans, span{start: st, end: en, rule: ruleSeen, class: sf.class})
		})
	}
	for _, sf := range s.pending {
		for from := 0; ; {
			i := strings.Index(f.text[from:], sf.form)
			if i < 0 {
				break
			}
			start := from + i
			st, en := sf.extendBack(f.text, start), sf.extend(f.text, start, start+len(sf.form))
			if !namedID(sf.class, f.text, st, en) {
				st, en = encodingEnds(f.text, st, en)
				f.spans = append(f.spans, span{start: st, end: en, rule: ruleSeen, class: sf.class})
			}
			from = start + len(sf.form)
		}
	}
}

// encodingEnds widens a match at text[start:end] to the ends of the base64 run it stands in
// when the run goes on by no more than three characters on either side (and its padding): a
// secret's base64 form leaves the one to three characters that hold bits of its neighbours,
// which are the secret's as much as the rest.
func encodingEnds(text string, start, end int) (int, int) {
	l := start
	for l > 0 && start-l < 3 && encodedByte(text[l-1]) {
		l--
	}
	if l > 0 && encodedByte(text[l-1]) {
		l = start
	}
	r := end
	for r < len(text) && r-end < 3 && encodedByte(text[r]) {
		r++
	}
	for p := 0; r < len(text) && p < 2 && text[r] == '='; p++ {
		r++
	}
	if r < len(text) && encodedByte(text[r]) {
		r = end
	}
	return l, r
}

// encodedByte reports whether c is in either base64 alphabet.
func encodedByte(c byte) bool { return isBase64Byte(c) || c == '-' || c == '_' }

// extend returns where a match of a window at text[start:end] ends when it is followed by more
// of its secret.
func (sf *seenForm) extend(text string, start, end int) int {
	if sf.full == "" {
		return end
	}
	for k := sf.off + end - start; end < len(text) && k < len(sf.full) && text[end] == sf.full[k]; k++ {
		end++
	}
	return end
}

// extendBack returns where a match of a window at text[start:] begins when more of its secret
// stands before it.
func (sf *seenForm) extendBack(text string, start int) int {
	for k := sf.off - 1; sf.full != "" && k >= 0 && start > 0 && text[start-1] == sf.full[k]; k-- {
		start--
	}
	return start
}

// lowerPercent writes the hex digits of every %XX escape of s in lower case.
func lowerPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for k := i + 1; k <= i+2; k++ {
				if b[k] >= 'A' && b[k] <= 'F' {
					b[k] += 'a' - 'A'
				}
			}
			i += 2
		}
	}
	return string(b)
}

// secretForms lists the forms a secret may reappear in. A secret inside a longer base64 text
// (base64 of "user:secret", of a whole .env file) is encoded differently depending on its
// offset modulo 3; for each offset the characters that do not depend on the neighbouring
// bytes are kept.
func secretForms(sec string) []string {
	forms := []string{sec, strings.ToLower(hex.EncodeToString([]byte(sec))), strings.ToUpper(hex.EncodeToString([]byte(sec)))}
	for _, v := range []string{url.QueryEscape(sec), url.PathEscape(sec), jsonEscape(sec)} {
		if v != sec {
			forms = append(forms, v)
			if low := lowerPercent(v); low != v {
				forms = append(forms, low) // %2f as often as %2F
			}
		}
	}
	if strings.ContainsAny(sec, "&<>\"'") {
		// Quoted in HTML or XML: &amp;, &lt;, &quot;, &#39;.
		if v := htmlEscaper.Replace(sec); v != sec {
			forms = append(forms, v, strings.ReplaceAll(v, "&#39;", "&apos;"))
		}
	}
	if strings.ContainsAny(sec, "!$&;|<>()\"'`\\* ") {
		// Escaped for a shell with backslashes: p\@ss\!w\$rd.
		forms = append(forms, shellEscaper.Replace(sec))
	}
	if core := strings.TrimRight(sec, "="); core != sec && len(core) >= minSeenForm {
		// A base64 value comes back without its padding as often as with it (base64url,
		// JWT segments, a query parameter): the unpadded value, raw and URL-escaped.
		forms = append(forms, core)
		if v := url.QueryEscape(core); v != core {
			forms = append(forms, v, lowerPercent(v))
		}
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for off := range 3 {
			padded := strings.Repeat("\x00", off) + sec
			e := enc.EncodeToString([]byte(padded))
			// Skip the characters that hold bits of the pad bytes, and the last character,
			// which holds bits of whatever follows the secret.
			skip := (off*8 + 5) / 6
			stable := len(padded) * 8 / 6 // characters whose 6 bits all come from the text
			if stable <= skip {
				continue
			}
			forms = append(forms, e[skip:stable])
		}
	}
	return forms
}

// formIndex finds every occurrence of a set of forms, each at least minSeenForm bytes long,
// as an Aho-Corasick trie walk reports them (by end, the longer first at the same end): the
// forms are keyed by their first 8 bytes, and a table of hashes of their first 4 bytes
// sends most positions of a text past the key lookup. It replaces a trie whose size grew
// with the forms' total length: a private key's forms (200 KB) took seconds to build.
type formIndex struct {
	forms  []string
	filter [1 << 16 / 64]uint64 // hash of a form's first 4 bytes
	byKey  map[uint64][]int32   // first 8 bytes → forms
}

func newFormIndex(forms []string) *formIndex {
	x := &formIndex{forms: forms, byKey: make(map[uint64][]int32, len(forms))}
	for i, f := range forms {
		if len(f) < 8 {
			panic("vibe: seen form shorter than 8 bytes")
		}
		h := formHash(f)
		x.filter[h>>6] |= 1 << (h & 63)
		k := formKey(f)
		x.byKey[k] = append(x.byKey[k], int32(i))
	}
	return x
}

func formKey(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func formHash(s string) uint32 {
	_ = s[3]
	v := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	return (v * 0x9E3779B1) >> 16
}

// each calls fn for every occurrence of every form in text.
func (x *formIndex) each(text string, fn func(form, start, end int)) {
	type hit struct{ form, start, end int }
	var hits []hit
	for i := 0; i+8 <= len(text); i++ {
		h := formHash(text[i:])
		if x.filter[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, p := range x.byKey[formKey(text[i:])] {
			if f := x.forms[p]; strings.HasPrefix(text[i:], f) {
				hits = append(hits, hit{int(p), i, i + len(f)})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.end != b.end {
			return a.end - b.end
		}
		return a.start - b.start
	})
	for _, h := range hits {
		fn(h.form, h.start, h.end)
	}
}

// namedID reports a seen secret's occurrence that is not masked again: a random string masked
// for its looks alone (class high-entropy), here where the text names it an id.
func namedID(class, text string, start, end int) bool {
	return class == ClassHighEntropy && idContext(text, start, end)
}

// idContext reports a value that its context names an id: after a label or a header naming
// one (Voice ID: …, X-Request-Id: …), quoted under a record's id name ("voice_id": "…"), or
// given to a name whose last part says id (ELEVENLABS_VOICE_ID=…, "id": "…").
func idContext(text string, start, end int) bool { return idContextNamed(text, start, end, true) }

// idContextNamed is idContext; with bare false a name that is only "id" does not count (an
// API key's own record may call its value so).
func idContextNamed(text string, start, end int, bare bool) bool {
	if idLabelValue(text, start) || idHeaderValue(text, start) || idNamedValue(text, start, end) || idListing(text, start) {
		return true
	}
	j := start
	for k := 0; k < 8 && j > 0 && strings.IndexByte(" \t\"'`\\", text[j-1]) >= 0; k++ {
		j-- // blanks and quotes, JSON-escaped ones too (nonce=\"…\")
	}
	if j == 0 || text[j-1] != '=' && text[j-1] != ':' {
		return false
	}
	j--
	for j > 0 && (text[j-1] == '"' || text[j-1] == '\'' || text[j-1] == ' ' || text[j-1] == '\\') {
		j--
	}
	ns := j
	for ns > 0 && j-ns < 60 && (isWordByte(text[ns-1]) || text[ns-1] == '-' || text[ns-1] == '.') {
		ns--
	}
	parts := nameParts(text[ns:j])
	if len(parts) == 0 || !idNameParts[parts[len(parts)-1]] || !bare && len(parts) < 2 {
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		if secretIDOwner[p] {
			return false // session_id, csrf_id, secret_id: the id is the credential
		}
	}
	return true
}

// secretIDOwner are the words before "id" in names whose id is itself a credential.
var secretIDOwner = map[string]bool{"session": true, "sess": true, "secret": true, "private": true, "auth": true, "token": true,
	"access": true, "api": true, "key": true, "csrf": true, "xsrf": true, "sid": true, "cookie": true, "login": true,
	"password": true, "pass": true, "credential": true, "credentials": true, "client": true, "app": true, "consumer": true,
	"oauth": true, "sso": true, "jwt": true, "refresh": true, "bearer": true, "device": true, "install": true, "installation": true}

// idListing reports a value that a listing names an id: in a table column headed ID (| Voice |
// ID |), or in a block under a heading or a comment that names ids (### Voice IDs, // Channel
// IDs for each team, # model ids): the handles a service gives its records, written down for
// the reader. The nearest heading or comment above decides, within twelve lines; one that also
// names a key, a secret, a token, a password or a credential does not count.
func idListing(text string, start int) bool {
	above := text[max(0, start-1200):start]
	if !strings.Contains(above, "ID") && !strings.Contains(above, "Id") && !strings.Contains(above, "ids") && !strings.Contains(above, "id |") && !strings.Contains(above, "_id") {
		return false
	}
	lines := listingLines(above, 14)
	if len(lines) < 2 {
		return false
	}
	cur := lines[0]
	if strings.HasPrefix(strings.TrimSpace(cur), "|") {
		return idColumn(cur, lines[1:])
	}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if g := gutterEnd(l); g > 0 {
			l = strings.TrimSpace(l[g:])
		}
		if l == "" {
			continue
		}
		var note string
		for _, p := range []string{"#", "//", "--", "/*", "<!--", ";"} {
			if strings.HasPrefix(l, p) {
				note = strings.Trim(l, "#/-*<>!; ")
				break
			}
		}
		if note == "" {
			continue // a line of the block itself
		}
		return idsNamed(note)
	}
	return false
}

// idsNamed reports a heading or a comment that names ids (IDs, ids, Ids as a word) and no
// secret.
func idsNamed(note string) bool {
	named := false
	for _, w := range strings.FieldsFunc(note, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		switch w {
		case "IDs", "ids", "Ids", "IDS":
			named = true
		}
	}
	if !named {
		return false
	}
	l := strings.ToLower(note)
	for _, s := range []string{"key", "secret", "token", "password", "credential", "auth"} {
		if strings.Contains(l, s) {
			return false
		}
	}
	return true
}

// idColumn reports a cell of the Markdown table row cur (its text up to the value) whose
// column the table's header names ID, Id or a name ending in ID; above are the rows before it,
// nearest first.
func idColumn(cur string, above []string) bool {
	col := strings.Count(cur, "|") - 1
	for i, l := range above {
		l = strings.TrimSpace(l)
		if g := gutterEnd(l); g > 0 {
			l = strings.TrimSpace(l[g:])
		}
		if !strings.HasPrefix(l, "|") {
			return false
		}
		if strings.Trim(l, "|-: ") != "" || i+1 >= len(above) {
			continue // a row above, not the rule under the header
		}
		head := strings.TrimSpace(above[i+1])
		if g := gutterEnd(head); g > 0 {
			head = strings.TrimSpace(head[g:])
		}
		cells := strings.Split(strings.Trim(head, "|"), "|")
		if col < 0 || col >= len(cells) {
			return false
		}
		parts := nameParts(strings.TrimSpace(cells[col]))
		return len(parts) > 0 && len(parts) <= 3 && (parts[len(parts)-1] == "id" || parts[len(parts)-1] == "ids") && !secretIDOwner[parts[0]]
	}
	return false
}

// listingLines splits the text before a value into lines, the value's own first, then up to
// n-1 lines above it; a JSON string's escaped line breaks (\n) end lines as well.
func listingLines(s string, n int) []string {
	var out []string
	end := len(s)
	for i := len(s) - 1; i >= 0 && len(out) < n-1; i-- {
		switch {
		case s[i] == '\n':
			out = append(out, s[i+1:end])
			end = i
		case s[i] == 'n' && i > 0 && s[i-1] == '\\' && (i < 2 || s[i-2] != '\\'):
			out = append(out, s[i+1:end])
			end = i - 1
			i--
		}
	}
	if len(out) < n-1 {
		out = append(out, s[:end])
	}
	return out
}
