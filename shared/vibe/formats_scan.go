package vibe

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// factSource names the public rule sets a format of tokenFormatTable was read from.
type factSource uint16

const (
	fromTruffleHog factSource = 1 << iota
	fromKingfisher
	fromNoseyParker
	fromSecretsPatternsDB
	fromSecurityUtilities
	fromCredSweeper
	fromDetectSecrets
	fromOSVScalibr
	fromSonarText
	fromBetterleaks
	fromKeyHog
)

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) addAll(chars string) {
	for i := 0; i < len(chars); i++ {
		s.add(chars[i])
	}
}

const (
	digitChars = "0123456789"
	lowerChars = "abcdefghijklmnopqrstuvwxyz"
	upperChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	alnumChars = digitChars + lowerChars + upperChars
)

// formatAlphabets are the alphabet letters of tokenFormatTable's notation.
var formatAlphabets = map[byte]string{
	'd': digitChars,
	'x': digitChars + "abcdef",
	'X': digitChars + "ABCDEF",
	'h': digitChars + "abcdefABCDEF",
	'l': digitChars + lowerChars,
	'u': digitChars + upperChars,
	'a': alnumChars,
	'w': alnumChars + "_",
	'k': alnumChars + "_-",
	'b': alnumChars + "+/",
	'B': alnumChars + "+/=",
	'L': lowerChars,
	'U': upperChars,
	'A': lowerChars + upperChars,
}

// formatPart is one part of a token format: a literal, or min to max characters of a set.
type formatPart struct {
	lit      string
	set      byteSet
	min, max int
}

// tokenFormat is a compiled entry of tokenFormatTable: the literal that anchors it, the
// parts before it (nearest first) and the parts after it.
type tokenFormat struct {
	vendor    string
	anchor    string
	before    []formatPart
	after     []formatPart
	generated bool    // the generated parts may hold digits
	alphabet  byteSet // every character a generated part may hold
	// generic: the signature is a word many names open with (live_, test_, sk_, api-), so
	// a body of mixed case must look generated, not like camel-case words.
	generic bool
}

// genericSignatures are signatures that open names as well as keys.
var genericSignatures = map[string]bool{
	"live_": true, "test_": true, "api_": true, "pk_": true, "sk_": true, "secret_": true, "api-": true, "sdk-": true,
}

// parseTokenFormat reads one format of the table's notation.
func parseTokenFormat(vendor, spec string) (tokenFormat, error) {
	var parts []formatPart
	for i := 0; i < len(spec); {
		if spec[i] != '{' {
			j := strings.IndexByte(spec[i:], '{')
			if j < 0 {
				j = len(spec) - i
			}
			parts = append(parts, formatPart{lit: spec[i : i+j], min: j, max: j})
			i += j
			continue
		}
		end := strings.IndexByte(spec[i:], '}')
		if end < 0 {
			return tokenFormat{}, fmt.Errorf("%s: unclosed {", spec)
		}
		p, err := parseFormatSet(spec[i+1 : i+end])
		if err != nil {
			return tokenFormat{}, fmt.Errorf("%s: %w", spec, err)
		}
		parts = append(parts, p)
		i += end + 1
	}
	anchor := -1
	for k, p := range parts {
		if p.lit != "" && (anchor < 0 || len(p.lit) > len(parts[anchor].lit)) {
			anchor = k
		}
	}
	if anchor < 0 || len(parts[anchor].lit) < 2 {
		return tokenFormat{}, fmt.Errorf("%s: no literal to anchor on", spec)
	}
	f := tokenFormat{vendor: vendor, anchor: parts[anchor].lit, after: parts[anchor+1:], generic: anchor == 0 && genericSignatures[parts[0].lit]}
	for k := anchor - 1; k >= 0; k-- {
		f.before = append(f.before, parts[k])
	}
	for _, p := range parts {
		if p.lit == "" {
			f.generated = f.generated || p.set.has('7')
			for i := range p.set {
				f.alphabet[i] |= p.set[i]
			}
		}
	}
	return f, nil
}

