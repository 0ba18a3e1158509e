package cluster

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

// Publisher is a shared/vibe/publisher client that records what it published and what the
// gateway acked, refused or reported.
type Publisher struct {
	*publisher.Client

	mu        sync.Mutex
	published []string
	acked     map[string]vibe.Ack // eventId → first ack
	ackAt     map[string]time.Time
	sentAt    map[string]time.Time
	delivered map[string]bool // eventId → some ack said delivered
	errors    []error
	errorAt   []time.Time
}

// PublisherOptions configures NewPublisher; zero values take the client's defaults, except
// that pacing is off and reconnects are quick.
type PublisherOptions struct {
	Server      string // base URL of a gateway or a balancer
	Token       string
	Slot        Slot
	MaxInFlight int
	AckTimeout  time.Duration
}

// NewPublisher connects a publisher and waits for its first handshake.
func NewPublisher(t testing.TB, o PublisherOptions) *Publisher {
	t.Helper()
	p := &Publisher{acked: map[string]vibe.Ack{}, ackAt: map[string]time.Time{}, sentAt: map[string]time.Time{}, delivered: map[string]bool{}}
	cfg := publisher.Config{
		Server: o.Server, Token: o.Token, ManagedStreamID: o.Slot.ID, SlotSlug: o.Slot.Slug,
		Publisher: vibe.Publisher{IntegrationID: "e2e", ClientType: "service", ClientName: "openvibe e2e"},
		// Pacing well above the tests' rates bounds how fast refused events are resent.
		DisableSanitize: true, Rate: 100, Burst: 200, MaxInFlight: o.MaxInFlight, QueueSize: 100_000,
		BackoffMin: 50 * time.Millisecond, BackoffMax: 500 * time.Millisecond,
		AckTimeout: o.AckTimeout, HandshakeTimeout: 5 * time.Second,
		OnAck: func(a vibe.Ack) {
			p.mu.Lock()
			defer p.mu.Unlock()
			if _, ok := p.acked[a.EventID]; !ok {
				p.acked[a.EventID] = a
				p.ackAt[a.EventID] = time.Now()
			}
			if a.Delivered {
				p.delivered[a.EventID] = true
			}
		},
		OnError: func(err error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.errors = append(p.errors, err)
			p.errorAt = append(p.errorAt, time.Now())
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := publisher.Dial(ctx, cfg)
	if err != nil {
		t.Fatalf("publisher dial %s: %v", o.Server, err)
	}
	p.Client = c
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	return p
}

// Send publishes one response event with a fresh id and returns the id.
func (p *Publisher) Send(summary string) (string, error) {
	id := uuid.NewString()
	ev := vibe.Event{EventID: id, EventType: vibe.TypeResponse, Visibility: "public", Summary: summary,
		Response: &vibe.ResponseBody{Text: summary}}
	p.mu.Lock()
	p.published = append(p.published, id)
	p.sentAt[id] = time.Now()
	p.mu.Unlock()
	if err := p.Publish(ev); err != nil {
		return id, err
	}
	return id, nil
}

// PublisherRecord is what a publisher saw.
type PublisherRecord struct {
	Published []string
	Acked     map[string]vibe.Ack
	Delivered map[string]bool
	SentAt    map[string]time.Time // eventId → handed to the client
	AckAt     map[string]time.Time // eventId → first ack
	AckDelay  []time.Duration      // publish → first ack, per acked event
	Errors    []error
	ErrorAt   []time.Time // when each error was reported
}

// Record returns a copy of what the publisher recorded.
func (p *Publisher) Record() PublisherRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := PublisherRecord{Published: append([]string{}, p.published...), Acked: map[string]vibe.Ack{},
		Delivered: map[string]bool{}, Errors: append([]error{}, p.errors...), ErrorAt: append([]time.Time{}, p.errorAt...), AckAt: map[string]time.Time{}, SentAt: map[string]time.Time{}}
	for k, v := range p.sentAt {
		r.SentAt[k] = v
	}
	for k, v := range p.acked {
		r.Acked[k] = v
		r.AckAt[k] = p.ackAt[k]
		r.AckDelay = append(r.AckDelay, p.ackAt[k].Sub(p.sentAt[k]))
	}
	for k, v := range p.delivered {
		r.Delivered[k] = v
	}
	return r
}

// Ack returns the first ack of an event, if any.
func (p *Publisher) Ack(id string) (vibe.Ack, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.acked[id]
	return a, ok
}

// WaitAck waits for the ack of one event.
func (p *Publisher) WaitAck(timeout time.Duration, id string) (vibe.Ack, bool) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if a, ok := p.Ack(id); ok {
			return a, true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return vibe.Ack{}, false
}

// StoredEvents returns, for a slot, how many rows each eventId has in the store, and the
// seq of each.
func (c *Cluster) StoredEvents(ctx context.Context, slot int64) (count map[string]int, seq map[string]int64, err error) {
	conn, err := pgx.Connect(ctx, c.PG.URL)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, `SELECT event_id, seq FROM vibe_coding_events WHERE managed_stream_id = $1`, slot)
	if err != nil {
		return nil, nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	count, seq = map[string]int{}, map[string]int64{}
	for rows.Next() {
		var id string
		var s int64
		if err := rows.Scan(&id, &s); err != nil {
			return nil, nil, err
		}
		count[id]++
		seq[id] = s
	}
	return count, seq, rows.Err()
}
