package redis

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

var errHealthCheck = errors.New("no reply to health-check PING")

// loop owns the pub/sub connection: connect, read until it fails, drop it, repeat.
func (b *Broker) loop(ctx context.Context) {
	defer close(b.done)
	backoff := minBackoff
	down := false  // an outage is being reported
	wasUp := false // a connection was up before
	for ctx.Err() == nil {
		ps, err := b.connect(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !down {
				b.log.Warn("redis broker: cannot connect pub/sub, retrying", "error", err)
				down = true
			}
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				return
			}
			backoff = min(2*backoff, maxBackoff)
			continue
		}
		if down {
			b.log.Info("redis broker: pub/sub reconnected")
			down = false
		}
		if wasUp {
			b.metrics.Reconnected()
		}
		wasUp = true // from now on, a new connection replaces a lost one
		b.metrics.SetConnected(true)
		backoff = minBackoff
		b.connOnce.Do(func() { close(b.connected) })
		err = b.receive(ctx, ps)
		b.disconnect(ps)
		b.metrics.SetConnected(false)
		if ctx.Err() != nil {
			return
		}
		b.log.Warn("redis broker: pub/sub connection lost, reconnecting", "error", err)
		down = true
	}
}

// connect opens a pub/sub connection and subscribes to every channel in use.
func (b *Broker) connect(ctx context.Context) (*goredis.PubSub, error) {
	ps := b.client.Subscribe(ctx)
	cctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	if err := ps.Ping(cctx); err != nil { // dials; the reply arrives through receive
		_ = ps.Close()
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		_ = ps.Close()
		return nil, context.Canceled
	}
	if names := slices.Collect(maps.Keys(b.chans)); len(names) > 0 {
		if err := ps.Subscribe(cctx, names...); err != nil {
			_ = ps.Close()
			return nil, err
		}
		for _, n := range names {
			b.inflight[n]++
		}
	}
	b.ps = ps
	return ps, nil
}

// disconnect forgets ps: every channel owes its subscribers a Gap and is unconfirmed until
// the next connection confirms it; anyone waiting for a confirmation is released.
func (b *Broker) disconnect(ps *goredis.PubSub) {
	b.mu.Lock()
	if b.ps == ps {
		b.ps = nil
	}
	for _, cs := range b.chans {
		cs.needGap = true
		if !cs.isReady {
			close(cs.ready)
		}
		cs.ready, cs.isReady = make(chan struct{}), false
	}
	clear(b.inflight)
	b.mu.Unlock()
	_ = ps.Close()
}

// receive reads ps until it fails. A silent connection gets a PING after HealthInterval and
// is declared dead if another interval passes without any reply.
func (b *Broker) receive(ctx context.Context, ps *goredis.PubSub) error {
	pinged := false
	for {
		msg, err := ps.ReceiveTimeout(ctx, b.health)
		if err != nil {
			if !isTimeout(err) {
				return err
			}
			if pinged {
				return errHealthCheck
			}
			if err := b.ping(ctx, ps); err != nil {
				return err
			}
			pinged = true
			continue
		}
		pinged = false
		switch m := msg.(type) {
		case *goredis.Message:
			b.dispatch(m)
		case *goredis.Subscription:
			b.confirm(m)
		}
	}
}

func (b *Broker) ping(ctx context.Context, ps *goredis.PubSub) error {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	return ps.Ping(ctx)
}

// dispatch hands a message to the channel's local subscribers; it never blocks on them.
func (b *Broker) dispatch(m *goredis.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	cs := b.chans[m.Channel]
	if cs == nil {
		return // unsubscribed meanwhile
	}
	payload := []byte(m.Payload)
	for s := range cs.subs {
		s.Push(payload)
	}
}

// confirm accounts for a SUBSCRIBE/UNSUBSCRIBE confirmation. Once the last command sent for a
// channel is confirmed as a subscription, the channel is ready: owed Gaps go out, and
// Subscribe calls waiting for it return.
func (b *Broker) confirm(m *goredis.Subscription) {
	if m.Kind != "subscribe" && m.Kind != "unsubscribe" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := b.inflight[m.Channel]; n > 1 {
		b.inflight[m.Channel] = n - 1
		return
	}
	delete(b.inflight, m.Channel)
	cs := b.chans[m.Channel]
	if m.Kind != "subscribe" || cs == nil || cs.isReady {
		return
	}
	if cs.needGap {
		for s := range cs.subs {
			s.Gap()
		}
		cs.needGap = false
	}
	close(cs.ready)
	cs.isReady = true
}
