// Package soak runs the mixed scenario — publishers, viewers on both chat-socket replicas,
// chat, public feed reads — against a real two-replica cluster for OPENVIBE_SOAK (a Go
// duration; unset: skipped), sampling every process's /metrics, and fails on any error,
// any lost or duplicated event, or goroutine or memory growth.
package soak

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

var bins *cluster.Binaries

func TestMain(m *testing.M) {
	if os.Getenv("OPENVIBE_SOAK") == "" {
		os.Exit(m.Run()) // skips: nothing to build
	}
	os.Exit(cluster.Main(m, &bins))
}

// Scenario sizes; every request loop is bounded by the soak's duration.
const (
	slots            = 4
	publishersPer    = 2
	publishInterval  = 50 * time.Millisecond // 20 events/s per publisher: 160/s in all
	viewersPerSlot   = 40                    // split over both replicas: 160 viewers
	chatters         = 2
	chatInterval     = 2 * time.Second
	feedReaders      = 4
	feedReadInterval = 100 * time.Millisecond // 40 reads/s in all
)

type sample struct {
	at         time.Duration
	goroutines map[string]float64
	rssMiB     map[string]float64
	acked      int
	ackP50     time.Duration
	ackP99     time.Duration
	delivP50   time.Duration
	delivP99   time.Duration
	delivered  int
	feedReads  int64
	feedP99    time.Duration
}

func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("OPENVIBE_SOAK"))
	if err != nil || d <= 0 {
		t.Skip("set OPENVIBE_SOAK to a duration (e.g. 60s) to run the soak")
	}
	interval := max(10*time.Second, d/20)
	c := cluster.Start(t, bins, cluster.Options{Gateways: 2, Chats: 2, APIs: 2,
		GatewayEnv: []string{"OPENVIBE_GATEWAY_MAX_CONNS_PER_SLOT=16"}})
	owner := c.NewOwner("soaker", slots)

	var pubs []*cluster.Publisher
	pubSlot := map[*cluster.Publisher]int{}
	for i, slot := range owner.Slots {
		for range publishersPer {
			p := cluster.NewPublisher(t, cluster.PublisherOptions{Server: c.GatewayLB.URL(), Token: owner.Token, Slot: slot})
			pubs = append(pubs, p)
			pubSlot[p] = i
		}
	}
	var viewers []*cluster.Viewer
	viewerSlot := map[*cluster.Viewer]int{}
	for i, slot := range owner.Slots {
		for n := range viewersPerSlot {
			v := cluster.DialViewer(t, c.ChatAddrs(n%2), owner.User.Username, slot.Slug, cluster.ViewerOptions{Reconnect: true})
			viewers = append(viewers, v)
			viewerSlot[v] = i
		}
	}
	var chatViewers []*cluster.Viewer
	for i := range chatters {
		a := c.API()
		a.Register(fmt.Sprintf("chatter%d", i), "correct horse battery staple")
		chatViewers = append(chatViewers, cluster.DialViewer(t, c.ChatAddrs(i%2), owner.User.Username, owner.Slots[0].Slug,
			cluster.ViewerOptions{Token: a.Token}))
	}
	for _, v := range append(slices.Clone(viewers), chatViewers...) {
		require.True(t, v.WaitWelcome(20*time.Second, 1))
	}

	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	var wg sync.WaitGroup
	var errs errList
	for i, p := range pubs {
		wg.Go(func() {
			every(ctx, publishInterval, func(n int) {
				if _, err := p.Send(fmt.Sprintf("soak %d/%d", i, n)); err != nil {
					errs.add("publish: %v", err)
				}
			})
		})
	}
	var chatsSent atomic.Int64
	for i, v := range chatViewers {
		wg.Go(func() {
			every(ctx, chatInterval, func(n int) {
				if err := v.Send(ctx, map[string]string{"type": "chat.send", "text": fmt.Sprintf("chat %d/%d", i, n)}); err != nil && ctx.Err() == nil {
					errs.add("chat send: %v", err)
				}
				chatsSent.Add(1)
			})
		})
	}
	var feedReads atomic.Int64
	var feedMu sync.Mutex
	var feedLat []time.Duration
	for i := range feedReaders {
		a := c.API()
		slot := owner.Slots[i%slots]
		wg.Go(func() {
			every(ctx, feedReadInterval, func(int) {
				start := time.Now()
				rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
				_, err := a.Feed(rctx, owner.User.Username, slot.Slug)
				rcancel()
				if err != nil && ctx.Err() == nil {
					errs.add("feed: %v", err)
					return
				}
				feedReads.Add(1)
				feedMu.Lock()
				feedLat = append(feedLat, time.Since(start))
				feedMu.Unlock()
			})
		})
	}

	start := time.Now()
	var samples []sample
	last := start
	take := func() {
		now := time.Now()
		s := sample{at: now.Sub(start).Round(time.Second), goroutines: map[string]float64{}, rssMiB: map[string]float64{}}
		for _, p := range c.All() {
			m, err := p.Metrics()
			if err != nil {
				errs.add("%s metrics: %v", p.Name, err)
				continue
			}
			s.goroutines[p.Name] = m["go_goroutines"]
			s.rssMiB[p.Name] = m["process_resident_memory_bytes"] / (1 << 20)
		}
		// Latencies of the acks and deliveries that happened in this interval.
		var acks, deliv []time.Duration
		sent := map[string]time.Time{}
		for _, p := range pubs {
			r := p.Record()
			for id, at := range r.AckAt {
				if at.After(last) && !at.After(now) {
					acks = append(acks, at.Sub(r.SentAt[id]))
				}
			}
			for id, at := range r.SentAt {
				sent[id] = at
			}
		}
		for _, v := range viewers {
			for _, e := range v.Snapshot().Events {
				if at, ok := sent[e.EventID]; ok && e.At.After(last) && !e.At.After(now) {
					deliv = append(deliv, e.At.Sub(at))
				}
			}
		}
		feedMu.Lock()
		fl := slices.Clone(feedLat)
		feedLat = feedLat[:0]
		feedMu.Unlock()
		s.acked, s.delivered, s.feedReads = len(acks), len(deliv), feedReads.Load()
		s.ackP50, s.ackP99 = pct(acks, 50), pct(acks, 99)
		s.delivP50, s.delivP99 = pct(deliv, 50), pct(deliv, 99)
		s.feedP99 = pct(fl, 99)
		samples = append(samples, s)
		last = now
	}
	take()
	tick := time.NewTicker(interval)
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
			take()
		}
	}
	tick.Stop()
	wg.Wait()
	elapsed := time.Since(start)

	// Drain: every event acked, stored once and delivered to every viewer of its slot.
	fctx, fcancel := context.WithTimeout(t.Context(), time.Minute)
	defer fcancel()
	want := make([]map[string]bool, slots)
	for i := range want {
		want[i] = map[string]bool{}
	}
	published := 0
	for _, p := range pubs {
		require.NoError(t, p.Flush(fctx))
		for _, id := range p.Record().Published {
			want[pubSlot[p]][id] = true
			published++
		}
	}
	for i, slot := range owner.Slots {
		count, _, err := c.StoredEvents(t.Context(), slot.ID)
		require.NoError(t, err)
		require.Len(t, count, len(want[i]), "slot %d: stored events", i)
		for id := range want[i] {
			require.Equal(t, 1, count[id], "slot %d: %s stored once", i, id)
		}
	}
	for _, v := range viewers {
		snap, ok := v.WaitEvents(time.Minute, want[viewerSlot[v]])
		require.True(t, ok, "a viewer misses events: %d of %d", len(snap.EventIDs()), len(want[viewerSlot[v]]))
		require.Empty(t, snap.Duplicates)
		require.Zero(t, snap.OutOfOrder)
		require.Equal(t, 1, snap.Welcomes, "viewer kept its socket: %v", snap.Errors)
	}
	for _, v := range chatViewers {
		snap := v.Snapshot()
		require.Empty(t, snap.Refused, "chat refused")
		require.Positive(t, snap.Chats)
	}
	take()
	report(t, samples, elapsed, published, chatsSent.Load(), len(viewers))
	require.Empty(t, errs.list(), "errors during the soak")
	checkGrowth(t, samples)
}