// parseFormatSet reads the inside of {…}: an alphabet letter or [chars], then n or n-m.
func parseFormatSet(s string) (formatPart, error) {
	var p formatPart
	var rest string
	switch {
	case strings.HasPrefix(s, "["):
		j := strings.IndexByte(s[1:], ']')
		if j < 1 {
			return p, fmt.Errorf("bad set %q", s)
		}
		p.set.addAll(s[1 : 1+j])
		rest = s[j+2:]
	case len(s) > 1 && formatAlphabets[s[0]] != "":
		p.set.addAll(formatAlphabets[s[0]])
		rest = s[1:]
	default:
		return p, fmt.Errorf("bad alphabet %q", s)
	}
	lo, hi, ok := strings.Cut(rest, "-")
	var err error
	if p.min, err = strconv.Atoi(lo); err != nil {
		return p, fmt.Errorf("bad length %q", s)
	}
	p.max = p.min
	if ok {
		if p.max, err = strconv.Atoi(hi); err != nil || p.max < p.min {
			return p, fmt.Errorf("bad length %q", s)
		}
	}
	return p, nil
}

// tokenFormatIndex is the compiled table: one Aho-Corasick automaton over every format's
// anchor, and the formats of each anchor.
type tokenFormatIndex struct {
	trie     *ahocorasick.Trie
	byAnchor [][]int
	formats  []tokenFormat
	chars    byteSet // every character any format's token may hold
	minLen   int     // the shortest token any format allows
}

var tokenFormats = sync.OnceValue(func() *tokenFormatIndex {
	ix := &tokenFormatIndex{}
	seen := map[string]int{}
	var anchors []string
	for _, e := range tokenFormatTable {
		f, err := parseTokenFormat(e.vendor, e.format)
		if err != nil {
			panic("vibe: token format table: " + err.Error())
		}
		k, ok := seen[f.anchor]
		if !ok {
			k = len(anchors)
			seen[f.anchor] = k
			anchors = append(anchors, f.anchor)
			ix.byAnchor = append(ix.byAnchor, nil)
		}
		ix.byAnchor[k] = append(ix.byAnchor[k], len(ix.formats))
		ix.formats = append(ix.formats, f)
		ix.chars.addAll(f.anchor)
		n := len(f.anchor)
		for _, p := range append(f.before[:len(f.before):len(f.before)], f.after...) {
			n += p.min
			if p.lit != "" {
				ix.chars.addAll(p.lit)
			}
		}
		for i := range f.alphabet {
			ix.chars[i] |= f.alphabet[i]
		}
		if ix.minLen == 0 || n < ix.minLen {
			ix.minLen = n
		}
	}
	ix.trie = ahocorasick.NewTrieBuilder().AddStrings(anchors).Build()
	return ix
})

// ruleTableFormat names findTableFormats' matches. Where another rule names the same token
// (gitleaks' or a vendor rule here), its name is kept: the table is the wider net.
const ruleTableFormat = "vendor-format"

// findTableFormats masks every token of a format in tokenFormatTable: the anchors'
// automaton runs over each run of characters a token may hold that is long enough for the
// shortest format (words, code punctuation and blanks are skipped at a byte compare each),
// then, at each anchor found, its formats' parts are matched outwards from it.
func findTableFormats(chunk string, off int, f *findings) {
	ix := tokenFormats()
	for i := 0; i < len(chunk); {
		if !ix.chars.has(chunk[i]) {
			i++
			continue
		}
		start := i
		for i < len(chunk) && ix.chars.has(chunk[i]) {
			i++
		}
		if i-start >= ix.minLen {
			ix.findIn(chunk, start, i, off, f)
		}
	}
}

