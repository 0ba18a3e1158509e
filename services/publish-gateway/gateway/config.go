package gateway

import (
	"time"

	"openvibe.live/backend/shared/platform"
)

// Config holds the gateway's tunables. Every field has an OPENVIBE_GATEWAY_… variable whose
// envDefault tag is its default (docs/operations.md lists them). New takes a Config as given:
// start from DefaultConfig to change a few fields.
type Config struct {
	// AllowLegacyStreamScope accepts hbt_ tokens that only carry the legacy "stream" scope.
	AllowLegacyStreamScope bool `env:"OPENVIBE_GATEWAY_ALLOW_LEGACY_STREAM_SCOPE" envDefault:"true"`
	// OriginPatterns lists extra browser origins (host patterns, path.Match syntax) allowed to
	// open the socket with the ov_token cookie. Requests carrying the token in the query or an
	// Authorization header are not origin-checked: they hold no ambient credential.
	OriginPatterns []string `env:"OPENVIBE_GATEWAY_ORIGIN_PATTERNS" envSeparator:","`

	// MaxMessageBytes caps one client message; a larger one closes the socket with 1009.
	MaxMessageBytes int64 `env:"OPENVIBE_GATEWAY_MAX_MESSAGE_BYTES" envDefault:"262144"`
	// ConnRate and ConnBurst limit the messages (of any type) one connection may send.
	ConnRate  float64 `env:"OPENVIBE_GATEWAY_CONN_RATE" envDefault:"50"`
	ConnBurst int     `env:"OPENVIBE_GATEWAY_CONN_BURST" envDefault:"200"`
	// SlotRate and SlotBurst limit the events all connections of one slot may send (per
	// gateway process).
	SlotRate  float64 `env:"OPENVIBE_GATEWAY_SLOT_RATE" envDefault:"100"`
	SlotBurst int     `env:"OPENVIBE_GATEWAY_SLOT_BURST" envDefault:"400"`
	// MaxConnsPerSlot caps concurrent publisher connections per slot (per gateway process).
	MaxConnsPerSlot int `env:"OPENVIBE_GATEWAY_MAX_CONNS_PER_SLOT" envDefault:"8"`
	// MaxInflight caps the events one connection may have waiting for their ack; the server
	// stops reading that connection until acks go out.
	MaxInflight int `env:"OPENVIBE_GATEWAY_MAX_INFLIGHT" envDefault:"512"`

	// PingInterval is how often the server pings each publisher; a publisher that does not
	// answer within PingTimeout is dropped.
	PingInterval time.Duration `env:"OPENVIBE_GATEWAY_PING_INTERVAL" envDefault:"20s"`
	PingTimeout  time.Duration `env:"OPENVIBE_GATEWAY_PING_TIMEOUT" envDefault:"10s"`
	// WriteTimeout bounds one frame write to a publisher.
	WriteTimeout time.Duration `env:"OPENVIBE_GATEWAY_WRITE_TIMEOUT" envDefault:"10s"`

	// IdleSessionTimeout ends sessions left active (by a crashed gateway) with no sign of
	// life for this long; ReapInterval is how often the reaper looks.
	IdleSessionTimeout time.Duration `env:"OPENVIBE_GATEWAY_IDLE_SESSION_TIMEOUT" envDefault:"10m"`
	ReapInterval       time.Duration `env:"OPENVIBE_GATEWAY_REAP_INTERVAL" envDefault:"1m"`
	// SettingsTTL bounds how stale a slot's cached settings and live state may get when no
	// settings message arrives over the broker.
	SettingsTTL time.Duration `env:"OPENVIBE_GATEWAY_SETTINGS_TTL" envDefault:"1s"`

	// BatchMaxEvents caps the events one store transaction commits; BatchMaxDelay is how long
	// the writer may wait for more events before committing a batch that is not full (0:
	// commit whatever is queued at once; batches grow while the previous commit runs).
	BatchMaxEvents int `env:"OPENVIBE_GATEWAY_BATCH_MAX_EVENTS" envDefault:"1024"`
	// Writers is the number of batch writers (store transactions that may be in flight at
	// once). Each slot always uses the same writer, so its events commit in arrival order.
	Writers       int           `env:"OPENVIBE_GATEWAY_WRITERS" envDefault:"2"`
	BatchMaxDelay time.Duration `env:"OPENVIBE_GATEWAY_BATCH_MAX_DELAY" envDefault:"0s"`
	// StoreTimeout bounds one store call; PublishTimeout one broker publish.
	StoreTimeout   time.Duration `env:"OPENVIBE_GATEWAY_STORE_TIMEOUT" envDefault:"5s"`
	PublishTimeout time.Duration `env:"OPENVIBE_GATEWAY_PUBLISH_TIMEOUT" envDefault:"500ms"`
	// PublishWorkers is the number of goroutines publishing stored events (each slot always
	// goes through the same one, so a slot's events are published in sequence order).
	PublishWorkers int `env:"OPENVIBE_GATEWAY_PUBLISH_WORKERS" envDefault:"16"`
}

