// Package room is the chat-socket's delivery engine. A Room holds, per slot and per node,
// the slot's two broker subscriptions (events and chat; control messages), one FIFO delay
// queue with one timer, the slot's settings and a short history of delivered events; every
// stored event is projected and encoded once and the same bytes are queued to every viewer.
// All room state is owned by one goroutine (the room loop); viewers, the hub and the broker
// talk to it through channels.
package room

import (
	"context"
	"log/slog"
	"time"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// Store is the part of store.Store the rooms read.
type Store interface {
	ManagedStreamByID(ctx context.Context, id int64) (store.ManagedStream, error)
	VibeEventsAfter(ctx context.Context, managedStreamID, afterSeq int64, limit int) ([]store.VibeEvent, error)
	RecentChatMessages(ctx context.Context, managedStreamID int64, limit int) ([]store.ChatMessage, error)
}

// Config tunes the rooms.
type Config struct {
	// ResumeLimit is how many delivered events a room keeps for ?since= resume.
	ResumeLimit int
	// ChatHistory is how many recent chat messages a joining viewer gets.
	ChatHistory int
	// RefreshInterval is how often a room re-reads its slot from the store (settings, live
	// stream, newest seq) as a safety net behind the broker.
	RefreshInterval time.Duration
	// RetryInterval paces retries of failed subscriptions and store reads, and store polling
	// while the broker is unavailable.
	RetryInterval time.Duration
	// StoreTimeout bounds each store read made by a room.
	StoreTimeout time.Duration
	// FetchPage is the page size of store reads that fill gaps.
	FetchPage int
	// Linger keeps an empty room (and its subscription) this long before releasing it.
	Linger time.Duration
	// MaxReplayBytes caps a resume replay; a longer one gets a reset frame instead.
	MaxReplayBytes int
}

// Slot identifies the slot a room serves.
type Slot struct {
	ID    int64
	Slug  string
	Owner string // owner's username
}

// maxEarly bounds the events held while waiting for a gap to be filled.
const maxEarly = 10_000

type pendingEvent struct {
	ev   *slotbus.Event
	base time.Time // the delay counts from here
	due  time.Time
}

// earlyEvent is a broker event held until the hole before it is filled.
type earlyEvent struct {
	ev   *slotbus.Event
	base time.Time
}

type joinRequest struct {
	v         *Viewer
	since     *int64
	greetings [][]byte // frames sent first when v is attached (see Hub.JoinGreeted)
}

// Room is one slot's delivery room on this node.
type Room struct {
	slot Slot
	h    *Hub
	log  *slog.Logger

	cmds chan func()
	stop chan struct{}
	done chan struct{}

	// Everything below is owned by the room loop.
	refs         int // viewers attached or attaching; guarded by Hub.mu
	ready        bool
	sub          broker.Subscription // the slot's event channel: events, chat, viewer counts
	ctl          broker.Subscription // the slot's control channel: settings, retract, panic
	settings     vibe.Settings
	liveStreamID *int64
	next         int64 // the next seq the room expects
	pending      []pendingEvent
	early        map[int64]earlyEvent
	retracted    map[int64]bool // retractions of seqs not yet received
	ring         []pastEvent    // resume history, oldest first
	floor        int64          // seqs at or below it are beyond the history (before its window, or dropped from ring)
	shown        int64          // the newest seq a viewer may have been shown (welcome and reset seq)
	gen          uint64         // bumped on every settings change
	pausedAt     *time.Time     // since when the slot's feed has been paused, as last read
	chat         []ChatMessageFrame
	viewers      []*Viewer       // iterated on every frame: a slice, not a map
	viewerIndex  map[*Viewer]int // position in viewers
	waiting      []joinRequest
	timer        *time.Timer
	fillDue      bool
	refreshing   bool // a background refresh is in flight
	lastRefresh  time.Time
	// Pause decisions the broker alone cannot settle. Events and settings travel on two
	// channels, so a resume may arrive after the first event stored under it; and a refresh
	// read before a settings message may come back after it. settingsMsgs counts the settings
	// messages applied (a refresh read before the newest one does not overwrite it);
	// checkedSeq is the slot's newest seq at the last successful read of the slot (an event
	// after it was stored after the settings the room knows of, so its pause is read again
	// before it is dropped); confirm asks the loop for that read, and awaitRead holds the
	// delay queue until it is back.
	settingsMsgs uint64
	checkedSeq   int64
	confirm      bool
	awaitRead    bool

	// Viewer counts, for the original socket's user-count frames: this node's viewers and
	// what the other nodes last said (presence messages).
	originals    int  // viewers on the original socket
	countDirty   bool // the local count changed since it was last announced
	countSent    int  // the count in the last user-count frame
	lastPresence time.Time
	presence     map[string]remoteCount
}

// remoteCount is another node's viewer count of this slot.
type remoteCount struct {
	viewers int
	at      time.Time
}

func newRoom(h *Hub, slot Slot) *Room {
	r := &Room{
		slot:        slot,
		h:           h,
		log:         h.log.With("slot_id", slot.ID),
		cmds:        make(chan func(), 64),
		stop:        make(chan struct{}),
		done:        make(chan struct{}),
		early:       map[int64]earlyEvent{},
		retracted:   map[int64]bool{},
		viewerIndex: map[*Viewer]int{},
		settings:    vibe.DefaultSettings(),
		presence:    map[string]remoteCount{},
		countSent:   -1,
	}
	r.timer = time.NewTimer(time.Hour)
	r.timer.Stop()
	return r
}

// do runs f on the room loop. It gives up when ctx ends or the room has stopped.
func (r *Room) do(ctx context.Context, f func()) bool {
	select {
	case r.cmds <- f:
		return true
	case <-r.done:
		return false
	case <-ctx.Done():
		return false
	}
}

func (r *Room) run(ctx context.Context) {
	defer close(r.done)
	defer r.cleanup()
	r.subscribe(ctx)
	r.init(ctx)
	tick := time.NewTicker(r.h.cfg.RetryInterval)
	defer tick.Stop()
	for {
		var msgs, ctls <-chan broker.Message
		if r.sub != nil {
			msgs, ctls = r.sub.Messages(), r.ctl.Messages()
		}
		select {
		case m, ok := <-msgs:
			if !ok {
				r.dropSubscription()
				continue
			}
			r.handle(ctx, m)
		case m, ok := <-ctls:
			if !ok {
				r.dropSubscription()
				continue
			}
			r.handle(ctx, m)
		case <-r.timer.C:
			r.deliverDue(r.h.now(), true)
		case f := <-r.cmds:
			f()
		case <-tick.C:
			r.tick(ctx)
		case <-r.stop:
			return
		case <-ctx.Done():
			return
		}
		if r.confirm && r.ready {
			r.refresh(ctx, r.h.now())
		}
	}
}

func (r *Room) cleanup() {
	r.timer.Stop()
	if !r.lastPresence.IsZero() {
		r.publishPresence(0) // the other nodes stop counting this one now
	}
	r.dropSubscription()
}

// subscribe subscribes to the slot's two channels, both or neither.
func (r *Room) subscribe(ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, r.h.cfg.StoreTimeout)
	defer cancel()
	sub, err := r.h.broker.Subscribe(sctx, slotbus.Channel(r.slot.ID))
	if err != nil {
		r.log.WarnContext(ctx, "subscribe to slot channel; polling the store meanwhile", "error", err)
		return
	}
	ctl, err := r.h.broker.Subscribe(sctx, slotbus.ControlChannel(r.slot.ID))
	if err != nil {
		_ = sub.Close()
		r.log.WarnContext(ctx, "subscribe to slot control channel; polling the store meanwhile", "error", err)
		return
	}
	r.sub, r.ctl = sub, ctl
	r.h.metrics.Subscriptions.Add(2)
	// Control messages sent before the subscriptions were active are lost: refresh soon.
	r.lastRefresh = time.Time{}
}

