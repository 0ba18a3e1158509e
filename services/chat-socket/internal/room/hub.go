package room

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"time"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/slotbus"
)

// ErrClosed is returned by Join once the hub is shutting down.
var ErrClosed = errors.New("room: hub closed")

// HubDeps are the hub's collaborators.
type HubDeps struct {
	Store   Store
	Broker  broker.Broker
	Marker  *Marker
	Metrics *Metrics
	Logger  *slog.Logger
	Now     func() time.Time
	Config  Config
}

// Hub owns the rooms of this node: a room starts with its first viewer and stops (releasing
// its broker subscription) when its last viewer has left and the linger time has passed.
type Hub struct {
	store   Store
	broker  broker.Broker
	marker  *Marker
	metrics *Metrics
	log     *slog.Logger
	now     func() time.Time
	cfg     Config

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	node   string // this node's name in presence messages

	mu     sync.Mutex
	rooms  map[int64]*Room
	closed bool
}

// NewHub returns a hub; rooms run until Close.
func NewHub(d HubDeps) *Hub {
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{
		store: d.Store, broker: d.Broker, marker: d.Marker, metrics: d.Metrics,
		log: d.Logger, now: d.Now, cfg: d.Config,
		ctx: ctx, cancel: cancel,
		rooms: map[int64]*Room{},
		node:  nodeName(),
	}
}

// Join attaches v to the slot's room, starting the room if needed. The room queues the
// welcome frame and what follows to v once the slot is loaded. The caller must call Leave.
func (h *Hub) Join(ctx context.Context, slot Slot, v *Viewer, since *int64) (*Room, error) {
	return h.join(ctx, slot, v, since, nil)
}

// JoinGreeted is Join for a viewer whose protocol answers a join itself (the original
// socket's auth frame): greeting is the first frame the room queues to v, when it attaches
// v. A client that waits for its greeting has therefore every event stored after it coming
// live; one sent before the room had loaded the slot would have let such events become
// history the client is never sent.
func (h *Hub) JoinGreeted(ctx context.Context, slot Slot, v *Viewer, greeting []byte) (*Room, error) {
	return h.join(ctx, slot, v, nil, greeting)
}

// Greet queues frame to v, a viewer that joined r, once r has attached it: at once when it
// has, else right before its room frames. It is false when the room has stopped.
func (h *Hub) Greet(ctx context.Context, r *Room, v *Viewer, frame []byte) bool {
	return r.do(ctx, func() { r.greet(v, frame) })
}

func (h *Hub) join(ctx context.Context, slot Slot, v *Viewer, since *int64, greeting []byte) (*Room, error) {
	r, err := h.acquire(slot)
	if err != nil {
		return nil, err
	}
	h.metrics.Viewers.Inc()
	var greetings [][]byte
	if greeting != nil {
		greetings = [][]byte{greeting}
	}
	if !r.do(ctx, func() { r.join(h.ctx, joinRequest{v: v, since: since, greetings: greetings}) }) {
		h.Leave(r, v)
		return nil, ErrClosed
	}
	return r, nil
}

// Leave detaches v from r.
func (h *Hub) Leave(r *Room, v *Viewer) {
	h.metrics.Viewers.Dec()
	r.do(h.ctx, func() { r.leave(v) })
	h.release(r)
}

func (h *Hub) acquire(slot Slot) (*Room, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	r := h.rooms[slot.ID]
	if r == nil {
		r = newRoom(h, slot)
		h.rooms[slot.ID] = r
		h.metrics.Rooms.Inc()
		h.wg.Go(func() { r.run(h.ctx) })
	}
	r.refs++
	return r, nil
}

func (h *Hub) release(r *Room) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r.refs--
	if r.refs > 0 {
		return
	}
	if h.cfg.Linger <= 0 {
		h.stopRoom(r)
		return
	}
	time.AfterFunc(h.cfg.Linger, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if r.refs == 0 {
			h.stopRoom(r)
		}
	})
}

// stopRoom stops an empty room; h.mu is held.
func (h *Hub) stopRoom(r *Room) {
	if h.rooms[r.slot.ID] != r {
		return
	}
	delete(h.rooms, r.slot.ID)
	h.metrics.Rooms.Dec()
	close(r.stop)
}

// Chat hands a chat message stored on this node to the local room at once; the broker
// carries it to the other nodes (and back here, where the room ignores the duplicate).
func (h *Hub) Chat(ctx context.Context, slotID int64, c *slotbus.Chat) {
	h.mu.Lock()
	r := h.rooms[slotID]
	h.mu.Unlock()
	if r != nil {
		r.do(ctx, func() { r.addChat(c) })
	}
}

// Rooms returns how many rooms are open.
func (h *Hub) Rooms() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms)
}

// Close stops every room and waits for their loops to end.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	h.wg.Wait()
}

// nodeName is a random name for this process's hub.
func nodeName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
