package session

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Newest returns the most recently modified file under dir (recursively, up to depth levels
// down) that keep accepts. ok is false when there is none.
func Newest(dir string, depth int, keep func(path string, d fs.DirEntry) bool) (path string, mod time.Time, ok bool) {
	base := depthOf(dir)
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip it
		}
		if d.IsDir() {
			if depthOf(p)-base > depth {
				return filepath.SkipDir
			}
			return nil
		}
		if !keep(p, d) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if !ok || info.ModTime().After(mod) {
			path, mod, ok = p, info.ModTime(), true
		}
		return nil
	})
	return path, mod, ok
}

func depthOf(p string) int {
	n := 0
	for _, c := range filepath.Clean(p) {
		if c == os.PathSeparator {
			n++
		}
	}
	return n
}
