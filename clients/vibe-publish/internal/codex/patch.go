package codex

import (
	"strings"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
)

// filePatch is one file of an apply_patch envelope.
type filePatch struct {
	path, moveTo   string
	op             string // create, edit, delete, rename
	added, removed int
	hunk           []string // "@@" and the changed lines, for the snippet
}

// parsePatch reads Codex's apply_patch format:
//
//	*** Begin Patch
//	*** Add File: path        followed by +lines
//	*** Update File: path     optionally *** Move to: path, then @@ hunks of " ", "-", "+" lines
//	*** Delete File: path
//	*** End Patch
func parsePatch(text string) []filePatch {
	var out []filePatch
	var cur *filePatch
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			out = append(out, filePatch{path: strings.TrimSpace(l[len("*** Add File: "):]), op: "create", hunk: []string{"@@"}})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "*** Update File: "):
			out = append(out, filePatch{path: strings.TrimSpace(l[len("*** Update File: "):]), op: "edit"})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "*** Delete File: "):
			out = append(out, filePatch{path: strings.TrimSpace(l[len("*** Delete File: "):]), op: "delete"})
			cur = nil
		case strings.HasPrefix(l, "*** Move to: ") && cur != nil:
			cur.moveTo, cur.op = strings.TrimSpace(l[len("*** Move to: "):]), "rename"
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
			cur.added++
			cur.hunk = append(cur.hunk, l)
		case strings.HasPrefix(l, "-"):
			cur.removed++
			cur.hunk = append(cur.hunk, l)
		case strings.HasPrefix(l, " ") && len(cur.hunk) > 0 && cur.added+cur.removed == 0:
			cur.hunk = append(cur.hunk[:1], l) // the context line just before the first change
		}
	}
	return out
}

// patchText finds an apply_patch envelope in a tool's input or a shell command.
func patchText(s string) (string, bool) {
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

// changes turns a patch's files into file changes, paths relative to the project.
func changes(patch []filePatch, root, cwd string) []activity.FileChange {
	out := make([]activity.FileChange, 0, len(patch))
	for _, p := range patch {
		path := p.path
		if p.moveTo != "" {
			path = p.moveTo
		}
		fc := activity.FileChange{Path: activity.Relative(root, cwd, path), Operation: p.op, Added: p.added, Removed: p.removed}
		if len(p.hunk) > 1 {
			fc.Snippet = strings.Join(p.hunk[:min(len(p.hunk), activity.SnippetLines+1)], "\n")
		}
		out = append(out, fc)
	}
	return out
}