// findIn finds the table's tokens whose anchors lie in chunk[from:to].
func (ix *tokenFormatIndex) findIn(chunk string, from, to, off int, f *findings) {
	cs, ce := 0, -1 // the last token found: a match inside it adds nothing
	ix.trie.Walk(stringBytes(chunk[from:to]), func(end, n, p int64) bool {
		at := from + int(end-n+1)
		// The longest token of the anchor's formats: dapi… with its -<digits> suffix, not
		// only the part a shorter format of the same vendor covers.
		bs, be, best := 0, -1, -1
		for _, k := range ix.byAnchor[p] {
			if s, e, ok := ix.formats[k].match(chunk, at); ok && e-s > be-bs {
				bs, be, best = s, e, k
			}
		}
		if best >= 0 && (bs < cs || be > ce) && ix.formats[best].plausible(chunk, bs, be, at) {
			f.addSpan(ruleTableFormat, off+bs, off+be)
			cs, ce = bs, be
		}
		return true
	})
}

// match reports the token of format f whose anchor is at text[at:], by its shape alone.
func (f *tokenFormat) match(text string, at int) (start, end int, ok bool) {
	budget := 512 // backtracking steps: the parts are few and bounded, this is never reached by a token
	end = matchParts(text, at+len(f.anchor), f.after, 1, nil, &budget)
	if end < 0 {
		return 0, 0, false
	}
	start = matchParts(text, at, f.before, -1, nil, &budget)
	if start < 0 {
		return 0, 0, false
	}
	return start, end, true
}

// matchParts matches parts from pos in direction dir (1: rightwards, -1: leftwards, pos is
// then the end of what the parts must fill), longest runs first, and returns where the match
// ends. The token must end there: the next character is no letter or digit and does not
// continue the run of the last part that took characters (a shorter run would cut a longer
// token; a literal ends where it ends). last is that part's set, nil after a literal.
func matchParts(text string, pos int, parts []formatPart, dir int, last *byteSet, budget *int) int {
	*budget--
	if *budget < 0 {
		return -1
	}
	if len(parts) == 0 {
		next := pos
		if dir < 0 {
			next = pos - 1
		}
		if next >= 0 && next < len(text) && (isAlnum(text[next]) || last != nil && last.has(text[next])) {
			return -1
		}
		return pos
	}
	p := &parts[0]
	if p.lit != "" {
		if dir > 0 && strings.HasPrefix(text[pos:], p.lit) {
			return matchParts(text, pos+len(p.lit), parts[1:], dir, nil, budget)
		}
		if dir < 0 && strings.HasSuffix(text[:pos], p.lit) {
			return matchParts(text, pos-len(p.lit), parts[1:], dir, nil, budget)
		}
		return -1
	}
	run := 0
	for run < p.max {
		i := pos + run
		if dir < 0 {
			i = pos - run - 1
		}
		if i < 0 || i >= len(text) || !p.set.has(text[i]) {
			break
		}
		run++
	}
	for n := run; n >= p.min; n-- {
		next := last
		if n > 0 {
			next = &p.set
		}
		if r := matchParts(text, pos+dir*n, parts[1:], dir, next, budget); r >= 0 {
			return r
		}
	}
	return -1
}

// plausible rejects a match that is a stand-in, a provider's id, a file name, or made of
// words where the format's alphabet would give a generated token digits.
func (f *tokenFormat) plausible(text string, start, end, at int) bool {
	tok := text[start:end]
	if placeholderWords(tok) || standIn(tok) {
		return false
	}
	// A provider's object id (msg_01…, req_011…) is no key, whatever table format it fits;
	// their separator is _, while a key's signature may end in - (Firecrawl's fc-).
	if strings.IndexByte(tok, '_') >= 0 && isProviderID(tok) {
		return false
	}
	if end+1 < len(text) && text[end] == '.' && isLetter(text[end+1]) && !f.alphabet.has('.') {
		return false // a file name: fc-3f9c….js
	}
	gen := text[start:at] + text[at+len(f.anchor):end]
	if f.generated && !strings.ContainsAny(gen, digitChars) && meanRunLength(gen) >= 3 {
		return false // words: sk-ant-api03-… written out as a phrase
	}
	if f.generic && f.alphabet.has('a') && f.alphabet.has('A') && meanRunLength(gen) >= 2.6 {
		return false // test_userCanLoginWithValid2FA: a name (random mixed case averages 1.6)
	}
	return true
}
