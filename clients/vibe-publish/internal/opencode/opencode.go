package opencode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/clients/vibe-publish/internal/session"
	"openvibe.live/backend/shared/vibe"
)

// Options configures Run.
type Options struct {
	ProjectDir string // the project opencode runs in; default: the working directory
	DataDir    string // opencode's data directory; default $XDG_DATA_HOME/opencode or ~/.local/share/opencode
	Session    string // a session file (storage/session/<project>/<id>.json) to read instead
	Follow     bool
	Replay     bool
	Poll       time.Duration

	OnSession func(path string)
	OnWaiting func(dir string)
	// Stop, following the given Session, ends Run (with nil) at a moment when everything
	// written so far was read; the calls still open are ended as at the end of a session.
	Stop func() bool
}

// Run publishes the project's newest opencode session (or Options.Session).
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	if opt.Poll <= 0 {
		opt.Poll = 300 * time.Millisecond
	}
	project, err := session.ProjectDir(opt.ProjectDir)
	if err != nil {
		return err
	}
	storage := StorageDir(opt.DataDir)
	read := func(ctx context.Context, path string, history bool, stop func() bool) error {
		return follow(ctx, opt, path, history, stop, emit)
	}
	if opt.Session != "" {
		return read(ctx, opt.Session, opt.Follow && !opt.Replay, opt.Stop)
	}
	return session.Run(ctx, session.Options{Follow: opt.Follow, Replay: opt.Replay, Poll: opt.Poll, Read: read,
		Newest: func() (string, time.Time, error) { return Newest(storage, project) },
		OnWaiting: func(error) {
			if opt.OnWaiting != nil {
				opt.OnWaiting(storage)
			}
		}})
}

// reader holds what was read of a session, so that a poll reads only what changed.
type reader struct {
	storage, root string
	b             activity.Builder
	messages      map[string]*messageState
	order         []string
}

type messageState struct {
	info  messageInfo
	dir   time.Time // mtime of the message's part directory when last listed
	parts map[string]*partState
	order []string
}

type partState struct {
	mod  time.Time
	size int64
	p    part
}

// follow reads the session's messages and parts whenever they change and emits the events not
// emitted yet.
func follow(ctx context.Context, opt Options, path string, history bool, stop func() bool, emit func(context.Context, vibe.Event) error) error {
	var s sessionInfo
	if err := readJSON(path, &s); err != nil {
		return fmt.Errorf("read opencode session %s: %w", path, err)
	}
	if s.ID == "" {
		return fmt.Errorf("read opencode session %s: no session id", path)
	}
	storage := filepath.Dir(filepath.Dir(filepath.Dir(path)))
	r := &reader{storage: storage, root: s.Directory, messages: map[string]*messageState{},
		b: activity.Builder{Space: idSpace, Channel: Channel, SessionID: s.ID}}
	if r.root != "" {
		r.b.Workspace = filepath.Base(r.root)
	}
	always := func() bool { return true } // poll reads only what changed
	snap := func() ([]vibe.Event, []vibe.Event, error) {
		evs, open := r.poll()
		return evs, open, nil
	}
	return session.Poll(ctx, session.Polls{Follow: opt.Follow, History: history, Poll: opt.Poll, Stop: stop, OnReady: ready(opt, path)}, always, snap, emit)
}

// poll reads what changed and returns every event of the session (and the ends of calls still
// running).
func (r *reader) poll() (evs, open []vibe.Event) {
	for _, f := range sortedJSON(filepath.Join(r.storage, "message", r.b.SessionID)) {
		id := filepath.Base(f)
		if _, ok := r.messages[id]; ok {
			continue
		}
		var m messageInfo
		if readJSON(f, &m) != nil || m.ID == "" {
			continue // being written: read at the next poll
		}
		r.messages[id] = &messageState{info: m, parts: map[string]*partState{}}
		r.order = append(r.order, id)
	}
	for i, id := range r.order {
		ms := r.messages[id]
		done := ms.info.Time.Completed > 0 || i < len(r.order)-1 // a later message follows
		r.refresh(ms, done)
		b := r.b
		b.Model = ms.info.ModelID
		if ms.info.Model != nil {
			b.Model = ms.info.Model.ModelID
		}
		for _, pid := range ms.order {
			e, o := partEvents(b, ms.info, ms.parts[pid].p, done, r.root)
			evs = append(evs, e...)
			if o != nil {
				open = append(open, *o)
			}
		}
	}
	return evs, open
}

// refresh reads the message's new parts and those that may still change.
func (r *reader) refresh(ms *messageState, done bool) {
	dir := filepath.Join(r.storage, "part", ms.info.ID)
	if info, err := os.Stat(dir); err == nil && !info.ModTime().Equal(ms.dir) {
		ms.dir = info.ModTime()
		for _, f := range sortedJSON(dir) {
			pid := filepath.Base(f)
			if _, ok := ms.parts[pid]; !ok {
				ms.parts[pid] = &partState{}
				ms.order = append(ms.order, pid)
			}
		}
	}
	for _, pid := range ms.order {
		ps := ms.parts[pid]
		if ps.p.ID != "" && ps.p.final(done) {
			continue
		}
		f := filepath.Join(dir, pid)
		info, err := os.Stat(f)
		if err != nil || (info.ModTime().Equal(ps.mod) && info.Size() == ps.size) {
			continue
		}
		var p part
		if readJSON(f, &p) != nil || p.ID == "" {
			continue // being written
		}
		ps.mod, ps.size, ps.p = info.ModTime(), info.Size(), p
	}
}

// ready tells OnSession which session is followed, once what it held is read.
func ready(opt Options, path string) func() {
	return func() {
		if opt.OnSession != nil {
			opt.OnSession(path)
		}
	}
}