// DefaultConfig returns the defaults the env tags declare.
func DefaultConfig() Config { return platform.Defaults[Config]() }

// Validate reports every invalid setting.
func (c Config) Validate() error {
	var p platform.Problems
	p.Check(c.MaxMessageBytes >= 1024, "OPENVIBE_GATEWAY_MAX_MESSAGE_BYTES: must be at least 1024")
	p.Check(c.ConnRate > 0, "OPENVIBE_GATEWAY_CONN_RATE: must be greater than zero")
	p.Check(c.ConnBurst >= 1, "OPENVIBE_GATEWAY_CONN_BURST: must be at least 1")
	p.Check(c.SlotRate > 0, "OPENVIBE_GATEWAY_SLOT_RATE: must be greater than zero")
	p.Check(c.SlotBurst >= 1, "OPENVIBE_GATEWAY_SLOT_BURST: must be at least 1")
	p.Check(c.MaxConnsPerSlot >= 1, "OPENVIBE_GATEWAY_MAX_CONNS_PER_SLOT: must be at least 1")
	p.Check(c.MaxInflight >= 1, "OPENVIBE_GATEWAY_MAX_INFLIGHT: must be at least 1")
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_PING_INTERVAL", c.PingInterval))
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_PING_TIMEOUT", c.PingTimeout))
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_WRITE_TIMEOUT", c.WriteTimeout))
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_IDLE_SESSION_TIMEOUT", c.IdleSessionTimeout))
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_REAP_INTERVAL", c.ReapInterval))
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_SETTINGS_TTL", c.SettingsTTL))
	p.Check(c.SettingsTTL <= time.Second, "OPENVIBE_GATEWAY_SETTINGS_TTL: must be at most 1s")
	p.Check(c.BatchMaxEvents >= 1 && c.BatchMaxEvents <= 5000, "OPENVIBE_GATEWAY_BATCH_MAX_EVENTS: must be between 1 and 5000")
	p.Check(c.Writers >= 1 && c.Writers <= 64, "OPENVIBE_GATEWAY_WRITERS: must be between 1 and 64")
	p.Check(c.BatchMaxDelay >= 0 && c.BatchMaxDelay <= 100*time.Millisecond, "OPENVIBE_GATEWAY_BATCH_MAX_DELAY: must be between 0 and 100ms")
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_STORE_TIMEOUT", c.StoreTimeout))
	p.Add(platform.CheckPositive("OPENVIBE_GATEWAY_PUBLISH_TIMEOUT", c.PublishTimeout))
	p.Check(c.PublishWorkers >= 1 && c.PublishWorkers <= 1024, "OPENVIBE_GATEWAY_PUBLISH_WORKERS: must be between 1 and 1024")
	return p.Err()
}
