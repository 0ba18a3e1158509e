package cluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"openvibe.live/backend/shared/viewerclient"
)

// Viewer is a chat-socket viewer that records every vibe-coding frame it receives. With
// Reconnect set it behaves like the widget: when the socket drops it reconnects (to the
// next address, round robin) with ?since=<the greatest seq seen>.
type Viewer struct {
	t         testing.TB
	addrs     []string
	join      viewerclient.Options
	reconnect bool
	cancel    context.CancelFunc
	done      chan struct{}

	mu       sync.Mutex
	changed  chan struct{}
	events   []Delivery
	seen     map[int64]int // seq → times received
	retracts []string      // eventIds
	resets   int
	welcomes int
	settings int
	chats    []string
	errFrame []string // "error" frames: a client message was refused
	lastSeq  int64
	errs     []error
	conn     *viewerclient.Conn
}

// Delivery is one vibe-coding frame as received.
type Delivery struct {
	Seq     int64
	EventID string
	At      time.Time
}

// ViewerOptions configures DialViewer.
type ViewerOptions struct {
	Since     int64 // resume position; 0: none
	Reconnect bool  // reconnect with since after a drop, until Close
	Token     string
}

// DialViewer connects to /ws/chat/:username/:slug on the first address and keeps reading
// until Close (or the end of the test).
func DialViewer(t testing.TB, addrs []string, username, slug string, o ViewerOptions) *Viewer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	v := &Viewer{
		t: t, addrs: addrs, join: viewerclient.Options{Username: username, Slot: slug, Token: o.Token},
		reconnect: o.Reconnect, cancel: cancel, done: make(chan struct{}),
		changed: make(chan struct{}), seen: map[int64]int{}, lastSeq: o.Since,
	}
	conn, err := v.dial(ctx, 0)
	if err != nil {
		cancel()
		t.Fatalf("viewer dial: %v", err)
	}
	go v.run(ctx, conn)
	t.Cleanup(v.Close)
	return v
}

func (v *Viewer) dial(ctx context.Context, attempt int) (*viewerclient.Conn, error) {
	o := v.join
	v.mu.Lock()
	o.Since = v.lastSeq
	v.mu.Unlock()
	o.Resume = o.Since > 0
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := viewerclient.Dial(dctx, v.addrs[attempt%len(v.addrs)], o)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	v.conn = conn
	v.mu.Unlock()
	return conn, nil
}

func (v *Viewer) run(ctx context.Context, conn *viewerclient.Conn) {
	defer close(v.done)
	attempt := 0
	for {
		err := v.read(ctx, conn)
		_ = conn.CloseNow()
		if ctx.Err() != nil {
			return
		}
		v.note(err)
		if !v.reconnect {
			return
		}
		for {
			attempt++
			if conn, err = v.dial(ctx, attempt); err == nil {
				break
			}
			if ctx.Err() != nil {
				return
			}
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return
			}
		}
	}
}

func (v *Viewer) note(err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.errs = append(v.errs, err)
	v.broadcastLocked()
}

// read records frames until the connection ends; a message that breaks the framing is
// recorded as an error and reading goes on.
func (v *Viewer) read(ctx context.Context, conn *viewerclient.Conn) error {
	for {
		f, err := conn.Next(ctx)
		var fe *viewerclient.FramingError
		switch {
		case errors.As(err, &fe):
			v.note(fe)
		case err != nil:
			return err
		default:
			v.frame(f)
		}
	}
}

type viewerFrame struct {
	Type    string `json:"type"`
	Seq     int64  `json:"seq"`
	EventID string `json:"eventId"`
	Text    string `json:"text"`
	Event   struct {
		EventID string `json:"eventId"`
	} `json:"event"`
}

