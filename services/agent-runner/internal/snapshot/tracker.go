package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrNoTurn is returned when a session has no recorded turn for a message.
var ErrNoTurn = errors.New("no snapshot recorded for that message")

// ErrNotReverted is returned by Unrevert and Redo when nothing of the session is undone.
var ErrNotReverted = errors.New("the session is not reverted")

// ErrNothingToUndo is returned by Undo when every turn of the session is undone already.
var ErrNothingToUndo = errors.New("nothing to undo: the session has no turn left that changed files")

// Turn is the record of one turn: the project before and after it, and what changed.
type Turn struct {
	MessageID string    `json:"message_id"` // the user message that started the turn
	Root      string    `json:"root"`
	Before    string    `json:"before"`
	After     string    `json:"after,omitempty"`
	Diff      *Diff     `json:"diff,omitempty"`
	Started   time.Time `json:"started"`
}

// Revert is where a session's files stand: the turns from MessageID on are undone. It also
// records what the last move (revert, unrevert, undo, redo) changed.
type Revert struct {
	MessageID string    `json:"message_id,omitempty"` // empty after an unrevert
	At        time.Time `json:"at"`
	Diff      Diff      `json:"diff"`
	// Conflicts are files the move left alone because they changed since the session left
	// them (another session, or the user, edited them).
	Conflicts []string `json:"conflicts"`
}

// SessionLog is what the tracker keeps per session.
type SessionLog struct {
	Turns  []Turn  `json:"turns"`
	Revert *Revert `json:"revert,omitempty"`
}

// Tracker records a snapshot before and after every turn of every session and restores them.
// Its records live next to the store's objects (sessions/<id>.json).
type Tracker struct {
	Store *Store
	mu    sync.Mutex
}

// NewTracker returns a tracker over st.
func NewTracker(st *Store) (*Tracker, error) {
	if err := os.MkdirAll(filepath.Join(st.Dir, "sessions"), 0o700); err != nil {
		return nil, err
	}
	return &Tracker{Store: st}, nil
}

func (t *Tracker) logPath(sessionID string) (string, error) {
	if sessionID == "" || strings.ContainsAny(sessionID, `/\.`) {
		return "", fmt.Errorf("bad session id %q", sessionID)
	}
	return filepath.Join(t.Store.Dir, "sessions", sessionID+".json"), nil
}

// Log returns a session's record (empty when none).
func (t *Tracker) Log(sessionID string) (SessionLog, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.load(sessionID)
}

func (t *Tracker) load(sessionID string) (SessionLog, error) {
	p, err := t.logPath(sessionID)
	if err != nil {
		return SessionLog{}, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return SessionLog{}, nil
	}
	if err != nil {
		return SessionLog{}, err
	}
	var l SessionLog
	if err := json.Unmarshal(b, &l); err != nil {
		return SessionLog{}, fmt.Errorf("snapshot log of %s: %w", sessionID, err)
	}
	return l, nil
}

