package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrNoTurn is returned when a session has no recorded turn for a message.
var ErrNoTurn = errors.New("no snapshot recorded for that message")

// ErrNotReverted is returned by Unrevert when the session is not reverted.
var ErrNotReverted = errors.New("the session is not reverted")

// Turn is the record of one turn: the project before and after it, and what changed.
type Turn struct {
	MessageID string    `json:"message_id"` // the user message that started the turn
	Root      string    `json:"root"`
	Before    string    `json:"before"`
	After     string    `json:"after,omitempty"`
	Diff      *Diff     `json:"diff,omitempty"`
	Started   time.Time `json:"started"`
}

// Revert records a revert that can be undone.
type Revert struct {
	MessageID string    `json:"message_id"`
	Snapshot  string    `json:"snapshot"` // the state just before the revert (un-revert target)
	At        time.Time `json:"at"`
	Diff      Diff      `json:"diff"`
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
// revert: the reverted state becomes the base of the new work.
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
	l.Revert = nil
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

// Revert restores the project to its state before the turn started by messageID, first
// saving the current state so Unrevert can bring it back. Reverting again while reverted
// keeps the original un-revert point.
func (t *Tracker) Revert(ctx context.Context, sessionID, messageID string) (Revert, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err := t.load(sessionID)
	if err != nil {
		return Revert{}, err
	}
	i := l.find(messageID)
	if i < 0 {
		return Revert{}, ErrNoTurn
	}
	target, err := t.Store.Get(l.Turns[i].Before)
	if err != nil {
		return Revert{}, err
	}
	undo := ""
	if l.Revert != nil {
		undo = l.Revert.Snapshot
	} else {
		cur, err := t.Store.Take(ctx, target.Root)
		if err != nil {
			return Revert{}, err
		}
		undo = cur.ID
	}
	d, err := t.Store.Restore(ctx, target)
	if err != nil {
		return Revert{}, err
	}
	r := Revert{MessageID: messageID, Snapshot: undo, At: time.Now().UTC(), Diff: d}
	l.Revert = &r
	return r, t.save(sessionID, l)
}

// Unrevert restores the state saved by the last Revert.
func (t *Tracker) Unrevert(ctx context.Context, sessionID string) (Diff, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err := t.load(sessionID)
	if err != nil {
		return Diff{}, err
	}
	if l.Revert == nil {
		return Diff{}, ErrNotReverted
	}
	snap, err := t.Store.Get(l.Revert.Snapshot)
	if err != nil {
		return Diff{}, err
	}
	d, err := t.Store.Restore(ctx, snap)
	if err != nil {
		return d, err
	}
	l.Revert = nil
	return d, t.save(sessionID, l)
}
