package fanout

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are a backend's delivery metrics. A nil *Metrics records nothing.
type Metrics struct {
	dropped       prometheus.Counter
	gaps          prometheus.Counter
	subscriptions prometheus.Gauge
	// Reconnects counts replaced connections (Redis only).
	Reconnects prometheus.Counter
	// Connected is 1 while the backend's connection is up (Redis only).
	Connected prometheus.Gauge
}

// NewMetrics registers the metrics of one backend ("memory", "redis") on reg, reusing the
// collectors when a broker of the same backend registered them before. reg nil means none.
func NewMetrics(reg prometheus.Registerer, backend string) *Metrics {
	if reg == nil {
		return nil
	}
	labels := prometheus.Labels{"backend": backend}
	return &Metrics{
		dropped: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_broker_dropped_total", ConstLabels: labels,
			Help: "Messages dropped because a subscriber's queue was full.",
		})),
		gaps: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_broker_gaps_total", ConstLabels: labels,
			Help: "Gap notices delivered to subscribers (each means messages may have been lost).",
		})),
		subscriptions: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_broker_subscriptions", ConstLabels: labels,
			Help: "Open subscriptions in this process.",
		})),
		Reconnects: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openvibe_broker_reconnects_total", ConstLabels: labels,
			Help: "Pub/sub connections dropped and replaced.",
		})),
		Connected: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_broker_connected", ConstLabels: labels,
			Help: "1 while the pub/sub connection is up.",
		})),
	}
}

func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err); ok {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic(fmt.Sprintf("broker: registering metrics: %v", err))
	}
	return c
}

func (m *Metrics) drop() {
	if m != nil {
		m.dropped.Inc()
	}
}

func (m *Metrics) gap() {
	if m != nil {
		m.gaps.Inc()
	}
}

func (m *Metrics) subscribed(delta float64) {
	if m != nil {
		m.subscriptions.Add(delta)
	}
}

// SetConnected records the connection state.
func (m *Metrics) SetConnected(up bool) {
	if m == nil {
		return
	}
	if up {
		m.Connected.Set(1)
	} else {
		m.Connected.Set(0)
	}
}

// Reconnected counts a replaced connection.
func (m *Metrics) Reconnected() {
	if m != nil {
		m.Reconnects.Inc()
	}
}
