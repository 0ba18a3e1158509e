package main

import (
	"context"

	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"openvibe.live/backend/services/chat-socket/internal/rlimit"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/viewerclient"
)

type load struct {
	o      options
	log    *slog.Logger
	vstats viewerStats
	pstats publishStats
}

func newLoad(o options, log *slog.Logger) *load { return &load{o: o, log: log} }

// report is what a run measured.
type report struct {
	Mode               string  `json:"mode"`
	Coalesced          bool    `json:"coalesced"`
	Viewers            int64   `json:"viewers_connected"`
	DialErrors         uint64  `json:"dial_errors"`
	Slots              int     `json:"slots"`
	RatePerSlot        float64 `json:"events_per_second_per_slot"`
	Seconds            float64 `json:"measured_seconds"`
	Published          uint64  `json:"events_published"`
	PublishErrors      uint64  `json:"publish_errors"`
	FirstError         string  `json:"first_publish_error,omitempty"`
	Delivered          uint64  `json:"messages_delivered"`
	DeliveredPerSecond float64 `json:"messages_delivered_per_second"`
	WSMessages         uint64  `json:"websocket_messages"`
	P50Ms              float64 `json:"latency_p50_ms"`
	P99Ms              float64 `json:"latency_p99_ms"`
	MaxMs              float64 `json:"latency_max_ms"`
	StoredP50Ms        float64 `json:"stored_to_viewer_p50_ms,omitempty"`
	StoredP99Ms        float64 `json:"stored_to_viewer_p99_ms,omitempty"`
	StoreP50Ms         float64 `json:"store_p50_ms,omitempty"`
	StoreP99Ms         float64 `json:"store_p99_ms,omitempty"`
	Missing            uint64  `json:"missing_events"`
	OutOfOrder         uint64  `json:"out_of_order_events"`
	Dropped            uint64  `json:"connections_dropped"`
	Slow               uint64  `json:"slow_disconnects"`
	ServerCPUCores     float64 `json:"server_cpu_cores"`
	ServerRSSMiB       float64 `json:"server_rss_mib"`
	ServerRSSPerConnKB float64 `json:"server_rss_per_connection_kib"`
	ServerCPUPerConnUs float64 `json:"server_cpu_per_connection_us_per_s"`
	ServerGoroutines   float64 `json:"server_goroutines"`
	ToolCPUCores       float64 `json:"load_tool_cpu_cores"`
	CPUs               int     `json:"cpus"`
}

func (l *load) run(ctx context.Context, progress io.Writer) (*report, error) {
	if n, err := rlimit.RaiseFiles(); err != nil || n < uint64(l.o.viewers)+256 {
		return nil, fmt.Errorf("open-file limit %d is too low for %d viewers (%v)", n, l.o.viewers, err)
	}
	st, err := stores.Open(ctx, l.o.databaseURL, stores.Options{Logger: l.log})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	u, slots, err := setup(ctx, st, l.o.username, l.o.slots)
	if err != nil {
		return nil, err
	}
	l.pstats.stored = map[int64]*storedRing{}
	if l.o.mode == "store" {
		for _, s := range slots {
			l.pstats.stored[s.ID] = &storedRing{}
		}
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	fmt.Fprintf(progress, "connecting %d viewers to %d slot(s)…\n", l.o.viewers, len(slots))
	if err := l.connect(runCtx, &wg, u, slots); err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "%d viewers connected; publishing %.0f events/s to each slot (%s mode)\n",
		l.vstats.connected.Load(), l.o.rate, l.o.mode)
	pubCtx, stopPub := context.WithCancel(runCtx)
	defer stopPub()
	var pubs sync.WaitGroup
	if err := l.startPublishers(pubCtx, &pubs, st, u, slots); err != nil {
		return nil, err
	}
	if !sleep(ctx, l.o.warmup) {
		return nil, ctx.Err()
	}
	start := l.sample(ctx)
	if !sleep(ctx, l.o.duration) {
		return nil, ctx.Err()
	}
	end := l.sample(ctx)
	stopPub()
	pubs.Wait()
	return l.report(start, end), nil
}

