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