func (t *Tracker) save(sessionID string, l SessionLog) error {
	p, err := t.logPath(sessionID)
	if err != nil {
		return err
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := os.WriteFile(p+".tmp", b, 0o600); err != nil {
		return err
	}
	return os.Rename(p+".tmp", p)
}

// Begin records the project before the turn started by messageID. A new turn ends any
// revert: the reverted turns are dropped and the reverted state becomes the base of the new
// work.
func (t *Tracker) Begin(ctx context.Context, sessionID, messageID, root string) error {
	snap, err := t.Store.Take(ctx, root)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err := t.load(sessionID)
	if err != nil {
		return err
	}
	if l.Revert != nil {
		l.Turns = l.Turns[:l.point()]
		l.Revert = nil
	}
	l.Turns = append(l.Turns, Turn{MessageID: messageID, Root: snap.Root, Before: snap.ID, Started: time.Now().UTC()})
	return t.save(sessionID, l)
}

// End records the project after the turn started by messageID and returns the turn's diff.
func (t *Tracker) End(ctx context.Context, sessionID, messageID string) (Diff, error) {
	t.mu.Lock()
	l, err := t.load(sessionID)
	t.mu.Unlock()
	if err != nil {
		return Diff{}, err
	}
	i := l.find(messageID)
	if i < 0 {
		return Diff{}, ErrNoTurn
	}
	before, err := t.Store.Get(l.Turns[i].Before)
	if err != nil {
		return Diff{}, err
	}
	after, err := t.Store.Take(ctx, l.Turns[i].Root)
	if err != nil {
		return Diff{}, err
	}
	d := t.Store.Diff(before, after)
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err = t.load(sessionID)
	if err != nil {
		return d, err
	}
	if i = l.find(messageID); i >= 0 {
		l.Turns[i].After, l.Turns[i].Diff = after.ID, &d
		err = t.save(sessionID, l)
	}
	return d, err
}

func (l SessionLog) find(messageID string) int {
	for i := len(l.Turns) - 1; i >= 0; i-- {
		if l.Turns[i].MessageID == messageID {
			return i
		}
	}
	return -1
}

// point is the index of the first undone turn (len(Turns) when nothing is undone).
func (l SessionLog) point() int {
	if l.Revert == nil {
		return len(l.Turns)
	}
	if i := l.find(l.Revert.MessageID); i >= 0 {
		return i
	}
	return len(l.Turns)
}

// Revert undoes the session's turns from the one started by messageID on: every file one of
// them changed goes back to how it was before the first of them that changed it. Files the
// session did not change are never touched, and a file that changed since the session left
// it is left alone and reported in Conflicts. Reverting again, further back or forward,
// moves the same point; Unrevert brings everything back.
func (t *Tracker) Revert(ctx context.Context, sessionID, messageID string) (Revert, error) {
	return t.move(ctx, sessionID, func(l SessionLog) (int, error) {
		if i := l.find(messageID); i >= 0 {
			return i, nil
		}
		return 0, ErrNoTurn
	})
}

// Unrevert redoes every undone turn of the session.
func (t *Tracker) Unrevert(ctx context.Context, sessionID string) (Revert, error) {
	return t.move(ctx, sessionID, func(l SessionLog) (int, error) {
		if l.Revert == nil {
			return 0, ErrNotReverted
		}
		return len(l.Turns), nil
	})
}

// Undo undoes the session's latest turn that is not undone yet.
func (t *Tracker) Undo(ctx context.Context, sessionID string) (Revert, error) {
	return t.move(ctx, sessionID, func(l SessionLog) (int, error) {
		if p := l.point(); p > 0 {
			return p - 1, nil
		}
		return 0, ErrNothingToUndo
	})
}

// Redo redoes the earliest undone turn of the session (the last one ends the revert).
func (t *Tracker) Redo(ctx context.Context, sessionID string) (Revert, error) {
	return t.move(ctx, sessionID, func(l SessionLog) (int, error) {
		if l.Revert == nil {
			return 0, ErrNotReverted
		}
		return l.point() + 1, nil
	})
}

// move puts the session's files at revert point k (chosen from its log) and records it.
func (t *Tracker) move(ctx context.Context, sessionID string, choose func(SessionLog) (int, error)) (Revert, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err := t.load(sessionID)
	if err != nil {
		return Revert{}, err
	}
	k, err := choose(l)
	if err != nil {
		return Revert{}, err
	}
	r := Revert{At: time.Now().UTC(), Diff: Diff{Changes: []Change{}}, Conflicts: []string{}}
	if len(l.Turns) > 0 {
		m := &mover{store: t.Store, log: l, snaps: map[string]*Snapshot{}}
		if r.Diff, r.Conflicts, err = m.move(ctx, l.point(), k); err != nil {
			return r, err
		}
	}
	l.Revert = nil
	if k < len(l.Turns) {
		r.MessageID = l.Turns[k].MessageID
		l.Revert = &r
	}
	return r, t.save(sessionID, l)
}

// mover computes and applies the file states of revert points.
type mover struct {
	store *Store
	log   SessionLog
	snaps map[string]*Snapshot
}

func (m *mover) snap(id string) (*Snapshot, error) {
	if s, ok := m.snaps[id]; ok {
		return s, nil
	}
	s, err := m.store.Get(id)
	if err != nil {
		return nil, err
	}
	m.snaps[id] = s
	return s, nil
}

// touched maps every path the session's finished turns changed to those turns' indexes.
// Files over the size cap in any of them are left out: their contents were never kept.
func (m *mover) touched() (map[string][]int, error) {
	out := map[string][]int{}
	skipped := map[string]bool{}
	for i, turn := range m.log.Turns {
		if turn.Diff == nil || turn.After == "" {
			continue // never finished: what it changed is not known
		}
		for _, id := range []string{turn.Before, turn.After} {
			s, err := m.snap(id)
			if err != nil {
				return nil, err
			}
			for _, p := range s.Skipped {
				skipped[p] = true
			}
		}
		for _, c := range turn.Diff.Changes {
			out[c.Path] = append(out[c.Path], i)
		}
	}
	for p := range skipped {
		delete(out, p)
	}
	return out, nil
}

// state is a file's content at revert point k (nil: absent), with the snapshot it comes
// from: before the first turn at or after k that changed it, else after the last turn that
// did.
func (m *mover) state(p string, turns []int, k int) (*File, *Snapshot, error) {
	id := m.log.Turns[turns[len(turns)-1]].After
	for _, j := range turns {
		if j >= k {
			id = m.log.Turns[j].Before
			break
		}
	}
	s, err := m.snap(id)
	if err != nil {
		return nil, nil, err
	}
	if f, ok := s.Files[p]; ok {
		return &f, s, nil
	}
	return nil, s, nil
}

// move takes the session's files from point `from` to point `to`.
func (m *mover) move(ctx context.Context, from, to int) (Diff, []string, error) {
	d := Diff{Changes: []Change{}}
	conflicts := []string{}
	touched, err := m.touched()
	if err != nil {
		return d, conflicts, err
	}
	root := m.log.Turns[0].Root
	paths := slices.Sorted(maps.Keys(touched))
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return d, conflicts, err
		}
		was, _, err := m.state(p, touched[p], from)
		if err != nil {
			return d, conflicts, err
		}
		want, ws, err := m.state(p, touched[p], to)
		if err != nil {
			return d, conflicts, err
		}
		if sameFile(was, want) {
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(p))
		now, err := currentFile(abs)
		if err != nil {
			return d, conflicts, err
		}
		if !sameFile(now, was) {
			conflicts = append(conflicts, p)
			continue
		}
		c, err := m.apply(root, p, now, want, ws)
		if err != nil {
			return d, conflicts, err
		}
		d.Changes = append(d.Changes, c)
	}
	return d, conflicts, nil
}

