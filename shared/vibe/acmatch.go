package vibe

// acMatcher finds every occurrence of a set of byte patterns in one pass: an Aho-Corasick
// automaton with its failure links folded into a transition table (a DFA), over classes of
// the bytes the patterns use. A step is one table load whatever the text; the trie walk of
// github.com/BobuSumisu/aho-corasick follows failure links and dictionary links at every
// byte, which at about 10 ns a byte made the gates of the rules cost as much as the rules.
type acMatcher struct {
	class  [256]uint8 // byte → class; 0 for bytes no pattern holds
	nclass int
	delta  []int32 // state·nclass + class → next state·nclass·2, +1 when it has outputs
	outAt  []int32 // state → its outputs in out[outAt[s]:outAt[s+1]]
	out    []int32 // pattern indexes, each state's own and those of its failure chain
	lens   []int32 // pattern → length
	maxLen int     // the longest pattern's length
}

// newACMatcher builds the automaton of patterns; pattern i is reported as i. Empty patterns
// are never reported.
func newACMatcher(patterns []string) *acMatcher {
	m := &acMatcher{lens: make([]int32, len(patterns))}
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			if m.class[p[i]] == 0 {
				m.nclass++
				if m.nclass > 255 {
					panic("vibe: acMatcher alphabet overflow")
				}
				m.class[p[i]] = uint8(m.nclass)
			}
		}
	}
	m.nclass++ // class 0 included
	nc := m.nclass
	// The trie: -1 where there is no child.
	next := make([]int32, nc)
	for i := range next {
		next[i] = -1
	}
	var own [][]int32 // state → patterns ending there
	own = append(own, nil)
	for pi, p := range patterns {
		m.lens[pi] = int32(len(p))
		m.maxLen = max(m.maxLen, len(p))
		if p == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(p); i++ {
			c := int32(m.class[p[i]])
			if next[s*int32(nc)+c] < 0 {
				n := int32(len(own))
				own = append(own, nil)
				for range nc {
					next = append(next, -1)
				}
				next[s*int32(nc)+c] = n
			}
			s = next[s*int32(nc)+c]
		}
		own[s] = append(own[s], int32(pi))
	}
	states := len(own)
	fail := make([]int32, states)
	outs := make([][]int32, states)
	m.delta = make([]int32, states*nc)
	queue := make([]int32, 0, states)
	for c := range nc {
		if n := next[c]; n >= 0 {
			m.delta[c] = n
			fail[n] = 0
			queue = append(queue, n)
		} // else delta[c] = 0, the root
	}
	outs[0] = own[0]
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		outs[s] = append(append([]int32(nil), own[s]...), outs[fail[s]]...)
		for c := range nc {
			n := next[int(s)*nc+c]
			if n < 0 {
				m.delta[int(s)*nc+c] = m.delta[int(fail[s])*nc+c]
				continue
			}
			m.delta[int(s)*nc+c] = n
			fail[n] = m.delta[int(fail[s])*nc+c]
			queue = append(queue, n)
		}
	}
	m.outAt = make([]int32, states+1)
	for s := range states {
		m.outAt[s] = int32(len(m.out))
		m.out = append(m.out, outs[s]...)
	}
	m.outAt[states] = int32(len(m.out))
	// Rows premultiplied and the output flag in the low bit: one load a byte.
	for i, n := range m.delta {
		v := n * int32(nc) * 2
		if m.outAt[n] < m.outAt[n+1] {
			v |= 1
		}
		m.delta[i] = v
	}
	return m
}

// each calls fn for every occurrence of every pattern in text, with the pattern's index
// and the position just past its end, in order of the end position.
func (m *acMatcher) each(text string, fn func(pattern, end int)) {
	row := int32(0)
	delta, class := m.delta, &m.class
	for i := 0; i < len(text); i++ {
		v := delta[row+int32(class[text[i]])]
		row = v >> 1
		if v&1 != 0 {
			s := row / int32(m.nclass)
			for _, p := range m.out[m.outAt[s]:m.outAt[s+1]] {
				fn(int(p), i+1)
			}
		}
	}
}

// acHits holds every occurrence of a matcher's patterns in one text, so that a scan asking
// pattern by pattern for the next occurrence (strings.Index in a loop, once per pattern)
// reads them instead of searching the text again for each pattern.
type acHits struct {
	text string
	hits []uint32  // start<<8 | pattern, in order of end position
	cur  [64]int32 // pattern → index in hits of its first occurrence not yet passed
}

// hits finds every occurrence of m's patterns (at most 64 of them) in text, appending to
// buf.
func (m *acMatcher) hits(text string, buf []uint32) acHits {
	if len(m.lens) > len(acHits{}.cur) || len(text) >= 1<<24 {
		panic("vibe: acHits holds 64 patterns of a text under 16 MB")
	}
	m.each(text, func(p, end int) {
		buf = append(buf, uint32(end-int(m.lens[p]))<<8|uint32(p))
	})
	return acHits{text: text, hits: buf}
}

