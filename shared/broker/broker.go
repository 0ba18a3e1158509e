// Package broker defines the publish/subscribe contract that carries stored events, settings
// changes and chat between service replicas. Two backends implement it: broker/redis (Redis
// pub/sub, for any number of replicas) and broker/memory (in-process, for the standalone
// binary). broker/brokertest runs one conformance suite against both.
//
// Delivery guarantee: at most once, best effort. The store is the source of truth and the
// broker only the fast path, so:
//   - Messages published on one channel by one publisher are delivered to each subscriber of
//     that channel in publish order, without duplicates.
//   - A message may be lost: when a subscriber falls behind (its buffer is full), or while the
//     connection to Redis is down. Whenever a subscriber may have missed messages, it receives
//     a Message with Gap set before any later message, so it can recover from the store.
//   - A subscription survives a Redis restart: the backend reconnects and resubscribes on its
//     own, and signals a Gap once it is subscribed again.
//   - Publish returns an error when the message was certainly not handed to the backend (for
//     Redis: the PUBLISH command failed); success does not mean anyone received it.
package broker

import (
	"context"
	"errors"
)

// ErrClosed is returned by Publish and Subscribe after Close.
var ErrClosed = errors.New("broker: closed")

// Message is one delivery on a subscription.
type Message struct {
	Channel string
	Payload []byte
	// Gap reports that messages may have been lost just before this point. A Gap message
	// carries no payload.
	Gap bool
}

// Subscription is one subscriber's view of one channel.
type Subscription interface {
	// Messages delivers messages in order. It is closed after Close, or when the broker is closed.
	Messages() <-chan Message
	// Close stops the subscription and releases its resources. It is safe to call twice.
	Close() error
}

// Broker is the pub/sub contract. All methods are safe for concurrent use.
type Broker interface {
	Publish(ctx context.Context, channel string, payload []byte) error
	// Subscribe returns once the subscription is active: a message published after Subscribe
	// returns is delivered (unless a Gap is signalled).
	Subscribe(ctx context.Context, channel string) (Subscription, error)
	// Ping reports whether the backend is reachable (for readiness).
	Ping(ctx context.Context) error
	Close() error
}

// Outgoing is one message to publish.
type Outgoing struct {
	Channel string
	Payload []byte
}

// BatchPublisher is implemented by brokers that can publish several messages in one round
// trip (Redis: one pipeline). Messages keep their order, as if published one by one.
type BatchPublisher interface {
	// PublishBatch publishes msgs in order and returns one error per message: nil when it was
	// handed to the backend, as Publish would say.
	PublishBatch(ctx context.Context, msgs []Outgoing) []error
}

// PublishAll publishes msgs in order, in one round trip when b is a BatchPublisher and one
// Publish at a time otherwise, and returns one error per message.
func PublishAll(ctx context.Context, b Broker, msgs []Outgoing) []error {
	if bp, ok := b.(BatchPublisher); ok {
		return bp.PublishBatch(ctx, msgs)
	}
	errs := make([]error, len(msgs))
	for i, m := range msgs {
		errs[i] = b.Publish(ctx, m.Channel, m.Payload)
	}
	return errs
}
