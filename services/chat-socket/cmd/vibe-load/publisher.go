package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

type publishStats struct {
	published atomic.Uint64
	errors    atomic.Uint64
	firstErr  atomic.Pointer[string] // the first publish error, for the report
	store     histogram              // time to store an event (the gateway's work before its ack)
	// stored records, per slot, when each seq was stored, so viewers can also measure the
	// chat-socket's own share: stored → viewer. Filled before publishing starts, read-only after.
	stored map[int64]*storedRing
}

// storedRing maps seq → store time (unix ns) for the last len(at) seqs, without locks or
// allocations on the viewers' hot path.
type storedRing struct {
	at [1 << 16]atomic.Int64
}

func (r *storedRing) put(seq int64, t time.Time) { r.at[seq&(1<<16-1)].Store(t.UnixNano()) }

func (r *storedRing) get(seq int64) (time.Time, bool) {
	if r == nil {
		return time.Time{}, false
	}
	n := r.at[seq&(1<<16-1)].Load()
	return time.Unix(0, n), n != 0
}

// loadEvent is a visible prompt event whose summary carries its publish time, so viewers
// can measure publish→viewer latency.
func loadEvent(now time.Time) vibe.Event {
	return vibe.Event{
		Version:    1,
		EventID:    uuid.NewString(),
		EventType:  vibe.TypePrompt,
		Visibility: vibe.VisibilityPublic,
		Summary:    "load " + strconv.FormatInt(now.UnixNano(), 10),
		Prompt:     &vibe.TextBody{Text: "load test prompt"},
	}
}

// tick calls f rate times a second until ctx ends.
func tick(ctx context.Context, rate float64, f func(time.Time)) {
	t := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f(time.Now())
		}
	}
}

// storePublisher plays the gateway: store the event, then publish it on the slot channel.
type storePublisher struct {
	st      store.Store
	br      broker.Broker
	slot    store.ManagedStream
	session store.VibeSession
	stats   *publishStats
}

func newStorePublisher(ctx context.Context, st store.Store, br broker.Broker, slot store.ManagedStream, stats *publishStats) (*storePublisher, error) {
	sess, err := st.UpsertVibeSession(ctx, store.VibeSession{
		ManagedStreamID: slot.ID,
		SessionKey:      "vibe-load-" + uuid.NewString()[:8],
		Publisher:       json.RawMessage(`{"integrationId":"vibe-load","clientType":"service"}`),
		Status:          store.SessionActive,
		StartedAt:       time.Now().UTC(),
		LastSeenAt:      time.Now().UTC(),
	})
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	return &storePublisher{st: st, br: br, slot: slot, session: sess, stats: stats}, nil
}

// publish stores n events in one transaction (as the gateway's batching writer does), then
// publishes each on the slot channel.
func (p *storePublisher) publish(ctx context.Context, now time.Time, n int) {
	batch := make([]store.NewVibeEvent, n)
	for i := range batch {
		ev := loadEvent(now)
		payload, _ := json.Marshal(ev)
		batch[i] = store.NewVibeEvent{
			ManagedStreamID: p.slot.ID,
			SessionID:       p.session.ID,
			EventID:         ev.EventID,
			EventType:       ev.EventType,
			Visibility:      vibe.VisibilityPublic,
			Payload:         payload,
			ReceivedAt:      time.Now().UTC(),
		}
	}
	res, err := p.st.InsertVibeEvents(ctx, batch)
	if err != nil {
		p.stats.fail(err)
		p.stats.errors.Add(uint64(n) - 1)
		return
	}
	stored := time.Now()
	ctx = context.WithoutCancel(ctx) // stored events are published even as the run ends
	for _, r := range res {
		p.stats.store.observe(stored.Sub(now))
		p.stats.stored[p.slot.ID].put(r.Event.Seq, stored)
		msg := slotbus.Message{Kind: slotbus.KindEvent, SlotID: p.slot.ID, Event: slotbus.FromStoreEvent(r.Event)}
		if err := slotbus.Publish(ctx, p.br, msg); err != nil {
			p.stats.fail(err) // stored: viewers still get it through gap recovery
		}
		p.stats.published.Add(1)
	}
}

// gatewayPublisher publishes through the gateway's publisher WebSocket.
func runGatewayPublisher(ctx context.Context, server, token string, slot store.ManagedStream, rate float64, stats *publishStats) error {
	c, err := publisher.Dial(ctx, publisher.Config{
		Server: server, Token: token, ManagedStreamID: slot.ID, SlotSlug: slot.Slug,
		DisableSanitize: true, // load events hold no secrets; the gateway sanitizes anyway
		Publisher:       vibe.Publisher{IntegrationID: "vibe-load", ClientType: "service"},
		QueueSize:       4096, MaxInFlight: 256,
	})
	if err != nil {
		return fmt.Errorf("connect publisher: %w", err)
	}
	defer c.Close(context.WithoutCancel(ctx))
	tick(ctx, rate, func(now time.Time) {
		if err := c.Publish(loadEvent(now)); err != nil {
			stats.fail(err)
			return
		}
		stats.published.Add(1)
	})
	return nil
}

func (s *publishStats) fail(err error) {
	s.errors.Add(1)
	msg := err.Error()
	s.firstErr.CompareAndSwap(nil, &msg)
}
