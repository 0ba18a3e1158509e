// Package applypatch reads the apply_patch envelope Codex CLI and opencode edit files with.
package applypatch

import (
	"strings"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
)

// File is one file of an apply_patch envelope.
type File struct {
	Path, MoveTo   string
	Op             string // create, edit, delete, rename
	Added, Removed int
	hunk           []string // "@@" and the changed lines, for the snippet
}

// Parse reads Codex's apply_patch format:
//
//	*** Begin Patch
//	*** Add File: path        followed by +lines
//	*** Update File: path     optionally *** Move to: path, then @@ hunks of " ", "-", "+" lines
//	*** Delete File: path
//	*** End Patch
func Parse(text string) []File {
	var out []File
	var cur *File
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			out = append(out, File{Path: strings.TrimSpace(l[len("*** Add File: "):]), Op: "create", hunk: []string{"@@"}})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "*** Update File: "):
			out = append(out, File{Path: strings.TrimSpace(l[len("*** Update File: "):]), Op: "edit"})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "*** Delete File: "):
			out = append(out, File{Path: strings.TrimSpace(l[len("*** Delete File: "):]), Op: "delete"})
			cur = nil
		case strings.HasPrefix(l, "*** Move to: ") && cur != nil:
			cur.MoveTo, cur.Op = strings.TrimSpace(l[len("*** Move to: "):]), "rename"
		case strings.HasPrefix(l, "***"):
			if strings.HasPrefix(l, "*** End Patch") {
				cur = nil
			}
		case cur == nil:
		case strings.HasPrefix(l, "@@"):
			if len(cur.hunk) == 0 {
				cur.hunk = append(cur.hunk, "@@")
			}
		case strings.HasPrefix(l, "+"):
			cur.Added++
			cur.hunk = append(cur.hunk, l)
		case strings.HasPrefix(l, "-"):
			cur.Removed++
			cur.hunk = append(cur.hunk, l)
		case strings.HasPrefix(l, " ") && len(cur.hunk) > 0 && cur.Added+cur.Removed == 0:
			cur.hunk = append(cur.hunk[:1], l) // the context line just before the first change
		}
	}
	return out
}

// Find finds an apply_patch envelope in a tool's input or a shell command.
func Find(s string) (string, bool) {
	i := strings.Index(s, "*** Begin Patch")
	if i < 0 {
		return "", false
	}
	s = s[i:]
	if j := strings.Index(s, "*** End Patch"); j >= 0 {
		s = s[:j+len("*** End Patch")]
	}
	return s, true
}

// Changes turns a patch's files into file changes, paths relative to the project.
func Changes(patch []File, root, cwd string) []activity.FileChange {
	out := make([]activity.FileChange, 0, len(patch))
	for _, p := range patch {
		fc := activity.FileChange{Path: activity.Relative(root, cwd, p.Target()), Operation: p.Op, Added: p.Added, Removed: p.Removed}
		if len(p.hunk) > 1 {
			fc.Snippet = strings.Join(p.hunk[:min(len(p.hunk), activity.SnippetLines+1)], "\n")
		}
		out = append(out, fc)
	}
	return out
}

// Target is where the file is after the patch.
func (f File) Target() string {
	if f.MoveTo != "" {
		return f.MoveTo
	}
	return f.Path
}
