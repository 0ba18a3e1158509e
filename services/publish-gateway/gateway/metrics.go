package gateway

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Rejection reasons, the "reason" label of openvibe_gateway_events_rejected_total.
const (
	reasonInvalidJSON    = "invalid_json"
	reasonInvalidPayload = "invalid_payload"
	reasonNoSession      = "no_session"
	reasonInvalidEvent   = "invalid_event"
	reasonRateLimited    = "rate_limited"
	reasonStoreError     = "store_error"
	reasonShuttingDown   = "shutting_down"
	reasonTooLarge       = "too_large"
)

type metrics struct {
	connections       prometheus.Gauge
	connectAttempts   *prometheus.CounterVec
	closes            *prometheus.CounterVec
	messages          *prometheus.CounterVec
	eventsAccepted    *prometheus.CounterVec
	eventsRejected    *prometheus.CounterVec
	ackLatency        prometheus.Histogram
	batchSize         prometheus.Histogram
	batchSeconds      prometheus.Histogram
	batchFailures     prometheus.Counter
	brokerFailures    prometheus.Counter
	legacyScope       prometheus.Counter
	pingTimeouts      prometheus.Counter
	sessionsReaped    prometheus.Counter
	sessionErrors     prometheus.Counter
	settingsRefreshes *prometheus.CounterVec
	ackDrops          prometheus.Counter
	normalizations    *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	f := promauto.With(reg)
	return &metrics{
		connections: f.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_gateway_connections",
			Help: "Open publisher connections that passed authentication.",
		}),
		connectAttempts: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_connect_attempts_total",
			Help: "Publisher socket upgrades by outcome (accepted or the close code that refused them).",
		}, []string{"result"}),
		closes: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_connection_closes_total",
			Help: "Publisher connections ended after ready, by cause.",
		}, []string{"cause"}),
		messages: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_messages_total",
			Help: "Publisher messages received, by type (unknown types count as other).",
		}, []string{"type"}),
		eventsAccepted: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_events_accepted_total",
			Help: "Events acked, by result: stored (new row) or duplicate (already stored).",
		}, []string{"result", "delivered"}),
		eventsRejected: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_events_rejected_total",
			Help: "Messages answered with vibe-coding.error, by reason.",
		}, []string{"reason"}),
		ackLatency: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "openvibe_gateway_ack_latency_seconds",
			Help:    "Time from reading an event off the socket to queueing its ack.",
			Buckets: []float64{.0005, .001, .002, .004, .006, .008, .01, .015, .02, .03, .05, .1, .25, .5, 1, 2.5},
		}),
		batchSize: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "openvibe_gateway_batch_events",
			Help:    "Events per store transaction.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024},
		}),
		batchSeconds: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "openvibe_gateway_batch_commit_seconds",
			Help:    "Duration of one batch insert, retries included.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}),
		batchFailures: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_batch_failures_total",
			Help: "Batch inserts that failed and were retried event by event.",
		}),
		brokerFailures: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_broker_publish_failures_total",
			Help: "Stored events the broker did not accept.",
		}),
		legacyScope: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_legacy_scope_connections_total",
			Help: "Connections accepted on an API token with only the legacy stream scope.",
		}),
		pingTimeouts: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_ping_timeouts_total",
			Help: "Publisher connections dropped because they stopped answering pings.",
		}),
		sessionsReaped: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_sessions_reaped_total",
			Help: "Sessions ended by the idle-session reaper.",
		}),
		sessionErrors: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_session_store_errors_total",
			Help: "Session upserts, touches or ends that failed in the store.",
		}),
		settingsRefreshes: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_settings_refreshes_total",
			Help: "Slot settings refreshes, by source (broker message, ttl reload, failed reload).",
		}, []string{"source"}),
		ackDrops: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_gateway_ack_drops_total",
			Help: "Acks that could not be queued because their connection was gone.",
		}),
		normalizations: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_gateway_event_normalizations_total",
			Help: "Event fields (and envelope fields, envelope.*) sent in another form and mapped onto the canonical model, by field.",
		}, []string{"field"}),
	}
}
