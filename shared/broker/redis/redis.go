// Package redis is the broker.Broker over Redis pub/sub, for any number of replicas.
//
// One Broker holds one pub/sub connection that carries every channel its subscribers listen
// to: the first local subscriber of a channel sends SUBSCRIBE and waits for Redis to confirm
// it, the last one to leave sends UNSUBSCRIBE. A dispatcher goroutine reads the connection
// and hands each message to the local subscribers' bounded queues (a full queue drops and
// owes a Gap), so a slow subscriber never holds up the connection or the others.
//
// When the connection fails (or stops answering the health-check PING) the dispatcher drops
// it, reconnects with backoff, subscribes again to every channel in use and, as each channel
// is confirmed, gives its subscribers a Gap: whatever was published meanwhile is lost to
// them, and the store has it.
package redis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	goredis "github.com/redis/go-redis/v9"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/internal/fanout"
)

const (
	// DefaultHealthInterval is how long the connection may stay silent before a PING is
	// sent; with no reply within another interval the connection is dropped.
	DefaultHealthInterval = 5 * time.Second
	commandTimeout        = 5 * time.Second
	minBackoff            = 50 * time.Millisecond
	maxBackoff            = time.Second
)

// Options configures a Broker.
type Options struct {
	Logger *slog.Logger
	// BufferSize is how many messages a subscription holds before it starts dropping
	// (0: fanout.DefaultSize).
	BufferSize int
	// HealthInterval overrides DefaultHealthInterval.
	HealthInterval time.Duration
	// Registerer, if set, receives the openvibe_broker_* metrics (backend="redis").
	Registerer prometheus.Registerer
}

// Broker is a broker.Broker over Redis pub/sub.
type Broker struct {
	client     goredis.UniversalClient
	ownsClient bool
	log        *slog.Logger
	size       int
	health     time.Duration
	metrics    *fanout.Metrics

	mu       sync.Mutex
	ps       *goredis.PubSub // nil while disconnected
	chans    map[string]*channelState
	inflight map[string]int // SUBSCRIBE/UNSUBSCRIBE sent on ps and not yet confirmed
	closed   atomic.Bool

	connected chan struct{} // closed on the first successful connection
	connOnce  sync.Once
	stop      context.CancelFunc
	done      chan struct{}
}

// channelState is the local view of one Redis channel.
type channelState struct {
	subs map[*fanout.Sub]struct{}
	// ready is closed once Redis confirmed the subscription on the current connection (or
	// when the connection is lost, releasing anyone waiting).
	ready   chan struct{}
	isReady bool
	// needGap: subscribers may have missed messages; they get a Gap when the channel is
	// next confirmed.
	needGap bool
}

var _ broker.Broker = (*Broker)(nil)

// Open connects to the Redis server at url (redis://, rediss:// or unix://), checks it
// answers, and returns a Broker that owns the client and waits for its pub/sub connection.
// Commands are not retried unless the URL sets max_retries.
func Open(ctx context.Context, url string, opts Options) (*Broker, error) {
	copts, err := goredis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis broker: parsing URL: %w", err)
	}
	if copts.MaxRetries == 0 {
		// A retried PUBLISH whose first attempt reached Redis before the connection broke
		// would be delivered twice; the contract promises no duplicates. The pool already
		// discards connections the server closed before using them.
		copts.MaxRetries = -1
	}
	client := goredis.NewClient(copts)
	if err := client.Ping(ctx).Err(); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("redis broker: ping %s: %w", copts.Addr, err)
	}
	b := New(client, opts)
	b.ownsClient = true
	select {
	case <-b.connected:
		return b, nil
	case <-ctx.Done():
		_ = b.Close()
		return nil, fmt.Errorf("redis broker: opening pub/sub connection to %s: %w", copts.Addr, ctx.Err())
	}
}

// New returns a Broker on client. The caller keeps ownership of client and closes it after
// the Broker. The pub/sub connection is made in the background; until it is up, subscribers
// are registered at once and receive a Gap when it is.
func New(client goredis.UniversalClient, opts Options) *Broker {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.HealthInterval <= 0 {
		opts.HealthInterval = DefaultHealthInterval
	}
	ctx, stop := context.WithCancel(context.Background())
	b := &Broker{
		client:    client,
		log:       opts.Logger,
		size:      opts.BufferSize,
		health:    opts.HealthInterval,
		metrics:   fanout.NewMetrics(opts.Registerer, "redis"),
		chans:     map[string]*channelState{},
		inflight:  map[string]int{},
		connected: make(chan struct{}),
		stop:      stop,
		done:      make(chan struct{}),
	}
	go b.loop(ctx)
	return b
}

// Publish sends PUBLISH. An error means Redis did not confirm it: certainly not delivered
// when the server is unreachable, possibly delivered when the reply timed out.
func (b *Broker) Publish(ctx context.Context, channel string, payload []byte) error {
	if b.closed.Load() {
		return broker.ErrClosed
	}
	if err := b.client.Publish(ctx, channel, payload).Err(); err != nil {
		return fmt.Errorf("redis broker: publish: %w", err)
	}
	return nil
}

