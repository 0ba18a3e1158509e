package snapshot

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// walk visits every directory and file under root that no .gitignore (from root down)
// excludes, skipping .git and the snapshot-restore temporaries. rel is slash-separated; the
// root itself is visited as ".".
func walk(ctx context.Context, root string, visit func(rel string, d fs.DirEntry) error) error {
	rules := map[string]*ignore.GitIgnore{}
	load := func(dir string) *ignore.GitIgnore {
		if gi, ok := rules[dir]; ok {
			return gi
		}
		gi, err := ignore.CompileIgnoreFile(filepath.Join(dir, ".gitignore"))
		if err != nil {
			gi = nil
		}
		rules[dir] = gi
		return gi
	}
	ignored := func(path string, isDir bool) bool {
		dir := filepath.Dir(path)
		for {
			if gi := load(dir); gi != nil {
				if rel, err := filepath.Rel(dir, path); err == nil {
					rel = filepath.ToSlash(rel)
					if gi.MatchesPath(rel) || (isDir && gi.MatchesPath(rel+"/")) {
						return true
					}
				}
			}
			if dir == root || !strings.HasPrefix(dir, root) {
				return false
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return false
			}
			dir = parent
		}
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // unreadable entry: not recorded
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if path == root {
			return visit(".", d)
		}
		name := d.Name()
		if name == ".git" || strings.HasPrefix(name, ".openvibe-restore-") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if ignored(path, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil
		}
		return visit(filepath.ToSlash(rel), d)
	})
}
