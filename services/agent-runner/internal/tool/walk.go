package tool

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// ignorer applies the .gitignore files from the project root down to each directory.
type ignorer struct {
	root  string
	rules map[string]*ignore.GitIgnore // dir → its .gitignore (nil when none)
}

func newIgnorer(root string) *ignorer {
	return &ignorer{root: root, rules: map[string]*ignore.GitIgnore{}}
}

func (g *ignorer) load(dir string) *ignore.GitIgnore {
	if gi, ok := g.rules[dir]; ok {
		return gi
	}
	gi, err := ignore.CompileIgnoreFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		gi = nil
	}
	g.rules[dir] = gi
	return gi
}

// ignored reports whether path (absolute, under root) is ignored by any .gitignore between
// root and the path's directory.
func (g *ignorer) ignored(path string, isDir bool) bool {
	if filepath.Base(path) == ".git" {
		return true
	}
	dir := filepath.Dir(path)
	for {
		if gi := g.load(dir); gi != nil {
			rel, err := filepath.Rel(dir, path)
			if err == nil {
				rel = filepath.ToSlash(rel)
				if gi.MatchesPath(rel) || (isDir && gi.MatchesPath(rel+"/")) {
					return true
				}
			}
		}
		if dir == g.root || !strings.HasPrefix(dir, g.root) {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// walkFiles calls fn for every regular file under base that no .gitignore (from project root
// down) excludes. fn returns false to stop.
func walkFiles(ctx context.Context, projectRoot, base string, fn func(path string, d fs.DirEntry) bool) error {
	root := projectRoot
	if !strings.HasPrefix(base, projectRoot) {
		root = base
	}
	ig := newIgnorer(root)
	stop := fs.SkipAll
	return filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == base {
				return err
			}
			return nil // unreadable entry: skip it
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if path != base && ig.ignored(path, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !fn(path, d) {
			return stop
		}
		return nil
	})
}

func statMod(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.ModTime().UnixNano()
}
