// Package bus is the runner's in-process, broadcast-only event bus. Producers (the session
// engine, the permission service) publish typed events; consumers (SSE streams, the CLI)
// subscribe and filter for themselves.
//
// Publish never blocks: every subscriber has a bounded buffer, and when a slow subscriber's
// buffer is full its events are dropped and counted. The subscriber learns how many it lost
// from Dropped, so a client can refetch state instead of the agent waiting for it.
package bus

import (
	"sync"
	"sync/atomic"
	"time"
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
}

// Bus is a broadcast pub/sub hub. The zero value is not usable; call New.
type Bus struct {
	mu   sync.RWMutex
	subs map[*Subscription]struct{}
}

// New returns an empty bus.
func New() *Bus { return &Bus{subs: map[*Subscription]struct{}{}} }

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
	if size <= 0 {
		size = DefaultSubscriberN
	}
	s := &Subscription{bus: b, ch: make(chan Event, size), filter: filter}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
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

// Publish delivers e to every subscriber whose filter accepts it, without blocking.
func (b *Bus) Publish(e Event) {
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
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
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.subs)
}