func (r *Room) dropSubscription() {
	if r.sub == nil {
		return
	}
	_ = r.sub.Close()
	_ = r.ctl.Close()
	r.sub, r.ctl = nil, nil
	r.fillDue = true
	r.h.metrics.Subscriptions.Sub(2)
}

// tick retries what failed and runs the periodic safety net.
func (r *Room) tick(ctx context.Context) {
	if r.sub == nil {
		r.subscribe(ctx)
		r.fillDue = true
	}
	if !r.ready {
		r.init(ctx)
		return
	}
	now := r.h.now()
	if r.sub == nil || r.awaitRead || now.Sub(r.lastRefresh) >= r.h.cfg.RefreshInterval {
		r.refresh(ctx, now)
	}
	r.counts(now)
	if r.fillDue {
		r.fill(ctx, "retry")
	}
}

func (r *Room) storeCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, r.h.cfg.StoreTimeout)
}

// init loads the slot, its recent chat and its recent events. Until it succeeds joins wait.
func (r *Room) init(ctx context.Context) {
	sctx, cancel := r.storeCtx(ctx)
	defer cancel()
	ms, err := r.h.store.ManagedStreamByID(sctx, r.slot.ID)
	if err != nil {
		r.storeError(ctx, "load_slot", err)
		return
	}
	msgs, err := r.h.store.RecentChatMessages(sctx, r.slot.ID, r.h.cfg.ChatHistory)
	if err != nil {
		r.storeError(ctx, "load_chat", err)
		return
	}
	r.settings = vibe.SettingsFromBroadcast(ms.BroadcastSettings)
	r.liveStreamID, r.pausedAt = ms.LiveStreamID, ms.PausedAt
	r.lastRefresh, r.checkedSeq = r.h.now(), ms.LastSeq
	r.chat = r.chat[:0]
	for _, m := range msgs {
		r.chat = append(r.chat, chatFrame(slotbus.FromStoreChat(m)))
	}
	start := max(0, ms.LastSeq-int64(r.h.cfg.ResumeLimit))
	r.next, r.floor, r.shown = start+1, start, 0
	r.pending, r.ring = r.pending[:0], r.ring[:0] // a failed attempt may have left some
	clear(r.early)
	if !r.fetch(ctx, "start") {
		return
	}
	// Events already past their delay are history: they go to the resume ring, not out.
	r.deliverDue(r.h.now(), false)
	r.ready = true
	for _, j := range r.waiting {
		r.join(ctx, j)
	}
	r.waiting = nil
}

