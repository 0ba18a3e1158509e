package room

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// DeliveryStore is what the Marker writes to.
type DeliveryStore interface {
	MarkVibeEventsDelivered(ctx context.Context, managedStreamID int64, seqs []int64, at time.Time) error
	WithholdVibeEvents(ctx context.Context, w store.Withhold) (int64, error)
}

// maxUnflushed bounds the marks kept while the store is failing.
const maxUnflushed = 100_000

type slotMarks struct {
	seqs []int64
	at   time.Time // earliest delivery in the batch
}

// Marker records first delivery times, and the events that came due while their slot was
// paused, off the hot path: rooms call Mark and Withhold, and Run writes what was collected in
// one store call per slot and kind every interval.
type Marker struct {
	store    DeliveryStore
	interval time.Duration
	log      *slog.Logger
	metrics  *Metrics

	mu       sync.Mutex
	pending  map[int64]*slotMarks
	withhold map[int64][]int64 // slot → seqs that came due while it was paused
	count    int
}

// NewMarker returns a Marker that flushes every interval.
func NewMarker(st DeliveryStore, interval time.Duration, log *slog.Logger, m *Metrics) *Marker {
	return &Marker{store: st, interval: interval, log: log, metrics: m,
		pending: map[int64]*slotMarks{}, withhold: map[int64][]int64{}}
}

// Withhold records that the slot's event seq came due while the slot was paused: it is
// withheld in the store, so that no path shows it after the slot resumes. Every replica that
// drops it marks it; the store keeps the first mark. It never blocks on the store.
func (m *Marker) Withhold(slotID, seq int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.count >= maxUnflushed {
		return
	}
	m.withhold[slotID] = append(m.withhold[slotID], seq)
	m.count++
}

// Mark records that the slot's event seq was delivered to viewers at `at`. It never blocks
// on the store.
func (m *Marker) Mark(slotID, seq int64, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.count >= maxUnflushed {
		return
	}
	sm := m.pending[slotID]
	if sm == nil {
		sm = &slotMarks{at: at}
		m.pending[slotID] = sm
	}
	sm.seqs = append(sm.seqs, seq)
	if at.Before(sm.at) {
		sm.at = at
	}
	m.count++
}

// Run flushes every interval until ctx ends, then flushes once more with a short deadline.
func (m *Marker) Run(ctx context.Context) {
	t := time.NewTicker(m.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			m.Flush(ctx)
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			m.Flush(fctx)
			cancel()
			return
		}
	}
}

// Flush writes every pending mark; marks whose write fails are kept for the next flush.
// Withholdings go first: they matter to viewers, delivery times to the owner.
func (m *Marker) Flush(ctx context.Context) {
	m.mu.Lock()
	batch, withhold := m.pending, m.withhold
	m.pending, m.withhold, m.count = map[int64]*slotMarks{}, map[int64][]int64{}, 0
	m.mu.Unlock()
	for slotID, seqs := range withhold {
		w := store.Withhold{ManagedStreamID: slotID, Seqs: seqs, Reason: vibe.WithheldDueWhilePaused}
		if _, err := m.store.WithholdVibeEvents(ctx, w); err != nil {
			m.metrics.MarkErrors.Inc()
			m.log.WarnContext(ctx, "withhold events that came due while paused", "slot_id", slotID, "events", len(seqs), "error", err)
			for _, seq := range seqs {
				m.Withhold(slotID, seq)
			}
		}
	}
	for slotID, sm := range batch {
		if err := m.store.MarkVibeEventsDelivered(ctx, slotID, sm.seqs, sm.at); err != nil {
			m.metrics.MarkErrors.Inc()
			m.log.WarnContext(ctx, "record first delivery times", "slot_id", slotID, "events", len(sm.seqs), "error", err)
			for _, seq := range sm.seqs {
				m.Mark(slotID, seq, sm.at)
			}
		}
	}
}
