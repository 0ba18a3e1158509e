// Package project detects the project a directory belongs to: the nearest ancestor holding a
// .git entry, else the directory itself. Its ID is derived from the absolute path, so the
// same directory always maps to the same project.
package project

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// Info describes a detected project.
type Info struct {
	ID       string
	Worktree string
	VCS      string
}

// Detect finds the project of dir (which must exist), looking for .git no higher than
// limit when limit is set (a user's workspace root).
func Detect(dir, limit string) (Info, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Info{}, fmt.Errorf("absolute path of %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Info{}, fmt.Errorf("project directory: %w", err)
	}
	if !fi.IsDir() {
		return Info{}, fmt.Errorf("project directory %s is not a directory", abs)
	}
	for cur := abs; ; {
		if _, err := os.Stat(filepath.Join(cur, ".git")); err == nil {
			return Info{ID: ID(cur), Worktree: cur, VCS: "git"}, nil
		}
		parent := filepath.Dir(cur)
		if parent == cur || (limit != "" && cur == filepath.Clean(limit)) {
			break
		}
		cur = parent
	}
	return Info{ID: ID(abs), Worktree: abs}, nil
}

// ID is the stable project ID of an absolute worktree path.
func ID(worktree string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(worktree)))
	return "prj_" + hex.EncodeToString(sum[:10])
}
