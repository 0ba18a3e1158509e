package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// errClosing: the gateway no longer takes events.
var errClosing = errors.New("gateway is shutting down")

// job is one validated, sanitized event waiting to be stored.
type job struct {
	c        *conn
	slot     *slotState
	row      store.NewVibeEvent
	received time.Time
	sentID   json.RawMessage // the eventId as sent, when that is not row.EventID (a number, say)
}

type result struct {
	job *job
	ins store.InsertedVibeEvent
	err error
}

// batchWriter is the gateway's store writer: it collects events from every connection and
// stores them in batches, one transaction per batch, so throughput does not hinge on one
// commit per event. With Writers > 1, slots are spread over that many independent writers
// (each slot always on the same one), whose commits may overlap. After a batch commits, each
// event goes to the publish worker of its slot; a worker publishes its share of the batch to
// the broker in one round trip and then queues the acks, so acks of one connection (one slot)
// leave in the order the events arrived, and an ack always follows its commit.
//
// If a batch fails, its events are retried one by one, so one bad event does not sink the
// others; if the store is down altogether (it does not answer a ping), the rest of the batch
// fails at once. A failed event is answered with an error, never an ack.
type batchWriter struct {
	st  store.Store
	br  broker.Broker
	log *slog.Logger
	met *metrics
	cfg Config
	now func() time.Time

	ins     []chan *job  // one queue per store writer; a slot always uses the same one
	mu      sync.RWMutex // guards closed against sends on a closed in
	closed  bool
	done    chan struct{}
	started atomic.Bool

	brokerDownUntil atomic.Int64 // unix nanoseconds; see publish

	workers   []chan []result
	workersWG sync.WaitGroup
	logLimit  logLimiter
}

func newBatchWriter(st store.Store, br broker.Broker, log *slog.Logger, met *metrics, cfg Config, now func() time.Time) *batchWriter {
	w := &batchWriter{
		st: st, br: br, log: log, met: met, cfg: cfg, now: now,
		done: make(chan struct{}),
	}
	for range cfg.Writers {
		w.ins = append(w.ins, make(chan *job, 4*cfg.BatchMaxEvents))
	}
	for range cfg.PublishWorkers {
		w.workers = append(w.workers, make(chan []result, 64))
	}
	return w
}

// submit queues a job, blocking while the queue is full (which slows the connection's
// reader: backpressure, not loss).
func (w *batchWriter) submit(ctx context.Context, j *job) error {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return errClosing
	}
	select {
	case w.ins[j.slot.id%int64(len(w.ins))] <- j:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-w.done:
		return errClosing
	}
}

// run stores batches until stop is called and the queues are drained, then waits for the
// publish workers to answer every stored event.
func (w *batchWriter) run() {
	w.started.Store(true)
	defer close(w.done)
	for _, ch := range w.workers {
		w.workersWG.Go(func() { w.publishLoop(ch) })
	}
	var writers sync.WaitGroup
	for _, in := range w.ins {
		writers.Go(func() { w.writeLoop(in) })
	}
	writers.Wait()
	for _, ch := range w.workers {
		close(ch)
	}
	w.workersWG.Wait()
}

// writeLoop is one store writer: it commits whatever its queue holds, batch after batch.
func (w *batchWriter) writeLoop(in <-chan *job) {
	batch := make([]*job, 0, w.cfg.BatchMaxEvents)
	for {
		j, ok := <-in
		if !ok {
			return
		}
		batch = append(batch[:0], j)
		batch, ok = w.fill(in, batch)
		w.commit(batch)
		if !ok {
			return
		}
	}
}

