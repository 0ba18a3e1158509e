package tool

import (
	"os"
	"sync"
	"time"
)

// FileTimes remembers, per session, the modification time and size of each file when the
// session last read or wrote it. Writes refuse a file that changed since (someone else edited
// it) or that the session never read.
type FileTimes struct {
	mu    sync.Mutex
	files map[string]map[string]stamp // session → path → stamp
}

type stamp struct {
	mod  time.Time
	size int64
}

// NewFileTimes returns an empty tracker.
func NewFileTimes() *FileTimes { return &FileTimes{files: map[string]map[string]stamp{}} }

// Record notes the current state of path for session.
func (f *FileTimes) Record(session, path string) {
	fi, err := os.Stat(path)
	if err != nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.files[session]
	if m == nil {
		m = map[string]stamp{}
		f.files[session] = m
	}
	m[path] = stamp{mod: fi.ModTime(), size: fi.Size()}
}

// Check returns an error for the model when path exists and the session has not read it, or
// it changed since the session last read or wrote it.
func (f *FileTimes) Check(session, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // a new file: nothing to protect
	}
	f.mu.Lock()
	st, ok := f.files[session][path]
	f.mu.Unlock()
	if !ok {
		return Errorf("you must read %s with the read tool before changing it", path)
	}
	if !fi.ModTime().Equal(st.mod) || fi.Size() != st.size {
		return Errorf("%s was modified since you last read it (at %s); read it again before changing it",
			path, st.mod.Format(time.RFC3339Nano))
	}
	return nil
}

// Forget drops a session's records.
func (f *FileTimes) Forget(session string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.files, session)
}
