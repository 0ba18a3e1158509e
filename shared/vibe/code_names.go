package vibe

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// englishWords is the English words of 3 to 14 lower-case letters of SCOWL's size-50
// American list (Debian's wamerican 2020.12.07-2, /usr/share/dict/american-english), one a
// line, sorted, without the -s, -es, -ed, -d and -ing forms of a word also listed (dictWord
// strips those endings). SCOWL's licence is permissive (use, copy, modify, distribute and sell
// with its notice kept); the notice is english_words.COPYRIGHT, Debian's
// /usr/share/doc/wamerican/copyright. Made by:
//
//	awk 'length>=3 && length<=14 && /^[a-z]+$/' /usr/share/dict/american-english | sort -u > all
//	awk -f english_words.awk all all > english_words.txt
//
//go:embed english_words.txt
var englishWords string

// englishWordStarts indexes englishWords' lines for a binary search, with the end of the
// last as a sentinel: 36 k words, 140 KB, built on first use (a map would take ten times that).
var englishWordStarts = sync.OnceValue(func() []uint32 {
	starts := make([]uint32, 0, strings.Count(englishWords, "\n")+2)
	i := 0
	for i < len(englishWords) {
		starts = append(starts, uint32(i))
		j := strings.IndexByte(englishWords[i:], '\n')
		if j < 0 {
			j = len(englishWords) - i
		}
		i += j + 1
	}
	return append(starts, uint32(i)) // one past the last line's end, as past a '\n'

})