// fill adds whatever is queued, up to BatchMaxEvents, waiting at most BatchMaxDelay for more.
// It reports false once the queue is closed.
func (w *batchWriter) fill(in <-chan *job, batch []*job) ([]*job, bool) {
	var linger <-chan time.Time
	if w.cfg.BatchMaxDelay > 0 {
		t := time.NewTimer(w.cfg.BatchMaxDelay)
		defer t.Stop()
		linger = t.C
	}
	for len(batch) < w.cfg.BatchMaxEvents {
		select {
		case j, ok := <-in:
			if !ok {
				return batch, false
			}
			batch = append(batch, j)
			continue
		default:
		}
		if linger == nil {
			return batch, true
		}
		select {
		case j, ok := <-in:
			if !ok {
				return batch, false
			}
			batch = append(batch, j)
		case <-linger:
			return batch, true
		}
	}
	return batch, true
}

// stop closes the queue and waits until every queued event is stored (or failed) and
// answered, or ctx ends.
func (w *batchWriter) stop(ctx context.Context) error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		for _, in := range w.ins {
			close(in)
		}
	}
	w.mu.Unlock()
	if !w.started.Load() {
		return nil
	}
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("flushing queued events: %w", ctx.Err())
	}
}

func (w *batchWriter) commit(batch []*job) {
	start := time.Now()
	rows := make([]store.NewVibeEvent, len(batch))
	for i, j := range batch {
		rows[i] = j.row
	}
	ins, err := w.insert(rows)
	if err == nil && len(ins) != len(rows) {
		err = fmt.Errorf("store returned %d results for %d events", len(ins), len(rows))
	}
	results := make([]result, len(batch))
	for i, j := range batch {
		results[i].job = j
	}
	if err == nil {
		for i := range results {
			results[i].ins = ins[i]
		}
	} else {
		w.met.batchFailures.Inc()
		if w.logLimit.allow() {
			w.log.Error("storing event batch failed", "events", len(batch), "error", err)
		}
		if len(batch) == 1 {
			results[0].err = err
		} else {
			w.retrySingly(results)
		}
	}
	w.met.batchSize.Observe(float64(len(batch)))
	w.met.batchSeconds.Observe(time.Since(start).Seconds())
	w.dispatch(results)
}

// retrySingly stores each event of a failed batch in its own transaction. Once the store
// stops answering pings, the remaining events fail without more attempts.
func (w *batchWriter) retrySingly(results []result) {
	var outage error
	for i := range results {
		if outage != nil {
			results[i].err = outage
			continue
		}
		ins, err := w.insert([]store.NewVibeEvent{results[i].job.row})
		if err == nil && len(ins) != 1 {
			err = fmt.Errorf("store returned %d results for 1 event", len(ins))
		}
		if err == nil {
			results[i].ins = ins[0]
			continue
		}
		results[i].err = err
		ctx, cancel := context.WithTimeout(context.Background(), w.cfg.StoreTimeout)
		perr := w.st.Ping(ctx)
		cancel()
		if perr != nil {
			outage = fmt.Errorf("store unavailable: %w", perr)
		} else if w.logLimit.allow() {
			w.log.Warn("event rejected by the store", "managed_stream_id", results[i].job.row.ManagedStreamID,
				"event_id", results[i].job.row.EventID, "error", err)
		}
	}
}

