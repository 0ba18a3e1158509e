package tool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// AskInput is a tool's question to the permission service.
type AskInput struct {
	Tool     string
	Pattern  string
	Kind     permission.Kind
	Title    string
	Always   string // pattern saved by "remember"; "*" when empty
	Metadata map[string]any
}

// Context is what a tool call gets besides its params.
type Context struct {
	SessionID string
	MessageID string
	CallID    string
	Agent     string
	// ProjectDir is the project's root; WorkDir the session's working directory.
	ProjectDir string
	WorkDir    string
	// Root confines every path (the user's workspace root); empty means no confinement.
	Root string
	// Ask checks permission for an action; nil error means go ahead.
	Ask func(ctx context.Context, in AskInput) error
	// Files records what this session read, to refuse writes over files changed since.
	Files *FileTimes
	// Todos reads and writes the session's todo list.
	Todos TodoStore
	// Shell runs bash commands (possibly sandboxed).
	Shell *Shell
	// Task runs a prompt in a child session with a subagent and returns its final text.
	Task func(ctx context.Context, agent, description, prompt string) (string, error)
}

// TodoStore is the slice of the store the todo tools use.
type TodoStore interface {
	GetTodos(ctx context.Context, sessionID string) ([]store.Todo, error)
	SetTodos(ctx context.Context, sessionID string, todos []store.Todo) error
}

// Resolve turns a path from the model into a clean absolute path. A path outside the
// workspace root is refused; one outside the project needs the external_directory permission.
func (tc *Context) Resolve(ctx context.Context, p string) (string, error) {
	if p == "" {
		return "", Errorf("path is empty")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(tc.WorkDir, p)
	}
	p = filepath.Clean(p)
	real := RealPath(p)
	if tc.Root != "" && !Within(RealPath(tc.Root), real) {
		return "", Errorf("path %s is outside the workspace and cannot be accessed", p)
	}
	if !Within(RealPath(tc.ProjectDir), real) {
		dir := filepath.Dir(real)
		if tc.Ask == nil {
			return "", Errorf("path %s is outside the project", p)
		}
		if err := tc.Ask(ctx, AskInput{Tool: "external_directory", Pattern: real, Kind: permission.KindPath,
			Title: "Access outside the project: " + real, Always: filepath.Join(dir, "**")}); err != nil {
			return "", err
		}
	}
	return p, nil
}

// Rel returns p relative to the project when inside it, else p.
func (tc *Context) Rel(p string) string {
	if r, err := filepath.Rel(tc.ProjectDir, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

// Within reports whether p is root or below it (both cleaned absolute paths).
func Within(root, p string) bool {
	if root == p {
		return true
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// RealPath resolves symlinks in the longest existing prefix of p, so a symlink cannot lead
// out of the workspace.
func RealPath(p string) string {
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// Ensure reports a friendly error when p does not exist.
func Ensure(p string) (os.FileInfo, error) {
	fi, err := os.Stat(p)
	if os.IsNotExist(err) {
		return nil, Errorf("file not found: %s", p)
	}
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", p, err)
	}
	return fi, nil
}
