package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	dto "github.com/prometheus/client_model/go"
	"golang.org/x/sync/errgroup"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/vibe"
)

type results struct {
	acked     int64
	errors    int64
	delivered int64
	elapsed   time.Duration
	latencies []time.Duration
	firstErr  string
}

// window marks the measured interval: acks read inside it count, the rest are warm-up and
// cool-down.
type window struct{ start, end time.Time }

func (w window) contains(t time.Time) bool { return !t.Before(w.start) && t.Before(w.end) }

// drive connects every publisher, then sends until the measured window ends.
func drive(ctx context.Context, o options, env *benchEnv) (*results, error) {
	pubs := make([]*publisher, len(env.slots))
	for i, ms := range env.slots {
		c, err := pubclient.Dial(ctx, pubclient.URL(env.url, env.token, ms.ID, ms.Slug), nil)
		if err != nil {
			return nil, err
		}
		defer c.CloseNow()
		if _, err := c.Ready(ctx); err != nil {
			return nil, fmt.Errorf("publisher %d: %w", i, err)
		}
		key := "bench-" + strconv.Itoa(i)
		if _, err := c.Hello(ctx, vibe.Hello{Type: vibe.MsgHello, ProtocolVersion: 1, SessionKey: key}); err != nil {
			return nil, fmt.Errorf("publisher %d: %w", i, err)
		}
		tmpl := eventTemplate(key)
		if o.original {
			tmpl = originalTemplate(key)
		}
		pubs[i] = &publisher{id: i, c: c, key: key, tmpl: tmpl}
	}
	start := time.Now().Add(o.warmup)
	w := window{start: start, end: start.Add(o.duration)}
	runCtx, cancel := context.WithDeadline(ctx, w.end.Add(2*time.Second))
	defer cancel()
	g, gctx := errgroup.WithContext(runCtx)
	for _, p := range pubs {
		g.Go(func() error { return p.run(gctx, o, w) })
	}
	if err := g.Wait(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	res := &results{elapsed: o.duration}
	for _, p := range pubs {
		res.acked += p.acked
		res.errors += p.errs
		res.delivered += p.delivered
		res.latencies = append(res.latencies, p.lat...)
		if res.firstErr == "" {
			res.firstErr = p.firstErr
		}
	}
	return res, nil
}

type publisher struct {
	id   int
	c    *pubclient.Client
	key  string
	tmpl []byte

	mu    sync.Mutex
	sent  []time.Time // send times of unanswered events, oldest first (acks come in order)
	inFly atomic.Int64

	acked, errs, delivered int64
	lat                    []time.Duration
	firstErr               string
}

// eventTemplate is a response event with a %d-free placeholder for the event id.
func eventTemplate(key string) []byte {
	m := map[string]any{
		"type": vibe.MsgEvent, "protocolVersion": 1, "sessionKey": key,
		"event": map[string]any{
			"version": 1, "eventId": "@ID@", "sessionKey": key, "eventType": "response", "visibility": "public",
			"depth": "standard", "occurredAt": "2026-04-21T23:10:01.099Z",
			"summary":  "Refactored the publish server to sanitize Copilot events before viewer fanout.",
			"source":   map[string]any{"channel": "chat-session", "rawType": "request.response"},
			"response": map[string]any{"text": "Refactored the publish server to sanitize Copilot events before viewer fanout.", "truncated": false},
			"metadata": map[string]any{"requestId": "req-123", "responseId": "resp-456", "model": "gpt-5.4"},
		},
	}
	b, _ := json.Marshal(m)
	return b
}

// originalTemplate is a tool call the way the original platform's publishers send one: a
// phase of "completed", the sequence as a string, the time in epoch milliseconds and the
// arguments as an object, four normalisations per event.
func originalTemplate(key string) []byte {
	m := map[string]any{
		"type": vibe.MsgEvent, "protocolVersion": 1, "sessionKey": key,
		"event": map[string]any{
			"version": 1, "eventId": "@ID@", "sessionKey": key, "eventType": "tool.call", "visibility": "public",
			"sequence": "17", "occurredAt": 1776813001099,
			"summary": "Ran the publish server's tests before the viewer fanout refactor.",
			"source":  map[string]any{"channel": "chat-session", "rawType": "toolInvocation"},
			"tool": map[string]any{"name": "run_in_terminal", "phase": "completed",
				"argumentsPreview": map[string]any{"command": "npm test -- publish-server"}, "resultPreview": "42 passing"},
			"metadata": map[string]any{"requestId": "req-123", "model": "gpt-5.4"},
		},
	}
	b, _ := json.Marshal(m)
	return b
}

func (p *publisher) message(seq int) []byte {
	id := "p" + strconv.Itoa(p.id) + "-" + strconv.Itoa(seq)
	i := bytes.Index(p.tmpl, []byte("@ID@"))
	out := make([]byte, 0, len(p.tmpl)+len(id))
	out = append(out, p.tmpl[:i]...)
	out = append(out, id...)
	return append(out, p.tmpl[i+4:]...)
}

func (p *publisher) run(ctx context.Context, o options, w window) error {
	readDone := make(chan error, 1)
	go func() { readDone <- p.readAcks(ctx, w) }()
	err := p.send(ctx, o, w)
	if err == nil {
		// Wait for the answers still in flight (the context's deadline bounds it).
		for p.inFly.Load() > 0 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		_ = p.c.CloseNow()
	}
	rerr := <-readDone
	if err == nil && time.Now().Before(w.end) {
		err = rerr
	}
	if ctx.Err() != nil || !time.Now().Before(w.end) {
		return nil // reads end with an error once the run is over
	}
	return err
}

// send writes events until the window ends: paced at rate/publishers per second, or as fast
// as the in-flight window allows.
func (p *publisher) send(ctx context.Context, o options, w window) error {
	var tick *time.Ticker
	if o.rate > 0 {
		interval := time.Duration(float64(time.Second) * float64(o.publishers) / o.rate)
		time.Sleep(time.Duration(p.id) * interval / time.Duration(o.publishers)) // spread the publishers
		tick = time.NewTicker(interval)
		defer tick.Stop()
	}
	for seq := 0; time.Now().Before(w.end); seq++ {
		if tick != nil {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		} else {
			for p.inFly.Load() >= int64(o.window) {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				runtime.Gosched()
				time.Sleep(50 * time.Microsecond)
			}
		}
		msg := p.message(seq)
		p.mu.Lock()
		p.sent = append(p.sent, time.Now())
		p.mu.Unlock()
		p.inFly.Add(1)
		if err := p.c.SendRaw(ctx, msg); err != nil {
			return err
		}
	}
	return nil
}

func (p *publisher) readAcks(ctx context.Context, w window) error {
	for {
		m, err := p.c.Next(ctx)
		if err != nil {
			return err
		}
		now := time.Now()
		p.mu.Lock()
		if len(p.sent) == 0 {
			p.mu.Unlock()
			continue // a reply to something else
		}
		sentAt := p.sent[0]
		p.sent = p.sent[1:]
		p.mu.Unlock()
		p.inFly.Add(-1)
		if !w.contains(now) {
			continue
		}
		switch m.Type {
		case vibe.MsgAck:
			var a vibe.Ack
			if err := m.Decode(&a); err != nil {
				return err
			}
			p.acked++
			if a.Delivered {
				p.delivered++
			}
			p.lat = append(p.lat, now.Sub(sentAt))
		default:
			p.errs++
			if p.firstErr == "" {
				p.firstErr = string(m.Raw)
			}
		}
	}
}

func (r *results) print(w io.Writer, o options) {
	slices.Sort(r.latencies)
	pct := func(q float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(q*float64(len(r.latencies))))]
	}
	mode := "max"
	if o.rate > 0 {
		mode = strconv.FormatFloat(o.rate, 'f', 0, 64) + "/s"
	}
	fmt.Fprintf(w, "publishers=%d mode=%s duration=%s gomaxprocs=%d\n", o.publishers, mode, o.duration, runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "acked=%d errors=%d delivered=%d\n", r.acked, r.errors, r.delivered)
	fmt.Fprintf(w, "durable_events_per_sec=%.0f\n", float64(r.acked)/r.elapsed.Seconds())
	fmt.Fprintf(w, "ack_latency p50=%s p90=%s p99=%s max=%s\n",
		pct(0.50).Round(10*time.Microsecond), pct(0.90).Round(10*time.Microsecond),
		pct(0.99).Round(10*time.Microsecond), pct(1).Round(10*time.Microsecond))
	if r.firstErr != "" {
		fmt.Fprintf(w, "first_error=%s\n", r.firstErr)
	}
}

