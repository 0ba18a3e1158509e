package chat

import (
	"time"

	"openvibe.live/backend/shared/platform"
)

// Config tunes the chat socket. Every field has an OPENVIBE_CHAT_… variable whose envDefault
// tag is its default, read by the chat-socket binary (and the standalone binary) through
// platform.LoadConfig. New takes a Config as given: start from DefaultConfig to change a few
// fields.
type Config struct {
	// AllowedOrigins lists extra Origin patterns allowed to open the socket (host patterns
	// such as "openvibe.live" or "*.openvibe.live", or "https://host" to pin the scheme).
	// Pages served from the socket's own host are always allowed.
	AllowedOrigins []string `env:"OPENVIBE_CHAT_ALLOWED_ORIGINS" envSeparator:","`
	// SendQueueBytes bounds each viewer's send queue; a viewer past it is closed with 4008.
	SendQueueBytes int `env:"OPENVIBE_CHAT_SEND_QUEUE_BYTES" envDefault:"1048576"`
	// WriteTimeout closes a viewer whose socket accepts no data for this long (4008).
	WriteTimeout time.Duration `env:"OPENVIBE_CHAT_WRITE_TIMEOUT" envDefault:"10s"`
	// PingInterval is how often the server pings each viewer; PongTimeout how long it waits.
	PingInterval time.Duration `env:"OPENVIBE_CHAT_PING_INTERVAL" envDefault:"25s"`
	PongTimeout  time.Duration `env:"OPENVIBE_CHAT_PONG_TIMEOUT" envDefault:"10s"`
	// ResumeLimit is how many delivered events each room keeps for ?since= resume.
	ResumeLimit int `env:"OPENVIBE_CHAT_RESUME_LIMIT" envDefault:"1000"`
	// ChatHistory is how many recent chat messages a joining viewer gets.
	ChatHistory int `env:"OPENVIBE_CHAT_HISTORY" envDefault:"50"`
	// ChatMaxChars caps the length of one chat message, in characters.
	ChatMaxChars int `env:"OPENVIBE_CHAT_MAX_CHARS" envDefault:"500"`
	// ChatRate and ChatBurst limit how fast one user may send chat messages on this node.
	ChatRate  float64 `env:"OPENVIBE_CHAT_RATE" envDefault:"1"`
	ChatBurst int     `env:"OPENVIBE_CHAT_BURST" envDefault:"5"`
	// RefreshInterval is how often each room re-reads its slot from the store, a safety net
	// behind the broker for settings and events.
	RefreshInterval time.Duration `env:"OPENVIBE_CHAT_REFRESH_INTERVAL" envDefault:"5s"`
	// RetryInterval paces retries after broker or store failures.
	RetryInterval time.Duration `env:"OPENVIBE_CHAT_RETRY_INTERVAL" envDefault:"1s"`
	// RoomLinger keeps an empty room (and its broker subscription) alive this long, so a
	// reloading page does not restart it.
	RoomLinger time.Duration `env:"OPENVIBE_CHAT_ROOM_LINGER" envDefault:"5s"`
	// MarkInterval is how often first delivery times are written to the store.
	MarkInterval time.Duration `env:"OPENVIBE_CHAT_MARK_INTERVAL" envDefault:"1s"`
	// MaxBatchBytes caps one coalesced WebSocket message.
	MaxBatchBytes int `env:"OPENVIBE_CHAT_MAX_BATCH_BYTES" envDefault:"65536"`
}

// DefaultConfig returns the defaults the env tags declare.
func DefaultConfig() Config { return platform.Defaults[Config]() }

// Validate reports every invalid setting.
func (c Config) Validate() error {
	var p platform.Problems
	p.Check(c.SendQueueBytes >= 4096, "OPENVIBE_CHAT_SEND_QUEUE_BYTES: must be at least 4096")
	p.Add(platform.CheckPositive("OPENVIBE_CHAT_WRITE_TIMEOUT", c.WriteTimeout))
	p.Add(platform.CheckPositive("OPENVIBE_CHAT_PING_INTERVAL", c.PingInterval))
	p.Add(platform.CheckPositive("OPENVIBE_CHAT_PONG_TIMEOUT", c.PongTimeout))
	p.Check(c.ResumeLimit >= 1, "OPENVIBE_CHAT_RESUME_LIMIT: must be at least 1")
	p.Check(c.ChatHistory >= 1, "OPENVIBE_CHAT_HISTORY: must be at least 1")
	p.Check(c.ChatMaxChars >= 1, "OPENVIBE_CHAT_MAX_CHARS: must be at least 1")
	p.Check(c.ChatRate > 0, "OPENVIBE_CHAT_RATE: must be greater than zero")
	p.Check(c.ChatBurst >= 1, "OPENVIBE_CHAT_BURST: must be at least 1")
	p.Add(platform.CheckPositive("OPENVIBE_CHAT_REFRESH_INTERVAL", c.RefreshInterval))
	p.Add(platform.CheckPositive("OPENVIBE_CHAT_RETRY_INTERVAL", c.RetryInterval))
	p.Check(c.RoomLinger >= 0, "OPENVIBE_CHAT_ROOM_LINGER: must not be negative")
	p.Add(platform.CheckPositive("OPENVIBE_CHAT_MARK_INTERVAL", c.MarkInterval))
	p.Check(c.MaxBatchBytes >= 1024, "OPENVIBE_CHAT_MAX_BATCH_BYTES: must be at least 1024")
	return p.Err()
}
