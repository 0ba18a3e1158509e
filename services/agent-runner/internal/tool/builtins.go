package tool

import (
	"net/http"
	"path/filepath"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

// Options tune the built-in tools: bash, read, write, edit, glob, grep, web_fetch,
// todo_write, todo_read and task.
type Options struct {
	// HTTPClient is used by web_fetch; nil builds one that refuses private addresses unless
	// AllowPrivateFetch.
	HTTPClient        *http.Client
	AllowPrivateFetch bool
}

// Builtins returns the built-in tools in a stable order.
func Builtins(o Options) []Tool {
	return []Tool{
		Bash(), Read(), Write(), Edit(), Glob(), Grep(), WebFetch(o), TodoWrite(), TodoRead(), Task(),
	}
}

// pathPerm is the permission description of a call on one file.
func pathPerm(tc *Context, p, verb string) Perm {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(tc.WorkDir, p)
	}
	rel := tc.Rel(filepath.Clean(abs))
	return Perm{Pattern: rel, Kind: permission.KindPath, Always: "*", Title: verb + " " + rel}
}
