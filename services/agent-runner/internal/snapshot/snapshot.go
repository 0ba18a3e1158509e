// Package snapshot records the state of a project's files and restores it. A snapshot is the
// path, size, mode and SHA-256 of every file under the project root that .gitignore does not
// exclude; the contents are kept as content-addressed, deduplicated objects in a store
// directory, so a workspace can be put back to any snapshot without git.
//
// Layout of the store directory:
//
//	objects/ab/abcdef…   file contents named by their SHA-256
//	manifests/<id>.json  one snapshot: root, time and file list
package snapshot

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// DefaultMaxFileBytes is the largest file a snapshot copies; larger files are listed as
// skipped and left alone by a restore.
const DefaultMaxFileBytes = 4 << 20

// DefaultMaxFiles bounds how many files one snapshot records.
const DefaultMaxFiles = 20000

// ErrNotFound is returned for an unknown snapshot ID.
var ErrNotFound = errors.New("snapshot not found")

// File is one recorded file.
type File struct {
	Hash string      `json:"hash"`
	Size int64       `json:"size"`
	Mode fs.FileMode `json:"mode"`
}

// Snapshot is the recorded state of a project.
type Snapshot struct {
	ID      string          `json:"id"`
	Root    string          `json:"root"`
	Created time.Time       `json:"created"`
	Files   map[string]File `json:"files"` // slash-separated path relative to Root → file
	Dirs    []string        `json:"dirs,omitempty"`
	// Skipped lists files over the size cap (or past the file-count cap): not restorable.
	Skipped []string `json:"skipped,omitempty"`
	// Truncated is set when the file-count cap was reached.
	Truncated bool `json:"truncated,omitempty"`
}

// Store keeps objects and manifests under Dir.
type Store struct {
	Dir          string
	MaxFileBytes int64 // default DefaultMaxFileBytes
	MaxFiles     int   // default DefaultMaxFiles
}

// DefaultDir is ~/.openvibe/snapshots.
func DefaultDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.Join(os.TempDir(), "openvibe-snapshots")
	}
	return filepath.Join(home, ".openvibe", "snapshots")
}

// New returns a store rooted at dir (DefaultDir when empty), creating it.
func New(dir string) (*Store, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	for _, sub := range []string{"objects", "manifests"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("snapshot store: %w", err)
		}
	}
	return &Store{Dir: dir, MaxFileBytes: DefaultMaxFileBytes, MaxFiles: DefaultMaxFiles}, nil
}

func (s *Store) maxBytes() int64 {
	if s.MaxFileBytes <= 0 {
		return DefaultMaxFileBytes
	}
	return s.MaxFileBytes
}