func listedWord(w []byte) bool {
	starts := englishWordStarts()
	lo, hi := 0, len(starts)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		line := englishWords[starts[m] : starts[m+1]-1]
		switch c := compareBytes(line, w); {
		case c == 0:
			return true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false
}

// compareBytes is strings.Compare(s, string(b)) without the conversion, which allocates here.
func compareBytes(s string, b []byte) int {
	for i := 0; i < len(s) && i < len(b); i++ {
		if s[i] != b[i] {
			if s[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return len(s) - len(b)
}

// dictWord reports whether s, ASCII letters in any case, is an English word of 3+ letters,
// or one with -s, -es, -ed, -d or -ing added.
func dictWord(s string) bool {
	if len(s) < 3 || len(s) > 16 {
		return false
	}
	var buf [17]byte
	w := buf[:len(s)]
	for i := 0; i < len(s); i++ {
		w[i] = s[i] | 0x20
	}
	if listedWord(w) {
		return true
	}
	n := len(w)
	for _, suf := range [...]string{"s", "es", "ed", "d", "ing"} {
		stem := w[:max(0, n-len(suf))]
		if len(stem) < 3 || string(w[len(stem):]) != suf || suf[len(suf)-1] == 'd' && (suf == "d") != (stem[len(stem)-1] == 'e') {
			continue // -d only after an e (enabled), -ed never (tined, not tineed)
		}
		if suf == "es" && strings.IndexByte("sxzh", stem[len(stem)-1]) < 0 {
			continue // -es after a hiss (classes, boxes, matches)
		}
		if listedWord(stem) {
			return true
		}
	}
	if n >= 6 && string(w[n-3:]) == "ing" { // encoding: encode
		w[n-3] = 'e'
		return listedWord(w[:n-2])
	}
	return false
}

// nameShaped reports a token shaped like a name in code rather than generated: words,
// acronyms and numbers joined by case changes, '_' or '.', or an expression of such names
// (rewriteValuePPC64_OpRsh32x8, Broadcast1To2Float64x2, ssa.OpAMD64VCVTPD2PSXMasked128load,
// RATE_INFO_EHT_RU_ALLOC). The token is cut into parts at every character that is no letter
// or digit, and each part into pieces: a word (lower-case letters and the capital that opens
// them), an acronym (a run of capitals) and a number. A name is made of English words: the
// pieces that are one (of 4+ letters, or of 3 in a part that mixes cases; an acronym when it
// is a part's only one, RATE) hold half its letters, or a third with one of 6+ letters, and
// no more than three pieces of one or two letters come between two of them. A generated
// secret changes class every character or two: a piece of it is a word now and then, half of
// its letters almost never (9 of 12.3 million random base62, base64, base32 and base36 tokens
// of 20 to 64 characters that the entropy rule catches, each of 20 to 24 characters).
func nameShaped(tok string) bool {
	letters, covered, words, longest := 0, 0, 0, 0
	short, widest := 0, 0 // pieces of one or two letters since the last word, and the most
	word := func(n int) {
		covered += n
		longest = max(longest, n)
		if n >= 4 {
			words++
		}
		short = 0
	}
	other := func(n int) {
		if n <= 2 {
			short++
			widest = max(widest, short)
		}
	}
	for i := 0; i < len(tok); {
		if !isLetter(tok[i]) && !isDigitByte(tok[i]) {
			i++
			continue
		}
		// One part: a run of letters and digits.
		end := i
		short = 0
		lowerPart, upperPart := false, false
		for end < len(tok) && (isLetter(tok[end]) || isDigitByte(tok[end])) {
			lowerPart = lowerPart || tok[end] >= 'a' && tok[end] <= 'z'
			upperPart = upperPart || tok[end] >= 'A' && tok[end] <= 'Z'
			end++
		}
		acronyms := 0
		for j := i; j < end; {
			k := j
			for k < end && isDigitByte(tok[k]) {
				k++
			}
			if k > j {
				j = k // a number
				continue
			}
			for k < end && tok[k] >= 'A' && tok[k] <= 'Z' {
				k++
			}
			if k < end && k-1 > j && tok[k] >= 'a' && tok[k] <= 'z' {
				k-- // ECDSAWith: the last capital opens the next word
			}
			if k > j && (k == end || tok[k] < 'a' || tok[k] > 'z') {
				// An acronym.
				letters += k - j
				acronyms++
				if !lowerPart && acronyms == 1 && dictWord(tok[j:k]) {
					word(k - j)
				} else {
					other(k - j)
				}
				j = k
				continue
			}
			for k < end && tok[k] >= 'a' && tok[k] <= 'z' {
				k++
			}
			// A word. Of a part in one case, only words of 4+ letters count: its letters
			// run long even when random, and hold short words by chance.
			letters += k - j
			if (k-j >= 4 || lowerPart && upperPart) && dictWord(tok[j:k]) {
				word(k - j)
			} else {
				other(k - j)
			}
			j = k
		}
		i = end
	}
	if words == 0 || widest > 3 {
		return false
	}
	share := float64(covered) / float64(letters)
	return share >= 0.5 || share >= 0.3 && longest >= 6
}

// nameFamily reports a run at text[start:end] that is one of a family of names: three or
// more runs of the text, each differing from the next only in a middle of at most eight
// characters, the start and end they share making up two thirds of it. Constants, ops and
// intrinsics of code come in families (DER_OID_SZ_c2pnb163v1 beside DER_OID_V_c2pnb163v1
// and DER_OID_SZ_c2pnb163v2; ssa.OpAMD64VRCP14PS512 beside ssa.OpAMD64VRCP14PS256 and
// ssa.OpAMD64VRCP14PD512), however random each name looks alone; two runs are enough when
// the name holds three English words (pbeWithSHA1And128BitRC2-CBC, …40BitRC2-CBC).
// Generated secrets do not: two keys of one vendor share their prefix and differ in all
// their random part, a key shown again is the same run, one shown cut short or starred
// ("AbC…", "AbC...xyZ", "AbC****xyZ", "AbCXXXXxyZ") differs from it in nothing but stand-in
// characters, and a key beside one copy of it changed in a character or two (a test's
// tampered token) makes two runs, not three, and holds three words almost never. Only
// names are judged: letters, digits, _, . and -, so no base64 with + or / and no path.
func nameFamily(text string, start, end int) bool {
	tok := text[start:end]
	if len(tok) < 16 || len(tok) > 128 || !nameRun(tok) {
		return false
	}
	n, as, ae := familySiblings(text, start, end, "")
	if n >= 2 {
		return true
	}
	if n == 1 {
		m, _, _ := familySiblings(text, as, ae, tok)
		return m >= 1 || wordPieces(tok) >= 3
	}
	return false
}

// wordPieces counts the pieces of tok, a capital and the lower-case letters after it or
// lower-case letters alone, that are English words of three or more letters (pbeWithSHA1And…
// holds With, And and Bit). Names of a pair hold three; of 838 thousand random base62,
// base64 and base36 tokens of 20 to 40 characters that the entropy rule catches, 13 do. A
// name of 40 characters or fewer holding four (xmlSecGnuTLSX509CertGetKey: Sec, Gnu, Get,
// Key) is one alone: none of 1.8 million such random tokens holds four.
func wordPieces(tok string) int {
	n := 0
	for i := 0; i < len(tok); {
		if !isLetter(tok[i]) {
			i++
			continue
		}
		j := i
		if tok[j] >= 'A' && tok[j] <= 'Z' {
			j++
		}
		for j < len(tok) && tok[j] >= 'a' && tok[j] <= 'z' {
			j++
		}
		if j-i >= 3 && dictWord(tok[i:j]) {
			n++
		}
		i = max(j, i+1)
	}
	return n
}

// familySiblings counts, up to two, the distinct runs of text that are familyMember of
// text[start:end], other than skip, and returns where the first is.
func familySiblings(text string, start, end int, skip string) (n, fs, fe int) {
	tok := text[start:end]
	if len(tok) < 16 || len(tok) > 128 {
		return 0, 0, 0
	}
	found := func(b, e int) bool {
		sib := text[b:e]
		if sib == skip || n == 1 && sib == text[fs:fe] || !familyMember(tok, sib) {
			return false
		}
		if n == 0 {
			fs, fe = b, e
		}
		n++
		return n == 2
	}
	// scan looks for runs holding pat at their start (or, with atEnd, their end) in
	// text[from:to], comparing at most familyTries of them.
	scan := func(from, to int, pat string, atEnd bool) bool {
		for tries := 0; tries < familyTries; tries++ {
			i := strings.Index(text[from:to], pat)
			if i < 0 {
				return false
			}
			i += from
			from = i + 1
			b, e := i, i+len(pat)
			if atEnd {
				if e == end || e < len(text) && tokenChar(text[e]) {
					continue
				}
				for b > 0 && tokenChar(text[b-1]) && e-b <= 136 {
					b--
				}
			} else {
				if i == start || i > 0 && tokenChar(text[i-1]) {
					continue
				}
				for e < len(text) && tokenChar(text[e]) && e-b <= 136 {
					e++
				}
			}
			if found(b, e) {
				return true
			}
		}
		return false
	}
	// Two thirds shared at the ends means a third shared at one of them. A long shared start
	// is looked for first (a list of names shares a short one with every name in it), and
	// the names after the run before those before it: a family's names stand together.
	k := (len(tok) + 2) / 3
	lo, hi := max(0, start-familyWindow), min(len(text), end+familyWindow)
	for _, p := range [...]struct {
		pat   string
		atEnd bool
	}{{tok[:len(tok)-k], false}, {tok[len(tok)-k:], true}, {tok[:k], false}} {
		if scan(start+1, hi, p.pat, p.atEnd) || scan(lo, min(len(text), start+len(p.pat)), p.pat, p.atEnd) {
			return
		}
	}
	return
}

// familyWindow and familyTries bound the search for a name's family: the bytes read each
// way, and the runs compared a way for each part looked for.
const familyWindow, familyTries = 2048, 16

// nameRun reports a run of letters, digits, _, . and -, holding a letter.
func nameRun(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isLetter(c):
			letter = true
		case isDigitByte(c) || c == '_' || c == '.' || c == '-':
		default:
			return false
		}
	}
	return letter
}

// familyMember reports whether sib is another name of tok's family (nameFamily): the two
// differ in a middle of at most eight characters each, holding a letter or digit on both
// sides or, inside the name, on one (glGetQueryObjecti64v, glGetQueryObjectui64v), and
// share the rest, two thirds of tok. A run that is the other's start or end alone is no
// member: a key cut short, or shown without its prefix.
func familyMember(tok, sib string) bool {
	if sib == tok || !nameRun(sib) || standIn(sib) {
		return false
	}
	p := 0
	for p < len(tok) && p < len(sib) && tok[p] == sib[p] {
		p++
	}
	s := 0
	for s < len(tok)-p && s < len(sib)-p && tok[len(tok)-1-s] == sib[len(sib)-1-s] {
		s++
	}
	mt, ms := tok[p:len(tok)-s], sib[p:len(sib)-s]
	if len(mt) > 8 || len(ms) > 8 {
		return twoMiddles(mt, ms, p+s, len(tok))
	}
	if 3*(p+s) < 2*len(tok) {
		return false
	}
	if mt == "" || ms == "" {
		return p > 0 && s > 0 && holdsAlnum(mt+ms)
	}
	return holdsAlnum(mt) && holdsAlnum(ms)
}

// twoMiddles reports middles that differ in two places around a part they share
// (ECDSAWithP256AndSHA256, ECDSAWithP384AndSHA384: 256…256 and 384…384 around AndSHA), the
// places at most eight characters together on each side, each holding a letter or digit,
// and the shared parts, with the ends' (shared), two thirds of a name n long.
func twoMiddles(mt, ms string, shared, n int) bool {
	need := max(3, len(mt)-8, len(ms)-8, (2*n+2)/3-shared) // the shared part's least length
	if len(mt) > 16 || len(ms) > 16 || need > min(len(mt), len(ms)) {
		return false
	}
	// The longest part the middles share.
	bi, bj, bl := 0, 0, 0
	for i := 0; i+need <= len(mt); i++ {
		for j := 0; j+need <= len(ms); j++ {
			l := 0
			for i+l < len(mt) && j+l < len(ms) && mt[i+l] == ms[j+l] {
				l++
			}
			if l > bl {
				bi, bj, bl = i, j, l
			}
		}
	}
	if bl < need || 3*(shared+bl) < 2*n {
		return false
	}
	return holdsAlnum(mt[:bi]) && holdsAlnum(ms[:bj]) && holdsAlnum(mt[bi+bl:]) && holdsAlnum(ms[bj+bl:])
}

func holdsAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) || isDigitByte(s[i]) {
			return true
		}
	}
	return false
}

