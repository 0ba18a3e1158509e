package gateway

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// slotView is an immutable snapshot of what the gateway needs to know about a slot on the
// hot path: its settings and whether it is live.
type slotView struct {
	settings     vibe.Settings
	liveStreamID *int64
}

func newSlotView(s vibe.Settings, liveStreamID *int64) *slotView {
	return &slotView{settings: s, liveStreamID: liveStreamID}
}

// slotState is one slot with publisher connections on this gateway.
type slotState struct {
	id      int64
	userID  int64
	slug    string
	view    atomic.Pointer[slotView]
	limiter *rate.Limiter

	conns  int // guarded by slotRegistry.mu
	cancel context.CancelFunc
}

func (s *slotState) current() *slotView { return s.view.Load() }

// errSlotFull: the slot already has MaxConnsPerSlot connections on this gateway.
var errSlotFull = errors.New("slot connection limit reached")

// slotRegistry tracks the slots that have connections and keeps each one's view fresh: a
// watcher goroutine per slot applies settings and panic messages from the slot's control
// channel at once (the gateway never subscribes to the event channel, so it is not sent back
// the events it publishes, nor chat) and reloads the slot from the store every SettingsTTL
// (which also catches live-stream starts and ends, and anything missed while the broker was
// away).
type slotRegistry struct {
	st      store.Store
	br      broker.Broker
	log     *slog.Logger
	met     *metrics
	cfg     Config
	ctx     context.Context
	stopAll context.CancelFunc
	wg      sync.WaitGroup

	mu    sync.Mutex
	slots map[int64]*slotState
}

func newSlotRegistry(st store.Store, br broker.Broker, log *slog.Logger, met *metrics, cfg Config) *slotRegistry {
	ctx, cancel := context.WithCancel(context.Background())
	return &slotRegistry{st: st, br: br, log: log, met: met, cfg: cfg, ctx: ctx, stopAll: cancel, slots: map[int64]*slotState{}}
}

// join registers a connection on the slot just read from the store, starting its watcher if
// it is the first.
func (r *slotRegistry) join(ms store.ManagedStream) (*slotState, error) {
	view := newSlotView(vibe.SettingsFromBroadcast(ms.BroadcastSettings), ms.LiveStreamID)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		return nil, errClosing
	}
	s := r.slots[ms.ID]
	if s == nil {
		s = &slotState{id: ms.ID, userID: ms.UserID, slug: ms.Slug, limiter: rate.NewLimiter(rate.Limit(r.cfg.SlotRate), r.cfg.SlotBurst)}
		ctx, cancel := context.WithCancel(r.ctx)
		s.cancel = cancel
		r.slots[ms.ID] = s
		r.wg.Go(func() { r.watch(ctx, s) })
	}
	if s.conns >= r.cfg.MaxConnsPerSlot {
		return nil, errSlotFull
	}
	s.conns++
	s.slug = ms.Slug
	s.view.Store(view)
	return s, nil
}

// leave unregisters a connection; the last one out stops the slot's watcher.
func (r *slotRegistry) leave(s *slotState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s.conns--
	if s.conns == 0 {
		delete(r.slots, s.id)
		s.cancel()
	}
}

// close stops every watcher and waits for them.
func (r *slotRegistry) close() {
	r.stopAll()
	r.wg.Wait()
}

func (r *slotRegistry) watch(ctx context.Context, s *slotState) {
	sub := r.subscribe(ctx, s.id)
	defer func() {
		if sub != nil {
			_ = sub.Close()
		}
	}()
	ticker := time.NewTicker(r.cfg.SettingsTTL)
	defer ticker.Stop()
	for {
		var msgs <-chan broker.Message
		if sub != nil {
			msgs = sub.Messages()
		}
		select {
		case <-ctx.Done():
			return
		case m, ok := <-msgs:
			if !ok {
				_ = sub.Close()
				sub = nil
				continue
			}
			r.apply(ctx, s, m)
		case <-ticker.C:
			r.reload(ctx, s)
			if sub == nil {
				sub = r.subscribe(ctx, s.id)
			}
		}
	}
}

func (r *slotRegistry) subscribe(ctx context.Context, slotID int64) broker.Subscription {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.PublishTimeout)
	defer cancel()
	sub, err := r.br.Subscribe(ctx, slotbus.ControlChannel(slotID))
	if err != nil {
		if ctx.Err() == nil || !errors.Is(err, context.Canceled) {
			r.log.WarnContext(ctx, "slot settings subscription failed; relying on reloads", "managed_stream_id", slotID, "error", err)
		}
		return nil
	}
	return sub
}

// apply takes a message of the slot's control channel: settings and panic change the view; a
// retraction does not concern the gateway.
func (r *slotRegistry) apply(ctx context.Context, s *slotState, m broker.Message) {
	if m.Gap {
		r.reload(ctx, s)
		return
	}
	msg, err := slotbus.Decode(m.Payload)
	if err != nil || msg.SlotID != s.id {
		return
	}
	var settings *vibe.Settings
	switch {
	case msg.Kind == slotbus.KindSettings && msg.Settings != nil:
		settings = msg.Settings
	case msg.Kind == slotbus.KindPanic && msg.Panic != nil:
		settings = &msg.Panic.Settings
	default:
		return
	}
	cur := s.current()
	s.view.Store(newSlotView(*settings, cur.liveStreamID))
	r.met.settingsRefreshes.WithLabelValues("broker").Inc()
}

func (r *slotRegistry) reload(ctx context.Context, s *slotState) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.StoreTimeout)
	defer cancel()
	ms, err := r.st.ManagedStreamByID(ctx, s.id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// The slot is gone: treat it as disabled, so nothing more is shown; inserts will fail.
		off := vibe.DefaultSettings()
		off.Enabled = 0
		s.view.Store(newSlotView(off, nil))
	case err != nil:
		if ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.met.settingsRefreshes.WithLabelValues("failed").Inc()
		}
		return
	default:
		s.view.Store(newSlotView(vibe.SettingsFromBroadcast(ms.BroadcastSettings), ms.LiveStreamID))
	}
	r.met.settingsRefreshes.WithLabelValues("reload").Inc()
}
