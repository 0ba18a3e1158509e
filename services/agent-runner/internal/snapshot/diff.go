package snapshot

import (
	"bytes"
	"sort"
)

// Op is what happened to a file between two snapshots.
type Op string

// Ops.
const (
	Added    Op = "added"
	Modified Op = "modified"
	Deleted  Op = "deleted"
)

// Change is one file that differs.
type Change struct {
	Path string `json:"path"` // slash-separated, relative to the root
	Op   Op     `json:"op"`
	// Lines is the number of lines added plus removed (0 when unknown, e.g. binary).
	Lines int `json:"lines,omitempty"`
}

// Diff lists the files that differ between two snapshots, sorted by path.
type Diff struct {
	From    string   `json:"from,omitempty"`
	To      string   `json:"to,omitempty"`
	Changes []Change `json:"changes"`
}

// Empty reports whether nothing changed.
func (d Diff) Empty() bool { return len(d.Changes) == 0 }

// Count returns how many files were added, modified and deleted.
func (d Diff) Count() (added, modified, deleted int) {
	for _, c := range d.Changes {
		switch c.Op {
		case Added:
			added++
		case Modified:
			modified++
		case Deleted:
			deleted++
		}
	}
	return
}

// Compare lists the files added, modified and deleted going from a to b. Line counts are not
// filled in; see Store.Diff.
func Compare(a, b *Snapshot) Diff {
	d := Diff{From: a.ID, To: b.ID, Changes: []Change{}}
	for p, fb := range b.Files {
		fa, ok := a.Files[p]
		switch {
		case !ok:
			d.Changes = append(d.Changes, Change{Path: p, Op: Added})
		case fa.Hash != fb.Hash || fa.Mode != fb.Mode:
			d.Changes = append(d.Changes, Change{Path: p, Op: Modified})
		}
	}
	for p := range a.Files {
		if _, ok := b.Files[p]; !ok {
			d.Changes = append(d.Changes, Change{Path: p, Op: Deleted})
		}
	}
	sort.Slice(d.Changes, func(i, j int) bool { return d.Changes[i].Path < d.Changes[j].Path })
	return d
}

// Diff is Compare with each change's line count, computed from the stored contents.
func (s *Store) Diff(a, b *Snapshot) Diff {
	d := Compare(a, b)
	for i := range d.Changes {
		c := &d.Changes[i]
		var before, after []byte
		if f, ok := a.Files[c.Path]; ok && c.Op != Added {
			before, _ = s.Content(f)
		}
		if f, ok := b.Files[c.Path]; ok && c.Op != Deleted {
			after, _ = s.Content(f)
		}
		c.Lines = LinesChanged(before, after)
	}
	return d
}

// LinesChanged counts lines added plus lines removed between two texts, comparing them as
// multisets of lines (moved lines do not count). Binary content (a NUL byte) counts as 0.
func LinesChanged(before, after []byte) int {
	if bytes.IndexByte(before, 0) >= 0 || bytes.IndexByte(after, 0) >= 0 {
		return 0
	}
	count := map[string]int{}
	for _, l := range splitLines(before) {
		count[l]--
	}
	for _, l := range splitLines(after) {
		count[l]++
	}
	n := 0
	for _, c := range count {
		if c < 0 {
			c = -c
		}
		n += c
	}
	return n
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	parts := bytes.Split(b, []byte("\n"))
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}