// goArchs are the target architectures as Go's compiler names its ops after them
// (Op386ADDL, OpAMD64VCVTPD2PSX128, OpS390XAddTupleFirst32): GOARCH's values, as
// "go tool dist list" prints them, upper-cased as the compiler spells them.
var goArchs = [...]string{"386", "AMD64", "ARM64", "ARM", "LOONG64", "MIPS64", "MIPS", "PPC64", "RISCV64", "S390X", "Wasm"}

// archOpName reports a name of a compiler op of one architecture, maybe qualified by its
// package (ssa.OpAMD64VRCP14PS512, OpS390XAddTupleFirst32, ssa.OpAMD64PrefetchT0): Op, an
// architecture, then the op's name, capitals and digits (an instruction's mnemonic) and
// words, each run of lower-case letters three or more long or two after a capital (Add).
// A random string changes case every character or two and opens with no architecture.
func archOpName(tok string) bool {
	if i := strings.IndexByte(tok, '.'); i > 0 && i < 16 && isLowerWord(tok[:i]) {
		tok = tok[i+1:]
	}
	if !strings.HasPrefix(tok, "Op") {
		return false
	}
	rest := ""
	for _, a := range goArchs {
		if strings.HasPrefix(tok[2:], a) {
			rest = tok[2+len(a):]
			break
		}
	}
	if len(rest) < 3 {
		return false
	}
	run := 0
	for i := 0; i <= len(rest); i++ {
		if i < len(rest) && rest[i] >= 'a' && rest[i] <= 'z' {
			run++
			continue
		}
		if run > 0 && run < 3 && !(run == 2 && i-run > 0 && rest[i-run-1] >= 'A' && rest[i-run-1] <= 'Z') {
			return false
		}
		run = 0
		if i < len(rest) && !isLetter(rest[i]) && !isDigitByte(rest[i]) && rest[i] != '_' {
			return false
		}
	}
	return true
}

func isLowerWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// wordsInCapitals reports a run of capitals and digits whose letters are, three quarters of
// them or more, English words of four or more letters one after another inside it, one of
// six or more (SMACK64TRANSMUTE: SMACK, TRANSMUTE), as names of constants are written in
// capitals: a base32 seed's letters hold such words almost never.
func wordsInCapitals(tok string) bool {
	if len(tok) > 64 {
		return false
	}
	var best [65]int // the most letters of tok[:i] that words cover
	letters, longest := 0, 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= 'A' && c <= 'Z' {
			letters++
		} else if !isDigitByte(c) {
			return false
		}
		best[i+1] = max(best[i+1], best[i])
		for w := 4; w <= 14 && i+w <= len(tok); w++ {
			if !isLetters(tok[i : i+w]) {
				break
			}
			if (best[i]+w > best[i+w] || w > longest) && dictWord(tok[i:i+w]) {
				best[i+w] = max(best[i+w], best[i]+w)
				longest = max(longest, w)
			}
		}
	}
	return longest >= 6 && 4*best[len(tok)] >= 3*letters
}

// rareLetterPairs marks the pairs of lower-case letters that fewer than ten of the listed
// English words hold (zs, vz, jq, but also cf, ql): 26×26 flags counted on first use.
var rareLetterPairs = sync.OnceValue(func() *[26 * 26]bool {
	var counts [26 * 26]uint16
	var seen [26 * 26]bool
	for rest := englishWords; rest != ""; {
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = ""
		}
		seen = [26 * 26]bool{}
		for i := 1; i < len(line); i++ {
			a, b := line[i-1]-'a', line[i]-'a'
			if a < 26 && b < 26 && !seen[int(a)*26+int(b)] {
				seen[int(a)*26+int(b)] = true
				counts[int(a)*26+int(b)]++
			}
		}
	}
	var rare [26 * 26]bool
	for i, n := range counts {
		rare[i] = n < 10
	}
	return &rare
})

