// Package linediff counts and shows changed lines between two texts.
package linediff

import "strings"

// maxDiffCells bounds the LCS table; beyond it the counts are an upper bound and a hunk shows
// the whole changed middle as removed and added.
const maxDiffCells = 1 << 20

// Changed counts the lines removed plus the lines added to turn a into b.
func Changed(a, b string) int {
	added, removed := Stat(a, b)
	return added + removed
}

// Stat counts the lines added and removed to turn a into b.
func Stat(a, b string) (added, removed int) {
	for _, op := range diff(a, b) {
		switch op.kind {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	return added, removed
}

// Hunk shows the change from a to b as unified-diff lines: a "@@" line, then the changed lines
// prefixed with "-" and "+" and up to one unchanged line of context around them, at most
// maxLines lines after the "@@". It is "" when nothing changed.
func Hunk(a, b string, maxLines int) string {
	ops := diff(a, b)
	first, last := -1, -1
	for i, op := range ops {
		if op.kind != ' ' {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return ""
	}
	first, last = max(first-1, 0), min(last+1, len(ops)-1)
	var sb strings.Builder
	sb.WriteString("@@")
	for n, op := range ops[first : last+1] {
		if n == maxLines {
			break
		}
		sb.WriteByte('\n')
		sb.WriteByte(op.kind)
		sb.WriteString(op.line)
	}
	return sb.String()
}

// Added shows a new file's first lines as an added hunk (see Hunk).
func Added(s string, maxLines int) string {
	lines := splitLines(s)
	if len(lines) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("@@")
	for _, l := range lines[:min(len(lines), maxLines)] {
		sb.WriteString("\n+")
		sb.WriteString(l)
	}
	return sb.String()
}

type op struct {
	kind byte // ' ', '-' or '+'
	line string
}

// diff is a line diff by longest common subsequence, after trimming the common prefix and
// suffix.
func diff(a, b string) []op {
	if a == b {
		return nil
	}
	x, y := splitLines(a), splitLines(b)
	var head, tail []op
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		head = append(head, op{' ', x[0]})
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		tail = append([]op{{' ', x[len(x)-1]}}, tail...)
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	out := head
	if len(x) == 0 || len(y) == 0 || len(x)*len(y) > maxDiffCells {
		for _, l := range x {
			out = append(out, op{'-', l})
		}
		for _, l := range y {
			out = append(out, op{'+', l})
		}
		return append(out, tail...)
	}
	return append(append(out, lcs(x, y)...), tail...)
}

// lcs walks the LCS table of x and y into delete, insert and keep operations.
func lcs(x, y []string) []op {
	w := len(y) + 1
	cells := make([]int32, (len(x)+1)*w)
	t := func(i, j int) int32 { return cells[i*w+j] }
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				cells[i*w+j] = t(i+1, j+1) + 1
			} else {
				cells[i*w+j] = max(t(i+1, j), t(i, j+1))
			}
		}
	}
	var out []op
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] == y[j]:
			out = append(out, op{' ', x[i]})
			i, j = i+1, j+1
		case t(i+1, j) >= t(i, j+1):
			out = append(out, op{'-', x[i]})
			i++
		default:
			out = append(out, op{'+', y[j]})
			j++
		}
	}
	for ; i < len(x); i++ {
		out = append(out, op{'-', x[i]})
	}
	for ; j < len(y); j++ {
		out = append(out, op{'+', y[j]})
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Count counts the lines of s.
func Count(s string) int { return len(splitLines(s)) }
