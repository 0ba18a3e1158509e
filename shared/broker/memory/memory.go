// Package memory is the in-process broker.Broker for the standalone binary: publishers and
// subscribers in one process, no network. Each subscription has a bounded queue; a publisher
// never blocks, and a subscriber that falls behind loses messages and receives a Gap.
package memory

import (
	"context"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/internal/fanout"
)

// Options configures a Broker.
type Options struct {
	// BufferSize is how many messages a subscription holds before it starts dropping
	// (0: fanout.DefaultSize).
	BufferSize int
	// Registerer, if set, receives the openvibe_broker_* metrics (backend="memory").
	Registerer prometheus.Registerer
}

// Broker is an in-process broker.Broker.
type Broker struct {
	size    int
	metrics *fanout.Metrics

	mu     sync.RWMutex
	subs   map[string]map[*fanout.Sub]struct{}
	closed bool
}

var _ broker.Broker = (*Broker)(nil)

// New returns an empty in-process broker.
func New(opts Options) *Broker {
	return &Broker{
		size:    opts.BufferSize,
		metrics: fanout.NewMetrics(opts.Registerer, "memory"),
		subs:    map[string]map[*fanout.Sub]struct{}{},
	}
}

// Publish hands a copy of payload to every current subscriber of channel, in call order.
func (b *Broker) Publish(ctx context.Context, channel string, payload []byte) error {
	return b.PublishBatch(ctx, []broker.Outgoing{{Channel: channel, Payload: payload}})[0]
}

// PublishBatch publishes msgs in order under one lock.
func (b *Broker) PublishBatch(ctx context.Context, msgs []broker.Outgoing) []error {
	errs := make([]error, len(msgs))
	fail := ctx.Err()
	b.mu.RLock()
	defer b.mu.RUnlock()
	if fail == nil && b.closed {
		fail = broker.ErrClosed
	}
	for i, m := range msgs {
		if fail != nil {
			errs[i] = fail
			continue
		}
		for s := range b.subs[m.Channel] {
			s.Push(m.Payload)
		}
	}
	return errs
}

// Subscribe registers a subscriber; it receives everything published after it returns.
func (b *Broker) Subscribe(ctx context.Context, channel string) (broker.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, broker.ErrClosed
	}
	s := fanout.New(channel, b.size, b.metrics, b.remove)
	set := b.subs[channel]
	if set == nil {
		set = map[*fanout.Sub]struct{}{}
		b.subs[channel] = set
	}
	set[s] = struct{}{}
	return s, nil
}

func (b *Broker) remove(s *fanout.Sub) {
	b.mu.Lock()
	defer b.mu.Unlock()
	set := b.subs[s.Channel()]
	delete(set, s)
	if len(set) == 0 {
		delete(b.subs, s.Channel())
	}
}

// Ping reports ErrClosed after Close, nil otherwise.
func (b *Broker) Ping(context.Context) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return broker.ErrClosed
	}
	return nil
}

// Close closes every subscription; later calls return ErrClosed.
func (b *Broker) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	var all []*fanout.Sub
	for _, set := range b.subs {
		for s := range set {
			all = append(all, s)
		}
	}
	b.mu.Unlock()
	for _, s := range all {
		_ = s.Close() // runs remove, which takes b.mu
	}
	return nil
}