// insert runs one store transaction; a panic in the store is an error like any other.
func (w *batchWriter) insert(rows []store.NewVibeEvent) (ins []store.InsertedVibeEvent, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("store panicked: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.StoreTimeout)
	defer cancel()
	return w.st.InsertVibeEvents(ctx, rows)
}

// dispatch hands results to the publish workers, each slot always to the same worker.
func (w *batchWriter) dispatch(results []result) {
	n := int64(len(w.workers))
	groups := make([][]result, n)
	for _, r := range results {
		i := r.job.slot.id % n
		groups[i] = append(groups[i], r)
	}
	for i, g := range groups {
		if len(g) > 0 {
			w.workers[i] <- g
		}
	}
}

func (w *batchWriter) publishLoop(ch <-chan []result) {
	for rs := range ch {
		published := w.publish(rs)
		for i, r := range rs {
			w.finish(r, published[i])
		}
	}
}

// finish answers the publisher of a stored (or failed) event.
func (w *batchWriter) finish(r result, published bool) {
	j := r.job
	if r.err != nil {
		w.met.eventsRejected.WithLabelValues(reasonStoreError).Inc()
		j.c.deliver(errorMessage(TextEventStore, j.row.EventID))
		return
	}
	ev := r.ins.Event
	now := w.now()
	// Viewers see it now or once its delay has passed, under the settings as the gateway
	// knows them, and the broker took it (or took its first copy).
	delivered := published && vibe.WhyHidden(ev.Viewing(), j.slot.current().settings, now).Coming()
	ack := vibe.Ack{
		Type:         vibe.MsgAck,
		EventID:      ev.EventID,
		LiveStreamID: ev.LiveStreamID,
		Delivered:    delivered,
		Duplicate:    r.ins.Duplicate,
		Sequence:     ev.Seq,
		Timestamp:    timestamp(now),
	}
	if j.sentID != nil {
		j.c.deliver(encode(sentIDAck{Ack: ack, EventID: j.sentID}))
	} else {
		j.c.deliver(encode(ack))
	}
	res := "stored"
	if r.ins.Duplicate {
		res = "duplicate"
	}
	w.met.eventsAccepted.WithLabelValues(res, fmt.Sprint(delivered)).Inc()
	w.met.ackLatency.Observe(time.Since(j.received).Seconds())
}

// sentIDAck is an ack naming the event by the id as the publisher sent it: a number stays a
// number, as the original platform echoed it.
type sentIDAck struct {
	vibe.Ack
	EventID json.RawMessage `json:"event_id"`
}

// brokerRetryAfter is how long publishing is skipped after a failure. While the broker is
// down, events are acked at once with delivered:false instead of each waiting out a publish
// timeout; viewers recover them from the store once the broker is back.
const brokerRetryAfter = time.Second

// publish sends the newly stored events among rs to the broker, in order and in one round
// trip, and reports for each result whether it counts as published. A duplicate is not
// published again: its first publish stands. A failed event is not published at all.
func (w *batchWriter) publish(rs []result) []bool {
	published := make([]bool, len(rs))
	var msgs []slotbus.Message
	var index []int
	for i, r := range rs {
		switch {
		case r.err != nil:
		case r.ins.Duplicate:
			published[i] = true
		default:
			ev := r.ins.Event
			msgs = append(msgs, slotbus.Message{Kind: slotbus.KindEvent, SlotID: ev.ManagedStreamID, Event: slotbus.FromStoreEvent(ev)})
			index = append(index, i)
		}
	}
	if len(msgs) == 0 {
		return published
	}
	if time.Now().UnixNano() < w.brokerDownUntil.Load() {
		w.met.brokerFailures.Add(float64(len(msgs)))
		return published
	}
	var failed int
	var firstErr error
	for k, err := range w.send(msgs) {
		if err == nil {
			published[index[k]] = true
			continue
		}
		failed++
		if firstErr == nil {
			firstErr = err
		}
	}
	if failed > 0 {
		w.brokerDownUntil.Store(time.Now().Add(brokerRetryAfter).UnixNano())
		w.met.brokerFailures.Add(float64(failed))
		if w.logLimit.allow() {
			w.log.Warn("publishing stored events failed; viewers recover them from the store",
				"events", failed, "error", firstErr)
		}
	}
	return published
}

// send publishes stored events in one round trip; a panic in the broker fails them all.
func (w *batchWriter) send(msgs []slotbus.Message) (errs []error) {
	defer func() {
		if r := recover(); r != nil {
			err := fmt.Errorf("broker panicked: %v", r)
			errs = make([]error, len(msgs))
			for i := range errs {
				errs[i] = err
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.PublishTimeout)
	defer cancel()
	return slotbus.PublishAll(ctx, w.br, msgs)
}

// logLimiter lets one log line through per second, so an outage does not flood the log.
type logLimiter struct{ last atomic.Int64 }

func (l *logLimiter) allow() bool {
	now := time.Now().UnixNano()
	last := l.last.Load()
	return now-last >= int64(time.Second) && l.last.CompareAndSwap(last, now)
}
