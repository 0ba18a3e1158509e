package vibe

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// seenSecrets is a session's memory of the secrets it has found: each one in the forms it
// may come back in later (raw, base64 in each alphabet and at each alignment, hex, URL- and
// JSON-escaped), found again in one pass over a text by an Aho-Corasick trie.
type seenSecrets struct {
	order   []string          // secrets, oldest first
	class   map[string]string // secret → class of the rule that found it
	forms   []seenForm        // the forms of the secrets in the trie, its patterns
	trie    *ahocorasick.Trie // nil until the first rebuild
	pending []seenForm        // forms of secrets added since, looked for one by one
	dedup   map[string]bool   // every form held, in the trie or pending
}

// rebuildEvery is how many new secrets' forms are looked for one by one before the trie is
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
// first windowLen characters and those after each separator (-, _, ., =, :, /) among its
// first 48, so that it is found again truncated (a log printing the first 20 characters, a
// label cut short) or without its prefix (sk-live- dropped, the value of NAME-SECRET-value).
const (
	minTruncated = 20
	windowLen    = 16
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
	return offs
}

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

// addForms queues the forms of a new secret, rebuilding the trie once enough are queued.
func (s *seenSecrets) addForms(secret string) {
	if s.dedup == nil {
		s.dedup = make(map[string]bool)
	}
	for _, f := range secretForms(secret) {
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

// rebuild puts every remembered secret's forms into a new trie.
func (s *seenSecrets) rebuild() {
	s.forms, s.pending = s.forms[:0], nil
	s.dedup = make(map[string]bool)
	b := ahocorasick.NewTrieBuilder()
	for _, sec := range s.order {
		for _, f := range secretForms(sec) {
			if len(f) < minSeenForm || s.dedup[f] {
				continue
			}
			s.dedup[f] = true
			s.forms = append(s.forms, seenForm{form: f, class: s.class[sec]})
			b.AddString(f)
		}
		for _, off := range truncatedForms(sec) {
			if f := sec[off : off+windowLen]; !s.dedup[f] {
				s.dedup[f] = true
				s.forms = append(s.forms, seenForm{form: f, class: s.class[sec], full: sec, off: off})
				b.AddString(f)
			}
		}
	}
	s.trie = b.Build()
}

// find marks every occurrence of a known secret's forms in f's text.
func (s *seenSecrets) find(f *findings) {
	if s.trie != nil && len(s.forms) > 0 {
		s.trie.Walk(stringBytes(f.text), func(end, n, pattern int64) bool {
			start := int(end - n + 1)
			sf := s.forms[pattern]
			f.spans = append(f.spans, span{start: start, end: sf.extend(f.text, start, start+int(n)), rule: ruleSeen, class: sf.class})
			return true
		})
	}
	for _, sf := range s.pending {
		for from := 0; ; {
			i := strings.Index(f.text[from:], sf.form)
			if i < 0 {
				break
			}
			start := from + i
			f.spans = append(f.spans, span{start: start, end: sf.extend(f.text, start, start+len(sf.form)), rule: ruleSeen, class: sf.class})
			from = start + len(sf.form)
		}
	}
}

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
