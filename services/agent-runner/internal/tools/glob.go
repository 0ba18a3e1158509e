package tools

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

const globMaxResults = 200

// GlobParams are the glob tool's parameters.
type GlobParams struct {
	Pattern string `json:"pattern" jsonschema_description:"Glob such as **/*.go or src/*.ts (** crosses directories)"`
	Path    string `json:"path,omitempty" jsonschema_description:"Directory to search (default: the working directory)"`
}

// Glob returns the glob tool.
func Glob() tool.Tool {
	return tool.New(tool.Def[GlobParams]{
		Name:        "glob",
		Description: "Find files by glob pattern, newest first. Honours .gitignore. At most 200 results.",
		Kind:        tool.KindRead,
		Perm: func(tc *tool.Context, p GlobParams) tool.Perm {
			return tool.Perm{Pattern: p.Pattern, Kind: permission.KindPath, Always: "*", Title: "Glob " + p.Pattern}
		},
		Run: runGlob,
	})
}

func runGlob(ctx context.Context, tc *tool.Context, p GlobParams) (tool.Result, error) {
	if !doublestar.ValidatePattern(p.Pattern) {
		return tool.Result{}, tool.Errorf("invalid glob pattern %q", p.Pattern)
	}
	base, err := searchBase(ctx, tc, p.Path)
	if err != nil {
		return tool.Result{}, err
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
		return tool.Result{}, fmt.Errorf("glob: %w", err)
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
	return tool.Result{Title: p.Pattern, Output: b.String(), Metadata: map[string]any{"count": len(hits), "truncated": truncated}}, nil
}

func searchBase(ctx context.Context, tc *tool.Context, p string) (string, error) {
	if p == "" {
		p = tc.WorkDir
	}
	base, err := tc.Resolve(ctx, p)
	if err != nil {
		return "", err
	}
	fi, err := tool.Ensure(base)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", tool.Errorf("%s is not a directory", base)
	}
	return base, nil
}