// every calls fn every interval until ctx ends.
func every(ctx context.Context, interval time.Duration, fn func(n int)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn(n)
		}
	}
}

type errList struct {
	mu   sync.Mutex
	errs []string
}

func (e *errList) add(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.errs) < 20 {
		e.errs = append(e.errs, fmt.Sprintf(format, args...))
	}
}

func (e *errList) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.errs)
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(math.Ceil(p/100*float64(len(s))))-1)]
}

// checkGrowth compares the first sample after warm-up (the second) with the last: per
// process, goroutines may grow by 10% + 20 and resident memory by 25% + 32 MiB.
func checkGrowth(t *testing.T, samples []sample) {
	t.Helper()
	if len(samples) < 3 {
		t.Fatalf("only %d samples: run the soak longer", len(samples))
	}
	base, last := samples[1], samples[len(samples)-1]
	for name, g := range base.goroutines {
		require.LessOrEqual(t, last.goroutines[name], g*1.1+20, "%s goroutines grew from %.0f to %.0f", name, g, last.goroutines[name])
		m := base.rssMiB[name]
		require.LessOrEqual(t, last.rssMiB[name], m*1.25+32, "%s resident memory grew from %.0f to %.0f MiB", name, m, last.rssMiB[name])
	}
}

func report(t *testing.T, samples []sample, elapsed time.Duration, published int, chats int64, viewers int) {
	var b strings.Builder
	fmt.Fprintf(&b, "soak %s: %d events published (%.0f/s), %d viewers, %d chat messages; per interval (events acked and frames delivered in it, their latencies from publish):\n",
		elapsed.Round(time.Second), published, float64(published)/elapsed.Seconds(), viewers, chats)
	fmt.Fprintf(&b, "%6s %8s %9s %9s %10s %10s %11s %9s %9s | goroutines gw/chat/api | RSS MiB gw/chat/api\n",
		"t", "acked", "ack p50", "ack p99", "delivered", "deliv p50", "deliv p99", "feed/s", "feed p99")
	var prev sample
	for i, s := range samples {
		rate := 0.0
		if i > 0 {
			rate = float64(s.feedReads-prev.feedReads) / (s.at - prev.at).Seconds()
		}
		fmt.Fprintf(&b, "%6s %8d %9s %9s %10d %10s %11s %9.1f %9s | %s | %s\n", s.at, s.acked, ms(s.ackP50), ms(s.ackP99),
			s.delivered, ms(s.delivP50), ms(s.delivP99), rate, ms(s.feedP99), byService(s.goroutines, "%.0f"), byService(s.rssMiB, "%.0f"))
		prev = s
	}
	t.Log(b.String())
	if path := os.Getenv("OPENVIBE_SOAK_REPORT"); path != "" {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", d.Seconds()*1000) }

// byService prints each replica's value, grouped gateway/chat/api.
func byService(m map[string]float64, format string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var groups []string
	for _, svc := range []string{"publish-gateway", "chat-socket", "api"} {
		var vals []string
		for _, n := range names {
			if strings.HasPrefix(n, svc) {
				vals = append(vals, fmt.Sprintf(format, m[n]))
			}
		}
		groups = append(groups, strings.Join(vals, ","))
	}
	return strings.Join(groups, " / ")
}
