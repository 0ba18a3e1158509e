package tool

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

const globMaxResults = 200

// GlobParams are the glob tool's parameters.
type GlobParams struct {
	Pattern string `json:"pattern" jsonschema_description:"Glob such as **/*.go or src/*.ts (** crosses directories)"`
	Path    string `json:"path,omitempty" jsonschema_description:"Directory to search (default: the working directory)"`
}

// Glob returns the glob tool.
func Glob() Tool {
	return New(Def[GlobParams]{
		Name:        "glob",
		Description: "Find files by glob pattern, newest first. Honours .gitignore. At most 200 results.",
		Kind:        KindRead,
		Perm: func(tc *Context, p GlobParams) Perm {
			return Perm{Pattern: p.Pattern, Kind: permission.KindPath, Always: "*", Title: "Glob " + p.Pattern}
		},
		Run: runGlob,
	})
}

func runGlob(ctx context.Context, tc *Context, p GlobParams) (Result, error) {
	if !doublestar.ValidatePattern(p.Pattern) {
		return Result{}, Errorf("invalid glob pattern %q", p.Pattern)
	}
	base, err := searchBase(ctx, tc, p.Path)
	if err != nil {
		return Result{}, err
	}
	type hit struct {
		path string
		mod  int64
	}
	var hits []hit
	truncated := false
	err = walkFiles(ctx, tc.ProjectDir, base, func(path string, _ fs.DirEntry) bool {
		rel, _ := filepath.Rel(base, path)
		if ok, _ := doublestar.Match(p.Pattern, filepath.ToSlash(rel)); ok {
			if len(hits) >= globMaxResults {
				truncated = true
				return false
			}
			hits = append(hits, hit{path, statMod(path)})
		}
		return true
	})
	if err != nil {
		return Result{}, fmt.Errorf("glob: %w", err)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].mod > hits[j].mod })
	var b strings.Builder
	for _, h := range hits {
		b.WriteString(h.path + "\n")
	}
	if len(hits) == 0 {
		b.WriteString("No files found.\n")
	}
	if truncated {
		fmt.Fprintf(&b, "(results truncated at %d; use a narrower pattern or path)\n", globMaxResults)
	}
	return Result{Title: p.Pattern, Output: b.String(), Metadata: map[string]any{"count": len(hits), "truncated": truncated}}, nil
}

func searchBase(ctx context.Context, tc *Context, p string) (string, error) {
	if p == "" {
		p = tc.WorkDir
	}
	base, err := tc.Resolve(ctx, p)
	if err != nil {
		return "", err
	}
	fi, err := Ensure(base)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", Errorf("%s is not a directory", base)
	}
	return base, nil
}