// printServerStats summarizes the in-process gateway's batch histograms.
func printServerStats(w io.Writer, env *benchEnv) {
	if env.reg == nil {
		return
	}
	mfs, err := env.reg.Gather()
	if err != nil {
		return
	}
	for _, mf := range mfs {
		switch mf.GetName() {
		case "openvibe_gateway_batch_events", "openvibe_gateway_batch_commit_seconds", "openvibe_gateway_ack_latency_seconds":
			h := mf.GetMetric()[0].GetHistogram()
			if h.GetSampleCount() == 0 {
				continue
			}
			fmt.Fprintf(w, "server %s: count=%d mean=%.4g p50<=%s p99<=%s\n", mf.GetName(), h.GetSampleCount(),
				h.GetSampleSum()/float64(h.GetSampleCount()), bucketBound(h, 0.50), bucketBound(h, 0.99))
		}
	}
}

// bucketBound returns the upper bound of the histogram bucket holding quantile q ("+Inf" past
// the last bucket).
func bucketBound(h *dto.Histogram, q float64) string {
	want := uint64(math.Ceil(q * float64(h.GetSampleCount())))
	for _, b := range h.GetBucket() {
		if b.GetCumulativeCount() >= want {
			return strconv.FormatFloat(b.GetUpperBound(), 'g', 4, 64)
		}
	}
	return "+Inf"
}
