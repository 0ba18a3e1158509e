package activity

import (
	"path"
	"path/filepath"
	"strings"
)

// Relative makes p relative to the project root. A relative p is taken relative to cwd (the
// directory the agent was in), or to root when cwd is empty. A path outside the project keeps
// only its base name: viewers never learn where anything else lives.
func Relative(root, cwd, p string) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, `\`, "/")
	root, cwd = strings.ReplaceAll(root, `\`, "/"), strings.ReplaceAll(cwd, `\`, "/")
	if !isAbs(p) && root != "" && !isAbs(root) && (p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")) {
		p = "/" + p // both written without their leading slash (anonymised transcripts): p is already rooted
		root = "/" + root
	} else if !isAbs(p) {
		base := cwd
		if base == "" {
			base = root
		}
		if base == "" {
			return path.Clean(p)
		}
		p = path.Join(base, p)
	}
	p = path.Clean(p)
	if root != "" {
		root = path.Clean(root)
		if p == root {
			return "."
		}
		if strings.EqualFold(p[:min(len(p), len(root))], root) && len(p) > len(root) && p[len(root)] == '/' {
			return p[len(root)+1:]
		}
	}
	return path.Base(p)
}

// isAbs reports a Unix or Windows absolute path, whatever this machine is.
func isAbs(p string) bool {
	return filepath.IsAbs(p) || strings.HasPrefix(p, "/") || (len(p) > 2 && p[1] == ':' && p[2] == '/')
}
