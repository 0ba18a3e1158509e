// Package linediff counts changed lines between two texts.
package linediff

import "strings"

// maxDiffCells bounds the LCS table; beyond it the count is an upper bound.
const maxDiffCells = 4 << 20

// Changed counts the lines removed plus the lines added to turn a into b.
func Changed(a, b string) int {
	if a == b {
		return 0
	}
	x, y := splitLines(a), splitLines(b)
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	if len(x) == 0 || len(y) == 0 || len(x)*len(y) > maxDiffCells {
		return len(x) + len(y)
	}
	prev, cur := make([]int, len(y)+1), make([]int, len(y)+1)
	for i := range x {
		for j := range y {
			switch {
			case x[i] == y[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	lcs := prev[len(y)]
	return len(x) + len(y) - 2*lcs
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Count counts the lines of s.
func Count(s string) int { return len(splitLines(s)) }
