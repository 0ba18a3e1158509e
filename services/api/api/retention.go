package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"openvibe.live/backend/shared/store"
)

// retention deletes events older than the configured age, once per interval. Every api
// replica runs it; the delete is idempotent, so overlapping runs are harmless.
type retention struct {
	st       store.Store
	log      *slog.Logger
	now      func() time.Time
	keep     time.Duration
	interval time.Duration
	pruned   prometheus.Counter
	failures prometheus.Counter
}

func newRetention(d Deps, cfg Config) *retention {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	f := promauto.With(d.Registerer)
	return &retention{
		st: d.Store, log: log, now: d.Now, keep: cfg.EventRetention, interval: cfg.RetentionInterval,
		pruned: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_events_pruned_total",
			Help: "Vibe-coding events deleted by the retention job."}),
		failures: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_prune_failures_total",
			Help: "Retention runs that failed."}),
	}
}

// run prunes at start and then every interval until ctx ends; with no retention it just waits.
func (r *retention) run(ctx context.Context) {
	if r.keep <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		r.prune(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *retention) prune(ctx context.Context) {
	cutoff := r.now().Add(-r.keep)
	n, err := r.st.PruneVibeEvents(ctx, cutoff)
	if err != nil {
		if ctx.Err() == nil {
			r.failures.Inc()
			r.log.ErrorContext(ctx, "prune events failed", "error", err)
		}
		return
	}
	r.pruned.Add(float64(n))
	if n > 0 {
		r.log.InfoContext(ctx, "pruned events", "count", n, "before", cutoff)
	}
}