// PublishBatch sends every PUBLISH in one pipeline: one round trip for the lot, in order.
func (b *Broker) PublishBatch(ctx context.Context, msgs []broker.Outgoing) []error {
	errs := make([]error, len(msgs))
	if b.closed.Load() {
		for i := range errs {
			errs[i] = broker.ErrClosed
		}
		return errs
	}
	cmds, err := b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, m := range msgs {
			p.Publish(ctx, m.Channel, m.Payload)
		}
		return nil
	})
	for i := range errs {
		e := err
		if i < len(cmds) {
			e = cmds[i].Err()
		}
		if e != nil {
			errs[i] = fmt.Errorf("redis broker: publish: %w", e)
		}
	}
	return errs
}

// Subscribe returns once Redis has confirmed the subscription, or at once while the
// connection is down (the subscriber then gets a Gap when it is back).
func (b *Broker) Subscribe(ctx context.Context, channel string) (broker.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.mu.Lock()
	if b.closed.Load() {
		b.mu.Unlock()
		return nil, broker.ErrClosed
	}
	cs := b.chans[channel]
	if cs == nil {
		cs = &channelState{subs: map[*fanout.Sub]struct{}{}, ready: make(chan struct{})}
		b.chans[channel] = cs
		b.sendLocked("subscribe", channel, cs)
	}
	sub := fanout.New(channel, b.size, b.metrics, b.unsubscribe)
	cs.subs[sub] = struct{}{}
	// Wait only for a confirmation that will come; otherwise a Gap is already owed.
	ready, wait := cs.ready, !cs.isReady && b.inflight[channel] > 0
	b.mu.Unlock()

	if wait {
		select {
		case <-ready:
		case <-ctx.Done():
			_ = sub.Close()
			return nil, ctx.Err()
		}
	}
	if b.closed.Load() {
		_ = sub.Close()
		return nil, broker.ErrClosed
	}
	return sub, nil
}

// sendLocked sends SUBSCRIBE or UNSUBSCRIBE for channel on the current connection, if any.
// When it cannot, the channel owes its subscribers a Gap, and the dispatcher will (re)connect
// and subscribe again.
func (b *Broker) sendLocked(kind, channel string, cs *channelState) {
	if b.ps == nil {
		if cs != nil {
			cs.needGap = true
		}
		return
	}
	// Not the caller's context: a cancelled write would tear down the shared connection.
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	var err error
	if kind == "subscribe" {
		err = b.ps.Subscribe(ctx, channel)
	} else {
		err = b.ps.Unsubscribe(ctx, channel)
	}
	if err != nil {
		// The connection is unusable or out of step with our bookkeeping: drop it. The
		// dispatcher's read fails, and it reconnects, resubscribes and signals Gaps.
		b.log.Warn("redis broker: "+kind+" failed, reconnecting", "channel", channel, "error", err)
		_ = b.ps.Close()
		if cs != nil {
			cs.needGap = true
		}
		return
	}
	b.inflight[channel]++
}

// unsubscribe runs when a subscription closes.
func (b *Broker) unsubscribe(sub *fanout.Sub) {
	b.mu.Lock()
	defer b.mu.Unlock()
	cs := b.chans[sub.Channel()]
	if cs == nil {
		return
	}
	delete(cs.subs, sub)
	if len(cs.subs) > 0 {
		return
	}
	delete(b.chans, sub.Channel())
	if !cs.isReady {
		close(cs.ready)
		cs.isReady = true
	}
	if !b.closed.Load() {
		b.sendLocked("unsubscribe", sub.Channel(), nil)
	}
}

// Ping checks that Redis answers and that the pub/sub connection is up.
func (b *Broker) Ping(ctx context.Context) error {
	if b.closed.Load() {
		return broker.ErrClosed
	}
	if err := b.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis broker: ping: %w", err)
	}
	b.mu.Lock()
	up := b.ps != nil
	b.mu.Unlock()
	if !up {
		return errors.New("redis broker: pub/sub connection is down")
	}
	return nil
}

// Close closes every subscription, the pub/sub connection and, if the Broker opened it, the
// client. It waits for the dispatcher to exit.
func (b *Broker) Close() error {
	b.mu.Lock()
	if b.closed.Swap(true) {
		b.mu.Unlock()
		return nil
	}
	ps := b.ps
	b.ps = nil
	var subs []*fanout.Sub
	for _, cs := range b.chans {
		for s := range cs.subs {
			subs = append(subs, s)
		}
		if !cs.isReady {
			close(cs.ready)
			cs.isReady = true
		}
	}
	b.chans = map[string]*channelState{}
	b.mu.Unlock()

	b.stop()
	if ps != nil {
		_ = ps.Close()
	}
	<-b.done
	for _, s := range subs {
		_ = s.Close()
	}
	if b.ownsClient {
		return b.client.Close()
	}
	return nil
}

// isTimeout reports a read deadline passing (the health-check tick), as opposed to a failure.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