// apply writes want (or removes the file, and the directories the target snapshot did not
// have once they are empty) and describes the change.
func (m *mover) apply(root, p string, now, want *File, target *Snapshot) (Change, error) {
	abs := filepath.Join(root, filepath.FromSlash(p))
	var before, after []byte
	if now != nil {
		before, _ = os.ReadFile(abs)
	}
	c := Change{Path: p, Op: Modified}
	switch {
	case want == nil:
		c.Op = Deleted
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return c, fmt.Errorf("revert: delete %s: %w", p, err)
		}
		removeEmptyParents(root, p, target)
	default:
		if now == nil {
			c.Op = Added
		}
		if err := m.store.writeBack(abs, *want); err != nil {
			return c, fmt.Errorf("revert: write %s: %w", p, err)
		}
		after, _ = m.store.Content(*want)
	}
	c.Lines = LinesChanged(before, after)
	return c, nil
}

// removeEmptyParents removes p's directories, deepest first, while they are empty and the
// target snapshot did not have them.
func removeEmptyParents(root, p string, target *Snapshot) {
	had := map[string]bool{}
	for _, d := range target.Dirs {
		had[d] = true
	}
	for dir := path.Dir(p); dir != "." && dir != "/" && !had[dir]; dir = path.Dir(dir) {
		if os.Remove(filepath.Join(root, filepath.FromSlash(dir))) != nil {
			return // not empty
		}
	}
}

// currentFile hashes the file at abs (nil when there is none).
func currentFile(abs string) (*File, error) {
	info, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return &File{Hash: "not-a-regular-file"}, nil
	}
	sum, n, err := hashFile(abs)
	if err != nil {
		return nil, err
	}
	return &File{Hash: sum, Size: n, Mode: info.Mode().Perm()}, nil
}

func sameFile(a, b *File) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Hash == b.Hash
}