func (v *Viewer) frame(raw viewerclient.Frame) {
	var f viewerFrame
	if err := raw.Decode(&f); err != nil {
		v.note(fmt.Errorf("bad frame %q: %w", raw.Raw, err))
		return
	}
	at, line := raw.At, raw.Raw
	v.mu.Lock()
	defer v.mu.Unlock()
	switch f.Type {
	case "welcome":
		v.welcomes++
	case "vibe-coding":
		v.events = append(v.events, Delivery{Seq: f.Seq, EventID: f.Event.EventID, At: at})
		v.seen[f.Seq]++
		v.lastSeq = max(v.lastSeq, f.Seq)
	case "vibe-coding.retract":
		v.retracts = append(v.retracts, f.EventID)
	case "vibe-coding.settings":
		v.settings++
	case "reset":
		v.resets++
		v.lastSeq = max(v.lastSeq, f.Seq)
	case "chat.message":
		v.chats = append(v.chats, f.Text)
	case "error":
		v.errFrame = append(v.errFrame, string(line))
	}
	v.broadcastLocked()
}

func (v *Viewer) broadcastLocked() {
	close(v.changed)
	v.changed = make(chan struct{})
}

// Close ends the viewer.
func (v *Viewer) Close() {
	v.cancel()
	v.mu.Lock()
	conn := v.conn
	v.mu.Unlock()
	if conn != nil {
		_ = conn.CloseNow()
	}
	<-v.done
}

// Send writes a client frame on the current connection.
func (v *Viewer) Send(ctx context.Context, frame any) error {
	v.mu.Lock()
	conn := v.conn
	v.mu.Unlock()
	if conn == nil {
		return errors.New("not connected")
	}
	return conn.Send(ctx, frame)
}

// Snapshot is what a viewer has recorded so far.
type Snapshot struct {
	Events     []Delivery
	Duplicates []int64 // seqs received more than once
	OutOfOrder int     // frames whose seq was not greater than the previous one
	Retracts   []string
	Resets     int
	Welcomes   int // connections made (one welcome each)
	Settings   int
	Chats      int
	Refused    []string // error frames
	Errors     []error  // connection ends and undecodable frames
}

// Snapshot returns a copy of the record.
func (v *Viewer) Snapshot() Snapshot {
	v.mu.Lock()
	defer v.mu.Unlock()
	s := Snapshot{
		Events: append([]Delivery{}, v.events...), Retracts: append([]string{}, v.retracts...),
		Resets: v.resets, Welcomes: v.welcomes, Settings: v.settings, Chats: len(v.chats),
		Refused: append([]string{}, v.errFrame...), Errors: append([]error{}, v.errs...),
	}
	for seq, n := range v.seen {
		if n > 1 {
			s.Duplicates = append(s.Duplicates, seq)
		}
	}
	sort.Slice(s.Duplicates, func(i, j int) bool { return s.Duplicates[i] < s.Duplicates[j] })
	for i := 1; i < len(s.Events); i++ {
		if s.Events[i].Seq <= s.Events[i-1].Seq {
			s.OutOfOrder++
		}
	}
	return s
}

// EventIDs returns the set of event ids received.
func (s Snapshot) EventIDs() map[string]bool {
	out := make(map[string]bool, len(s.Events))
	for _, d := range s.Events {
		out[d.EventID] = true
	}
	return out
}

// WaitFor waits until cond holds on a snapshot, or timeout; it returns the last snapshot
// and whether cond held.
func (v *Viewer) WaitFor(timeout time.Duration, cond func(Snapshot) bool) (Snapshot, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		v.mu.Lock()
		ch := v.changed
		v.mu.Unlock()
		s := v.Snapshot()
		if cond(s) {
			return s, true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return v.Snapshot(), false
		}
	}
}

// WaitEvents waits until every id in ids has been received.
func (v *Viewer) WaitEvents(timeout time.Duration, ids map[string]bool) (Snapshot, bool) {
	return v.WaitFor(timeout, func(s Snapshot) bool {
		got := s.EventIDs()
		for id := range ids {
			if !got[id] {
				return false
			}
		}
		return true
	})
}

// WaitWelcome waits until the viewer has been welcomed n times in all.
func (v *Viewer) WaitWelcome(timeout time.Duration, n int) bool {
	_, ok := v.WaitFor(timeout, func(s Snapshot) bool { return s.Welcomes >= n })
	return ok
}
