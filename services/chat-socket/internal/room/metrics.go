package room

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Metrics are the delivery engine's Prometheus metrics (prefix openvibe_chat_).
type Metrics struct {
	Viewers         prometheus.Gauge
	Rooms           prometheus.Gauge
	Subscriptions   prometheus.Gauge
	EventsDelivered prometheus.Counter
	FramesDelivered prometheus.Counter
	EventsDropped   *prometheus.CounterVec
	GapFills        *prometheus.CounterVec
	GapEvents       prometheus.Counter
	StoreErrors     *prometheus.CounterVec
	DeliveryLag     prometheus.Histogram
	SlowDisconnects prometheus.Counter
	Retractions     prometheus.Counter
	Panics          prometheus.Counter
	MarkErrors      prometheus.Counter
}

// NewMetrics registers the metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := promauto.With(reg)
	return &Metrics{
		Viewers: f.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_chat_viewers", Help: "Connected viewer sockets.",
		}),
		Rooms: f.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_chat_rooms", Help: "Slots with a delivery room on this node.",
		}),
		Subscriptions: f.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_chat_broker_subscriptions", Help: "Active broker subscriptions (two per room: the slot's event and control channels).",
		}),
		EventsDelivered: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_events_delivered_total", Help: "Vibe-coding events delivered by rooms (once per event per room).",
		}),
		FramesDelivered: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_frames_delivered_total", Help: "Vibe-coding frames queued to viewers (once per event per viewer).",
		}),
		EventsDropped: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_chat_events_dropped_total", Help: "Events never delivered, by reason.",
		}, []string{"reason"}),
		GapFills: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_chat_gap_fills_total", Help: "Store fetches that recovered missed events, by cause.",
		}, []string{"cause"}),
		GapEvents: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_gap_events_total", Help: "Events recovered from the store instead of the broker.",
		}),
		StoreErrors: f.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_chat_store_errors_total", Help: "Failed store reads and writes, by operation.",
		}, []string{"op"}),
		DeliveryLag: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "openvibe_chat_delivery_lag_seconds",
			Help:    "Time from an event's due time (received + delay) to its fan-out.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}),
		SlowDisconnects: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_slow_disconnects_total", Help: "Viewers closed with 4008 slow.",
		}),
		Retractions: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_retractions_total", Help: "Retract messages applied by rooms.",
		}),
		Panics: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_panics_total", Help: "Panic messages applied by rooms.",
		}),
		MarkErrors: f.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_chat_mark_delivered_errors_total", Help: "Failed writes of first delivery times and of events withheld for coming due while paused.",
		}),
	}
}
