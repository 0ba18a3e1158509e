package tool

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

const (
	grepMaxMatches  = 200
	grepMaxFileSize = 2 << 20
	grepMaxLineLen  = 300
)

// GrepParams are the grep tool's parameters.
type GrepParams struct {
	Pattern string `json:"pattern" jsonschema_description:"Regular expression (RE2 syntax) to search for"`
	Path    string `json:"path,omitempty" jsonschema_description:"Directory to search (default: the working directory)"`
	Include string `json:"include,omitempty" jsonschema_description:"Only files whose path matches this glob, e.g. **/*.go"`
}

// Grep returns the grep tool.
func Grep() Tool {
	return New(Def[GrepParams]{
		Name:        "grep",
		Description: "Search file contents with a regular expression. Honours .gitignore, skips binary and large files. Returns path:line: text, at most 200 matches.",
		Kind:        KindRead,
		Perm: func(tc *Context, p GrepParams) Perm {
			return Perm{Pattern: p.Pattern, Kind: permission.KindText, Always: "*", Title: "Grep " + p.Pattern}
		},
		Run: runGrep,
	})
}

func runGrep(ctx context.Context, tc *Context, p GrepParams) (Result, error) {
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return Result{}, Errorf("invalid regular expression: %v", err)
	}
	if p.Include != "" && !doublestar.ValidatePattern(p.Include) {
		return Result{}, Errorf("invalid include glob %q", p.Include)
	}
	base, err := searchBase(ctx, tc, p.Path)
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	matches, truncated := 0, false
	err = walkFiles(ctx, tc.ProjectDir, base, func(path string, d fs.DirEntry) bool {
		if p.Include != "" {
			rel, _ := filepath.Rel(base, path)
			ok, _ := doublestar.Match(p.Include, filepath.ToSlash(rel))
			ok2, _ := doublestar.Match(p.Include, filepath.Base(path))
			if !ok && !ok2 {
				return true
			}
		}
		if info, err := d.Info(); err != nil || info.Size() > grepMaxFileSize {
			return true
		}
		n, more := grepFile(path, re, &b, grepMaxMatches-matches)
		matches += n
		if more {
			truncated = true
			return false
		}
		return true
	})
	if err != nil {
		return Result{}, fmt.Errorf("grep: %w", err)
	}
	if matches == 0 {
		b.WriteString("No matches found.\n")
	}
	if truncated {
		fmt.Fprintf(&b, "(results truncated at %d matches; narrow the pattern, path or include)\n", grepMaxMatches)
	}
	return Result{Title: p.Pattern, Output: b.String(), Metadata: map[string]any{"matches": matches, "truncated": truncated}}, nil
}

// grepFile appends up to budget matches of re in path; more reports the budget ran out.
func grepFile(path string, re *regexp.Regexp, b *strings.Builder, budget int) (n int, more bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if bin, err := isBinary(f); err != nil || bin {
		return 0, false
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	line := 0
	for sc.Scan() {
		line++
		if !re.Match(sc.Bytes()) {
			continue
		}
		if n >= budget {
			return n, true
		}
		text := sc.Text()
		if len(text) > grepMaxLineLen {
			text = text[:grepMaxLineLen] + "…"
		}
		fmt.Fprintf(b, "%s:%d: %s\n", path, line, text)
		n++
	}
	return n, false
}