// unpronounceable reports a lower-case value of 8 to 40 letters, digits, '_' and '-' that no
// language writes: one run of letters holding three or more pairs of adjacent letters that
// English words hardly hold (omdzsgyg: md, dz, zs; q7xvnw_iyvzm: iy, yv, vz, zm) and no
// English word of four or more letters inside a run. An abbreviation in a name of code holds
// two at most (cfg, mysql: ql; dwm_cfg_bg spreads its over three runs) and a word none.
func unpronounceable(v string) bool {
	if len(v) < 8 || len(v) > 40 || placeholderValue(v) {
		return false
	}
	rare := rareLetterPairs()
	run, most, letters := 0, 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
			letters++
			if i > 0 && v[i-1] >= 'a' && v[i-1] <= 'z' {
				if rare[int(v[i-1]-'a')*26+int(c-'a')] {
					run++
					most = max(most, run)
				}
			} else {
				run = 0
			}
		case isDigitByte(c) || c == '_' || c == '-':
		default:
			return false
		}
	}
	if most < 3 || letters < 6 {
		return false
	}
	for i := 0; i < len(v); {
		if !isLetter(v[i]) {
			i++
			continue
		}
		j := i
		for j < len(v) && isLetter(v[j]) {
			j++
		}
		if holdsWord(v[i:j]) {
			return false
		}
		i = j
	}
	return true
}

// holdsWord reports a run of letters with an English word of four or more letters in it.
func holdsWord(run string) bool {
	for i := 0; i+4 <= len(run); i++ {
		for j := min(len(run), i+16); j >= i+4; j-- {
			if dictWord(run[i:j]) {
				return true
			}
		}
	}
	return false
}

// mangledCxxName reports a C++ symbol as the Itanium ABI mangles it (GCC and Clang on every
// system but Windows), as linker errors, nm, backtraces, perf and symbol files print it:
// _Z (__Z on macOS), then a nested name (N), a std:: abbreviation (S), a special name (T, G),
// an internal-linkage mark (L) or a name's length, and every name inside written as its
// length then its characters (_ZNSt6vectorIiSaIiEE9push_backERKi holds vector and
// push_back). A clone's suffix after a dot (.cold, .isra.0) is not looked at. The names of
// three characters or more are words in snake or camel case (char_traits, _M_setup,
// _Ios_Openmode) and make a third of the symbol or more; between them lower-case letters
// are one-letter builtin types (i int, v void, Pc char*) or two-letter operators (pl, ix).
// A random token opens with _Z once in four thousand, and then a length before a
// mixed-case run (7rxQLgYs) or a run of lower-case letters no length explains gives it away.
func mangledCxxName(tok string) bool {
	tok = strings.TrimPrefix(tok, "_")
	if i := strings.IndexByte(tok, '.'); i >= 0 {
		tok = tok[:i]
	}
	if len(tok) < 8 || tok[0] != 'Z' || strings.IndexByte("NKSTGLZ0123456789", tok[1]) < 0 || !allWordBytes(tok) {
		return false
	}
	named := make([]bool, len(tok)) // bytes inside a length-prefixed name
	covered := 0
	wordy := false // a name holds four lower-case letters with a vowel among them
	for i := 1; i < len(tok); {
		if !isDigitByte(tok[i]) {
			i++
			continue
		}
		j := i
		for j < len(tok) && isDigitByte(tok[j]) {
			j++
		}
		if i >= 3 && tok[i-2] == 'L' && strings.IndexByte("bcahstijlmxy", tok[i-1]) >= 0 && j < len(tok) && tok[j] == 'E' {
			i = j // a template argument's literal value (ILi16EE: the int 16), no name's length
			continue
		}
		// The digits may end a name before them (__cxx11 then 12basic_string reads 1112):
		// the longest tail of the run whose length fits is the prefix. Digits then an
		// underscore after S, T or n are a back-reference (S2_), a template parameter (T0_)
		// or a thunk's offset (n16_), no name's length.
		next := j
		for k := i; k < j; k++ {
			n, err := strconv.Atoi(tok[k:j])
			if err != nil || n == 0 || n > len(tok)-j || !isLetter(tok[j]) && tok[j] != '_' || !allWordBytes(tok[j:j+n]) {
				continue
			}
			if tok[j] == '_' && strings.IndexByte("STn", tok[i-1]) >= 0 {
				break
			}
			if n >= 3 {
				if !snakeOrCamelName(tok[j : j+n]) {
					return false
				}
				covered += n
				wordy = wordy || vowelWord(tok[j:j+n])
			}
			for e := j + n; j < e; j++ {
				named[j] = true
			}
			next = j
			break
		}
		i = next
	}
	if covered*3 < len(tok) || !wordy {
		return false
	}
	other := 0 // lower-case letters between the names that are no builtin type
	for i := 1; i < len(tok); {
		if named[i] || !isLowerByte(tok[i]) {
			i++
			continue
		}
		if strings.IndexByte("kpqru", tok[i]) >= 0 {
			if other++; other > 1 {
				return false
			}
		}
		j := i
		for j < len(tok) && !named[j] && isLowerByte(tok[j]) {
			j++
		}
		if j-i > 2 && strings.Trim(tok[i:j], "vwbcahstijlmxynofdegz") != "" {
			return false // a run of three or more that are not all builtin types
		}
		i = j
	}
	return true
}