// connect opens the viewers with bounded concurrency and waits for every welcome frame.
func (l *load) connect(ctx context.Context, wg *sync.WaitGroup, u store.User, slots []store.ManagedStream) error {
	sem := make(chan struct{}, l.o.dialers)
	errs := make(chan error, l.o.viewers)
	for i := range l.o.viewers {
		base := l.o.chatURLs[i%len(l.o.chatURLs)]
		slot := slots[i%len(slots)]
		join := viewerclient.Options{Username: u.Username, Slot: slot.Slug, Batch: l.o.coalesce}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		var once sync.Once
		wg.Go(func() {
			runViewer(ctx, base, join, l.pstats.stored[slot.ID], &l.vstats, func(err error) {
				once.Do(func() {
					<-sem
					errs <- err
				})
			})
		})
	}
	failed := 0
	for range l.o.viewers {
		if err := <-errs; err != nil {
			failed++
			if failed == 1 {
				l.log.Warn("viewer failed to join", "error", err)
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d viewers failed to join", failed, l.o.viewers)
	}
	return nil
}

func (l *load) startPublishers(ctx context.Context, wg *sync.WaitGroup, st store.Store, u store.User, slots []store.ManagedStream) error {
	if l.o.rate == 0 {
		return nil
	}
	switch l.o.mode {
	case "store":
		br, err := brokers.Open(context.WithoutCancel(ctx), l.o.redisURL, l.log)
		if err != nil {
			return fmt.Errorf("open broker: %w", err)
		}
		var pubs sync.WaitGroup
		if err := l.startStorePublishers(ctx, &pubs, st, br, slots); err != nil {
			pubs.Wait()
			_ = br.Close()
			return err
		}
		wg.Go(func() {
			pubs.Wait() // close the broker only once no publish is in flight
			_ = br.Close()
		})
		return nil
	default:
		token, err := publishToken(ctx, st, u)
		if err != nil {
			return err
		}
		for _, slot := range slots {
			wg.Go(func() {
				if err := runGatewayPublisher(ctx, l.o.gatewayURL, token, slot, l.o.rate, &l.pstats); err != nil && ctx.Err() == nil {
					l.log.Error("gateway publisher stopped", "slot", slot.Slug, "error", err)
				}
			})
		}
		return nil
	}
}

func (l *load) startStorePublishers(ctx context.Context, wg *sync.WaitGroup, st store.Store, br broker.Broker, slots []store.ManagedStream) error {
	for _, slot := range slots {
		p, err := newStorePublisher(ctx, st, br, slot, &l.pstats)
		if err != nil {
			return err
		}
		wg.Go(func() { tick(ctx, l.o.rate/float64(l.o.batch), func(now time.Time) { p.publish(ctx, now, l.o.batch) }) })
	}
	return nil
}

type sample struct {
	at        time.Time
	latency   []uint64
	fromStore []uint64
	store     []uint64
	delivered uint64
	messages  uint64
	published uint64
	server    []processSample
	toolCPU   time.Duration
}

func (l *load) sample(ctx context.Context) sample {
	s := sample{
		at:        time.Now(),
		latency:   l.vstats.latency.snapshot(),
		fromStore: l.vstats.fromStore.snapshot(),
		store:     l.pstats.store.snapshot(),
		delivered: l.vstats.delivered.Load(),
		messages:  l.vstats.messages.Load(),
		published: l.pstats.published.Load(),
		toolCPU:   selfCPU(),
	}
	for _, u := range l.o.metricsURLs {
		ps, err := scrape(ctx, u)
		if err != nil {
			l.log.Warn("scrape server metrics", "url", u, "error", err)
		}
		s.server = append(s.server, ps)
	}
	return s
}

func (l *load) report(a, b sample) *report {
	secs := b.at.Sub(a.at).Seconds()
	lat := diff(b.latency, a.latency)
	fromStore := diff(b.fromStore, a.fromStore)
	storeLat := diff(b.store, a.store)
	r := &report{
		Mode: l.o.mode, Coalesced: l.o.coalesce, Viewers: l.vstats.connected.Load(), DialErrors: l.vstats.dialErrors.Load(),
		Slots: l.o.slots, RatePerSlot: l.o.rate, Seconds: secs,
		Published: b.published - a.published, PublishErrors: l.pstats.errors.Load(),
		Delivered:          b.delivered - a.delivered,
		DeliveredPerSecond: float64(b.delivered-a.delivered) / secs,
		WSMessages:         b.messages - a.messages,
		P50Ms:              ms(quantile(lat, 0.50)),
		P99Ms:              ms(quantile(lat, 0.99)),
		MaxMs:              ms(quantile(lat, 1)),
		StoredP50Ms:        ms(quantile(fromStore, 0.50)),
		StoredP99Ms:        ms(quantile(fromStore, 0.99)),
		StoreP50Ms:         ms(quantile(storeLat, 0.50)),
		StoreP99Ms:         ms(quantile(storeLat, 0.99)),
		Missing:            l.vstats.missing.Load(), OutOfOrder: l.vstats.outOfOrder.Load(),
		Dropped: l.vstats.dropped.Load(), Slow: l.vstats.slow.Load(),
		ToolCPUCores: (b.toolCPU - a.toolCPU).Seconds() / secs,
		CPUs:         runtime.NumCPU(),
	}
	if e := l.pstats.firstErr.Load(); e != nil {
		r.FirstError = *e
	}
	for i := range b.server {
		r.ServerCPUCores += (b.server[i].CPUSeconds - a.server[i].CPUSeconds) / secs
		r.ServerRSSMiB += b.server[i].RSSBytes / (1 << 20)
		r.ServerGoroutines += b.server[i].Goroutines
	}
	if r.Viewers > 0 {
		r.ServerRSSPerConnKB = r.ServerRSSMiB * 1024 / float64(r.Viewers)
		r.ServerCPUPerConnUs = r.ServerCPUCores * 1e6 / float64(r.Viewers)
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (r *report) print(w io.Writer) {
	host, _ := os.Hostname()
	fmt.Fprintf(w, "machine            %s, %d CPUs, %s\n", host, r.CPUs, runtime.Version())
	fmt.Fprintf(w, "mode               %s; %d slot(s) × %.0f events/s\n", r.Mode, r.Slots, r.RatePerSlot)
	fmt.Fprintf(w, "viewers            %d connected (%d dial errors, %d dropped, %d slow)\n", r.Viewers, r.DialErrors, r.Dropped, r.Slow)
	fmt.Fprintf(w, "published          %d events in %.1fs (%d errors)\n", r.Published, r.Seconds, r.PublishErrors)
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error      %s\n", r.FirstError)
	}
	framing := "one frame per WebSocket message"
	if r.Coalesced {
		framing = "coalesced (batch=1)"
	}
	fmt.Fprintf(w, "delivered          %d messages, %.0f/s, in %d WebSocket messages (%s)\n", r.Delivered, r.DeliveredPerSecond, r.WSMessages, framing)
	fmt.Fprintf(w, "latency            p50 %.2f ms, p99 %.2f ms, max %.2f ms (publish → viewer)\n", r.P50Ms, r.P99Ms, r.MaxMs)
	if r.Mode == "store" {
		fmt.Fprintf(w, "  of which store   p50 %.2f ms, p99 %.2f ms (insert + commit, before the ack)\n", r.StoreP50Ms, r.StoreP99Ms)
		fmt.Fprintf(w, "stored → viewer    p50 %.2f ms, p99 %.2f ms (broker + chat-socket)\n", r.StoredP50Ms, r.StoredP99Ms)
	}
	fmt.Fprintf(w, "integrity          %d missing, %d out of order\n", r.Missing, r.OutOfOrder)
	fmt.Fprintf(w, "server             %.2f cores, %.1f MiB RSS, %.0f goroutines\n", r.ServerCPUCores, r.ServerRSSMiB, r.ServerGoroutines)
	fmt.Fprintf(w, "per connection     %.1f KiB RSS, %.1f µs CPU/s\n", r.ServerRSSPerConnKB, r.ServerCPUPerConnUs)
	fmt.Fprintf(w, "load tool          %.2f cores\n", r.ToolCPUCores)
}