// next returns the position of the first occurrence of pattern p at from or after it, or -1:
// what strings.Index(text[from:], pattern) returns, plus from. Calls for one pattern must not
// go back (from never smaller than in the call before).
func (h *acHits) next(p, from int) int {
	_ = h.text[from:] // past the end, strings.Index's slicing would panic: so does this
	for k := int(h.cur[p]); k < len(h.hits); k++ {
		v := h.hits[k]
		if int(v&0xff) == p && int(v>>8) >= from {
			h.cur[p] = int32(k)
			return int(v >> 8)
		}
	}
	h.cur[p] = int32(len(h.hits))
	return -1
}

// stateRows builds, for a set of w-word bit sets, one row of w words per state of m: the
// union of the sets of the patterns the state reports, which add sets in row.
func (m *acMatcher) stateRows(w int, add func(pattern int, row []uint64)) []uint64 {
	states := len(m.outAt) - 1
	rows := make([]uint64, states*w)
	for s := range states {
		for _, p := range m.out[m.outAt[s]:m.outAt[s+1]] {
			add(int(p), rows[s*w:s*w+w])
		}
	}
	return rows
}

// union ORs into dst the row (of rows, built by stateRows with len(dst) words) of every
// state reached in text that reports a pattern: the union of the sets of the patterns that
// occur, without a call per occurrence. It reports whether any pattern occurs.
//
// The walk is a chain of dependent table loads, so a long text is walked as four parts at
// once, which the processor overlaps: each part from the root, starting early enough (the
// longest pattern's length less one) to see whole every occurrence that ends in it. An
// occurrence two walks see is the same set twice.
func (m *acMatcher) union(text string, rows, dst []uint64) bool {
	w := len(dst)
	delta, class := m.delta, &m.class
	found := false
	// A state's row is ORed in once: the states already done, when there are few enough.
	var done [64]uint64
	track := len(m.outAt)-1 <= 64*len(done)
	or := func(v int32) {
		s := int(v>>1) / m.nclass
		if track {
			if done[s>>6]&(1<<(s&63)) != 0 {
				return
			}
			done[s>>6] |= 1 << (s & 63)
		}
		r := rows[s*w : s*w+w]
		for k := range dst {
			dst[k] |= r[k]
		}
		found = true
	}
	const parts = 4
	overlap := max(m.maxLen-1, 0)
	part := len(text) / parts
	if part <= overlap || m.maxLen == 0 {
		row := int32(0)
		for i := 0; i < len(text); i++ {
			v := delta[row+int32(class[text[i]])]
			row = v >> 1
			if v&1 != 0 {
				or(v)
			}
		}
		return found
	}
	// Parts b, c and d start overlap bytes before their thirds' ends; d runs to the end.
	a := text[:part]
	b := text[part-overlap : 2*part]
	c := text[2*part-overlap : 3*part]
	d := text[3*part-overlap:]
	var ra, rb, rc, rd int32
	n := len(a) // b and c are longer, d the longest
	for i := 0; i < n; i++ {
		va := delta[ra+int32(class[a[i]])]
		vb := delta[rb+int32(class[b[i]])]
		vc := delta[rc+int32(class[c[i]])]
		vd := delta[rd+int32(class[d[i]])]
		ra, rb, rc, rd = va>>1, vb>>1, vc>>1, vd>>1
		if (va|vb|vc|vd)&1 != 0 {
			for _, v := range [...]int32{va, vb, vc, vd} {
				if v&1 != 0 {
					or(v)
				}
			}
		}
	}
	for _, t := range [...]struct {
		s   string
		row int32
	}{{b, rb}, {c, rc}, {d, rd}} {
		row := t.row
		for i := n; i < len(t.s); i++ {
			v := delta[row+int32(class[t.s[i]])]
			row = v >> 1
			if v&1 != 0 {
				or(v)
			}
		}
	}
	return found
}

// foldGroups returns the union of group[p] over the patterns p an ASCII text holds in any
// case (the patterns lower-case), stopping once every bit of all is set: one pass for gates
// that ask about several sets of patterns. A nil group puts every pattern in group 1.
func (m *acMatcher) foldGroups(text string, group []uint8, all uint8) uint8 {
	var found uint8
	row := int32(0)
	delta, class := m.delta, &m.class
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		v := delta[row+int32(class[c])]
		row = v >> 1
		if v&1 == 0 {
			continue
		}
		if group == nil {
			return 1
		}
		s := row / int32(m.nclass)
		for _, p := range m.out[m.outAt[s]:m.outAt[s+1]] {
			found |= group[p]
		}
		if found == all {
			return found
		}
	}
	return found
}

// containsFold reports whether an ASCII text holds one of m's lower-case patterns in any
// case: what strings.Contains of each over strings.ToLower(text) reports.
func (m *acMatcher) containsFold(text string) bool {
	return m.foldGroups(text, nil, 1) != 0
}
