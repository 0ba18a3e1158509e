package httpapi

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Metrics are the api service's domain counters (request counts and latencies come from the
// platform's HTTP middleware).
type Metrics struct {
	registrations  prometheus.Counter
	logins         *prometheus.CounterVec
	authFailures   prometheus.Counter
	tokensCreated  prometheus.Counter
	tokensRevoked  prometheus.Counter
	slotsCreated   prometheus.Counter
	settingsSaved  prometheus.Counter
	retractions    prometheus.Counter
	panics         prometheus.Counter
	withheld       prometheus.Counter
	rateLimited    *prometheus.CounterVec
	publishErrors  *prometheus.CounterVec
	feedNotChanged prometheus.Counter
	feedShared     prometheus.Counter
}

// NewMetrics registers the counters on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := promauto.With(reg)
	return &Metrics{
		registrations: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_registrations_total", Help: "Accounts created."}),
		logins: f.NewCounterVec(prometheus.CounterOpts{Name: "openvibe_api_logins_total",
			Help: "Password logins by result (ok, failed)."}, []string{"result"}),
		authFailures: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_auth_failures_total",
			Help: "Requests refused for a missing, unknown, expired or revoked credential."}),
		tokensCreated: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_tokens_created_total", Help: "API tokens created."}),
		tokensRevoked: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_tokens_revoked_total", Help: "API tokens revoked."}),
		slotsCreated:  f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_slots_created_total", Help: "Managed stream slots created."}),
		settingsSaved: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_settings_saved_total", Help: "Vibe-coding settings updates saved."}),
		retractions:   f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_retractions_total", Help: "Events retracted by their owner."}),
		panics:        f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_panics_total", Help: "Panic button presses."}),
		withheld: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_panic_withheld_events_total",
			Help: "Events withheld from viewers by the panic button."}),
		rateLimited: f.NewCounterVec(prometheus.CounterOpts{Name: "openvibe_api_rate_limited_total",
			Help: "Requests refused with 429, by limit (ip, user, auth)."}, []string{"limit"}),
		publishErrors: f.NewCounterVec(prometheus.CounterOpts{Name: "openvibe_api_slotbus_publish_errors_total",
			Help: "Slot messages the broker refused, by kind."}, []string{"kind"}),
		feedNotChanged: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_feed_not_modified_total",
			Help: "Public feed requests answered 304 Not Modified."}),
		feedShared: f.NewCounter(prometheus.CounterOpts{Name: "openvibe_api_feed_shared_total",
			Help: "Public feed requests answered by a computation of the same feed another request had started."}),
	}
}
