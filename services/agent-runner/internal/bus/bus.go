// Package bus is the runner's in-process, broadcast-only event bus. Producers (the session
// engine, the permission service) publish typed events; consumers (SSE streams, the CLI)
// subscribe and filter for themselves.
//
// Publish never blocks: every subscriber has a bounded buffer, and when a slow subscriber's
// buffer is full its events are dropped and counted. The subscriber learns how many it lost
// from Dropped, so a client can refetch state instead of the agent waiting for it.
//
// Every event gets a sequence number, increasing in publishing order, and the bus keeps the
// most recent events (ReplayEvents of them, at most ReplayBytes of JSON) so that a
// subscriber can start from an earlier point (SubscribeSince): an SSE client reconnecting
// with Last-Event-ID, or one that subscribes after starting a turn, misses nothing the buffer
// still holds, and is told when it does.
package bus

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Replay buffer bounds.
const (
	ReplayEvents = 10_000
	ReplayBytes  = 16 << 20
)

// Event types.
const (
	SessionCreated     = "session.created"
	SessionUpdated     = "session.updated"
	SessionDeleted     = "session.deleted"
	SessionStatus      = "session.status" // properties: {status: busy|idle, error?}
	MessageUpdated     = "message.updated"
	PartUpdated        = "part.updated"
	PartDelta          = "part.delta" // properties: {message_id, part_id, field, delta}
	PermissionAsked    = "permission.asked"
	PermissionReplied  = "permission.replied"
	TodoUpdated        = "todo.updated"
	SubscriberLagged   = "bus.lagged"       // synthesised for a subscriber that dropped events
	ServerConnected    = "server.connected" // the first frame of an event stream
	DefaultSubscriberN = 1024
)

// Event is one thing that happened. Every event carries the session it concerns.
type Event struct {
	Type       string    `json:"type"`
	SessionID  string    `json:"session_id"`
	Time       time.Time `json:"time"`
	Properties any       `json:"properties,omitempty"`
	// OwnerID is the user the session belongs to; consumers filter on it, it is not sent.
	OwnerID int64 `json:"-"`
	// Seq is set by Publish: 1, 2, 3… in publishing order within the process.
	Seq int64 `json:"-"`
	// Data is the event's JSON, encoded once by Publish.
	Data []byte `json:"-"`
}

// Bus is a broadcast pub/sub hub. The zero value is not usable; call New.
type Bus struct {
	boot string // names this process in event IDs

	mu    sync.Mutex
	subs  map[*Subscription]struct{}
	seq   int64
	ring  []Event // the replay buffer, oldest first
	bytes int
}

// New returns an empty bus.
func New() *Bus {
	return &Bus{subs: map[*Subscription]struct{}{}, boot: strconv.FormatInt(time.Now().UnixNano(), 36)}
}

// ID is an event's identifier across restarts: the process's boot name and the sequence.
func (b *Bus) ID(seq int64) string { return b.boot + "-" + strconv.FormatInt(seq, 10) }

// LastID is the ID of the newest event published so far (a position to resume from).
func (b *Bus) LastID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ID(b.seq)
}

// ParseID reads a position to resume from: an event ID, or a bare sequence number of this
// process. An ID from an earlier process (before a restart) is position 0: everything this
// process published comes after it.
func (b *Bus) ParseID(id string) (int64, error) {
	boot, num, found := strings.Cut(id, "-")
	if !found {
		num, boot = id, b.boot
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("event id %q: want <boot>-<sequence> or a sequence number", id)
	}
	if boot != b.boot {
		return 0, nil
	}
	return n, nil
}

// Subscription receives events that pass its filter.
type Subscription struct {
	bus     *Bus
	ch      chan Event
	filter  func(Event) bool
	dropped atomic.Int64
	once    sync.Once
}

// Subscribe registers a subscriber with a buffer of size events (DefaultSubscriberN when
// size <= 0). filter may be nil to receive everything. Call Close when done.
func (b *Bus) Subscribe(size int, filter func(Event) bool) *Subscription {
	s, _, _ := b.SubscribeSince(size, filter, -1)
	return s
}

// SubscribeSince subscribes like Subscribe and also returns the buffered events after
// position since (a sequence number; negative: none) that pass filter, oldest first; the
// subscription receives what is published after them. missed is how many events after
// since the buffer no longer holds (some of which may not have passed the filter).
func (b *Bus) SubscribeSince(size int, filter func(Event) bool, since int64) (s *Subscription, replay []Event, missed int64) {
	if size <= 0 {
		size = DefaultSubscriberN
	}
	s = &Subscription{bus: b, ch: make(chan Event, size), filter: filter}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs[s] = struct{}{}
	if since < 0 {
		return s, nil, 0
	}
	oldest := b.seq + 1
	if len(b.ring) > 0 {
		oldest = b.ring[0].Seq
	}
	if gap := oldest - since - 1; gap > 0 {
		missed = gap
	}
	for _, e := range b.ring {
		if e.Seq > since && (filter == nil || filter(e)) {
			replay = append(replay, e)
		}
	}
	return s, replay, missed
}

// C is the channel of events. It is closed by Close.
func (s *Subscription) C() <-chan Event { return s.ch }

// Dropped returns how many events were dropped since the last call and resets the count.
func (s *Subscription) Dropped() int64 { return s.dropped.Swap(0) }

// Close unsubscribes and closes C.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.bus.mu.Lock()
		delete(s.bus.subs, s)
		close(s.ch)
		s.bus.mu.Unlock()
	})
}

// Publish numbers e, keeps it for replay and delivers it to every subscriber whose filter
// accepts it, without blocking.
func (b *Bus) Publish(e Event) {
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	data, err := json.Marshal(e)
	if err != nil {
		data, _ = json.Marshal(Event{Type: e.Type, SessionID: e.SessionID, Time: e.Time,
			Properties: map[string]string{"error": "unencodable properties: " + err.Error()}})
	}
	e.Data = data
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	e.Seq = b.seq
	b.ring = append(b.ring, e)
	b.bytes += len(data)
	for len(b.ring) > ReplayEvents || (b.bytes > ReplayBytes && len(b.ring) > 1) {
		b.bytes -= len(b.ring[0].Data)
		b.ring[0] = Event{}
		b.ring = b.ring[1:]
	}
	for s := range b.subs {
		if s.filter != nil && !s.filter(e) {
			continue
		}
		select {
		case s.ch <- e:
		default:
			s.dropped.Add(1)
		}
	}
}

// Subscribers returns the number of live subscriptions.
func (b *Bus) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}