// refresh re-reads the slot: settings changes the broker missed and events it did not carry.
// refresh re-reads the slot in the background (the room loop never waits on it): settings
// changes the broker missed, events it did not carry, and retractions of pending events.
func (r *Room) refresh(ctx context.Context, now time.Time) {
	if r.refreshing {
		return
	}
	r.refreshing, r.lastRefresh, r.confirm = true, now, false
	// Every event received so far was stored before this read: none of them waits again.
	msgs, upto := r.settingsMsgs, r.next-1
	var first, last int64
	if len(r.pending) > 0 {
		first, last = r.pending[0].ev.Seq, r.pending[len(r.pending)-1].ev.Seq
	}
	r.h.wg.Go(func() {
		sctx, cancel := r.storeCtx(ctx)
		defer cancel()
		ms, err := r.h.store.ManagedStreamByID(sctx, r.slot.ID)
		var revoked map[int64]bool
		if err == nil && first > 0 {
			revoked, err = r.revokedBetween(sctx, first, last)
		}
		r.do(ctx, func() { r.applyRefresh(ctx, ms, revoked, err, msgs, upto) })
	})
}

func (r *Room) applyRefresh(ctx context.Context, ms store.ManagedStream, revoked map[int64]bool, err error, msgs uint64, upto int64) {
	r.refreshing = false
	if err != nil {
		r.storeError(ctx, "refresh_slot", err)
		return // awaitRead stays: the tick asks again
	}
	if msgs == r.settingsMsgs { // else a settings message newer than this read has been applied
		s := vibe.SettingsFromBroadcast(ms.BroadcastSettings)
		if !r.settings.Live() && s.Live() {
			r.beforeResume(ctx) // the resume message was missed or is still on its way
		}
		r.pausedAt = ms.PausedAt
		r.applySettings(s, ms.LiveStreamID)
	}
	r.dropRevoked(revoked)
	if ms.LastSeq >= r.next {
		r.fill(ctx, "refresh")
	}
	// Settled: what waited is decided under the settings just read.
	r.checkedSeq, r.awaitRead, r.confirm = max(r.checkedSeq, ms.LastSeq, upto), false, false
	if r.ready {
		r.deliverDue(r.h.now(), true)
	}
}

func (r *Room) storeError(ctx context.Context, op string, err error) {
	r.h.metrics.StoreErrors.WithLabelValues(op).Inc()
	if ctx.Err() == nil {
		r.log.WarnContext(ctx, "room store read failed; retrying", "op", op, "error", err)
	}
}

func (r *Room) handle(ctx context.Context, m broker.Message) {
	if m.Gap {
		r.fill(ctx, "broker_gap")
		r.revalidate(ctx)           // a retraction or panic may have been lost too
		r.lastRefresh = time.Time{} // and settings: re-read the slot at the next tick
		return
	}
	msg, err := slotbus.Decode(m.Payload)
	if err != nil || msg.SlotID != r.slot.ID {
		r.log.WarnContext(ctx, "ignore malformed slot message", "error", err)
		return
	}
	switch {
	case msg.Kind == slotbus.KindEvent && msg.Event != nil:
		r.receive(ctx, msg.Event)
	case msg.Kind == slotbus.KindSettings && msg.Settings != nil:
		r.settingsMsgs++
		if !r.settings.Live() && msg.Settings.Live() {
			r.beforeResume(ctx)
		}
		r.applySettings(*msg.Settings, r.liveStreamID)
	case msg.Kind == slotbus.KindRetract && msg.Retract != nil:
		r.retract(*msg.Retract)
	case msg.Kind == slotbus.KindPanic && msg.Panic != nil:
		r.panic(ctx, *msg.Panic)
	case msg.Kind == slotbus.KindChat && msg.Chat != nil:
		r.addChat(msg.Chat)
	case msg.Kind == slotbus.KindPresence && msg.Presence != nil:
		r.remotePresence(*msg.Presence)
	default:
		r.log.DebugContext(ctx, "ignore unknown slot message", "kind", msg.Kind)
	}
}
