package vibe

import (
	_ "embed"
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