func (s *Store) maxFiles() int {
	if s.MaxFiles <= 0 {
		return DefaultMaxFiles
	}
	return s.MaxFiles
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// Take records root and saves the contents of new files into the object store.
func (s *Store) Take(ctx context.Context, root string) (*Snapshot, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{ID: newID(), Root: root, Created: time.Now().UTC(), Files: map[string]File{}}
	err = walk(ctx, root, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			snap.Dirs = append(snap.Dirs, rel)
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symlinks, devices, sockets are not recorded
		}
		info, err := d.Info()
		if err != nil {
			return nil // vanished while walking
		}
		if info.Size() > s.maxBytes() || len(snap.Files) >= s.maxFiles() {
			if len(snap.Files) >= s.maxFiles() {
				snap.Truncated = true
			}
			snap.Skipped = append(snap.Skipped, rel)
			return nil
		}
		f, err := s.save(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		f.Mode = info.Mode().Perm()
		snap.Files[rel] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", root, err)
	}
	if err := s.writeManifest(snap); err != nil {
		return nil, err
	}
	return snap, nil
}

// save hashes path and stores its content as an object (once per distinct content).
func (s *Store) save(path string) (File, error) {
	in, err := os.Open(path)
	if err != nil {
		return File{}, err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Join(s.Dir, "objects"), ".tmp-*")
	if err != nil {
		return File{}, err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(in, s.maxBytes()+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	obj := s.objectPath(sum)
	if _, err := os.Stat(obj); err == nil {
		return File{Hash: sum, Size: n}, nil // deduplicated
	}
	if err := os.MkdirAll(filepath.Dir(obj), 0o700); err != nil {
		return File{}, err
	}
	if err := os.Rename(tmp.Name(), obj); err != nil {
		return File{}, err
	}
	return File{Hash: sum, Size: n}, nil
}

func (s *Store) objectPath(sum string) string {
	return filepath.Join(s.Dir, "objects", sum[:2], sum)
}

func (s *Store) manifestPath(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\.`) {
		return "", fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return filepath.Join(s.Dir, "manifests", id+".json"), nil
}

func (s *Store) writeManifest(snap *Snapshot) error {
	p, err := s.manifestPath(snap.ID)
	if err != nil {
		return err
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// Get loads a snapshot by ID.
func (s *Store) Get(id string) (*Snapshot, error) {
	p, err := s.manifestPath(id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, err
	}
	var snap Snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", id, err)
	}
	return &snap, nil
}

// Restore makes the files under snap.Root match snap: files the snapshot has are written back
// (when their content differs), files it does not have are deleted, and directories that did
// not exist are removed when empty. Ignored and oversized files are left alone. It returns
// what changed, as a diff from the state before the restore to snap.
func (s *Store) Restore(ctx context.Context, snap *Snapshot) (Diff, error) {
	cur, err := s.scan(ctx, snap.Root)
	if err != nil {
		return Diff{}, err
	}
	d := Compare(cur, snap)
	skipped := map[string]bool{}
	for _, p := range snap.Skipped {
		skipped[p] = true
	}
	for _, c := range d.Changes {
		if err := ctx.Err(); err != nil {
			return d, err
		}
		abs := filepath.Join(snap.Root, filepath.FromSlash(c.Path))
		switch c.Op {
		case Deleted: // present now, absent in snap
			if skipped[c.Path] {
				continue
			}
			if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return d, fmt.Errorf("restore: delete %s: %w", c.Path, err)
			}
		case Modified, Added:
			if err := s.writeBack(abs, snap.Files[c.Path]); err != nil {
				return d, fmt.Errorf("restore: write %s: %w", c.Path, err)
			}
		}
	}
	// Remove directories the snapshot did not have, deepest first, when empty.
	had := map[string]bool{}
	for _, dir := range snap.Dirs {
		had[dir] = true
	}
	dirs := slices.Clone(cur.Dirs)
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, dir := range dirs {
		if dir == "." || had[dir] {
			continue
		}
		_ = os.Remove(filepath.Join(snap.Root, filepath.FromSlash(dir))) // fails when not empty
	}
	return d, nil
}

func (s *Store) writeBack(abs string, f File) error {
	in, err := os.Open(s.objectPath(f.Hash))
	if err != nil {
		return fmt.Errorf("object %s missing: %w", f.Hash, err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	mode := f.Mode
	if mode == 0 {
		mode = 0o644
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), ".openvibe-restore-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), abs)
}

// scan records root without saving anything (hashes only); used to compare before restoring.
func (s *Store) scan(ctx context.Context, root string) (*Snapshot, error) {
	snap := &Snapshot{Root: root, Files: map[string]File{}}
	err := walk(ctx, root, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			snap.Dirs = append(snap.Dirs, rel)
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if info.Size() > s.maxBytes() {
			snap.Skipped = append(snap.Skipped, rel)
			return nil
		}
		sum, n, err := hashFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil
		}
		snap.Files[rel] = File{Hash: sum, Size: n, Mode: info.Mode().Perm()}
		return nil
	})
	return snap, err
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// Content returns the stored bytes of a file of a snapshot (for line counts and previews).
func (s *Store) Content(f File) ([]byte, error) {
	return os.ReadFile(s.objectPath(f.Hash))
}