// snakeOrCamelName reports a name whose parts between underscores open with a letter and
// are lower case, upper case, or words in camel case, each a capital then two or more
// lower-case letters or digits (char_traits, _M_setup, _Ios_Openmode, getName, __cxx11),
// where a random run changes case every letter or two.
func snakeOrCamelName(s string) bool {
	for _, p := range strings.Split(s, "_") {
		if p == "" {
			continue
		}
		if isDigitByte(p[0]) && !isDigits(p) {
			d := 0
			for d < len(p) && isDigitByte(p[d]) {
				d++
			}
			if len(p)-d > 4 || strings.ToLower(p[d:]) != p[d:] || !isLetters(p[d:]) {
				return false // _S_construct_aux_2 has a number for a part; one opens with a number only of a unit (x265_10bit, s16le)
			}
		}
		if strings.ToUpper(p) == p || strings.ToLower(p) == p {
			continue // NPOS, X509, mbstate, t
		}
		run, caps := 0, 0 // lower-case letters and digits since the last capital; capitals in a row
		for i := 0; i < len(p); i++ {
			if !isUpperByte(p[i]) {
				if caps > 4 {
					return false
				}
				run++
				caps = 0
				continue
			}
			if i > 0 && caps == 0 && run < 2 && (i < 2 || !slices.Contains(camelShortWords, p[i-2:i])) {
				return false // a capital after a single letter, unless the two are a word (zscanToPel)
			}
			caps++
			run = 0
		}
		if run == 1 && caps == 0 || caps > 4 {
			return false
		}
	}
	return true
}

// camelShortWords are the two-letter words a camel-case name joins its parts with.
var camelShortWords = []string{"To", "Of", "By", "At", "In", "On", "Is", "As", "Or", "If", "Up", "No", "Do"}

// vowelWord reports a run of four or more lower-case letters in s that holds a vowel.
func vowelWord(s string) bool {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isLowerByte(s[j]) {
			j++
		}
		if j-i >= 4 && strings.ContainsAny(s[i:j], "aeiou") {
			return true
		}
		i = j + 1
	}
	return false
}

// mangledNameAt reports a name found at s[i:] that is part of a mangled C++ symbol
// (_ZN6parser11token_queue…): the run of letters, digits and underscores around it opens
// with _Z and mangledCxxName takes it.
func mangledNameAt(s string, i int) bool {
	start := i
	for start > 0 && i-start < 256 && isWordByte(s[start-1]) {
		start--
	}
	if !strings.HasPrefix(s[start:], "_Z") && !strings.HasPrefix(s[start:], "__Z") {
		return false
	}
	end := i
	for end < len(s) && end-start < 512 && isWordByte(s[end]) {
		end++
	}
	return mangledCxxName(s[start:end])
}

// allWordBytes reports whether s is made of letters, digits and underscores only.
func allWordBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}
