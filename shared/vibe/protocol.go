package vibe

import "encoding/json"

// ProtocolVersion is the publisher protocol version this server speaks.
const ProtocolVersion = 1

// Publisher protocol message types (client → server).
const (
	MsgHello = "vibe-coding.hello"
	MsgEvent = "vibe-coding.event"
	MsgPing  = "vibe-coding.ping"
)

// Publisher protocol message types (server → client).
const (
	MsgReady    = "vibe-coding.ready"
	MsgHelloAck = "vibe-coding.hello.ack"
	MsgAck      = "vibe-coding.ack"
	MsgPong     = "vibe-coding.pong"
	MsgError    = "vibe-coding.error"
)

// Viewer (chat socket) frame types, server → viewer.
const (
	FrameVibeCoding = "vibe-coding"
	FrameSettings   = "vibe-coding.settings"
	FrameRetract    = "vibe-coding.retract"
)

// Envelope is the part every publisher message shares; decode it first to dispatch on Type.
type Envelope struct {
	Type string `json:"type"`
}

// Hello is vibe-coding.hello.
type Hello struct {
	Type            string          `json:"type"`
	ProtocolVersion int             `json:"protocolVersion"`
	ManagedStreamID int64           `json:"managedStreamId,omitempty"`
	SlotSlug        string          `json:"slotSlug,omitempty"`
	Timestamp       string          `json:"timestamp,omitempty"`
	SessionKey      string          `json:"sessionKey"`
	Publisher       json.RawMessage `json:"publisher,omitempty"`
}

// EventEnvelope is vibe-coding.event. Event is kept raw: the sanitizer decodes it.
type EventEnvelope struct {
	Type            string          `json:"type"`
	ProtocolVersion int             `json:"protocolVersion"`
	ManagedStreamID int64           `json:"managedStreamId,omitempty"`
	SlotSlug        string          `json:"slotSlug,omitempty"`
	SessionKey      string          `json:"sessionKey"`
	Timestamp       string          `json:"timestamp,omitempty"`
	Event           json.RawMessage `json:"event"`
}

// Ping is vibe-coding.ping.
type Ping struct {
	Type            string `json:"type"`
	ProtocolVersion int    `json:"protocolVersion,omitempty"`
	Timestamp       string `json:"timestamp,omitempty"`
}

// Ready is vibe-coding.ready.
type Ready struct {
	Type            string   `json:"type"`
	OK              bool     `json:"ok"`
	ManagedStreamID int64    `json:"managed_stream_id"`
	SlotSlug        string   `json:"slot_slug"`
	LiveStreamID    *int64   `json:"live_stream_id"`
	Settings        Settings `json:"settings"`
	Timestamp       string   `json:"timestamp"`
}

// HelloAck is vibe-coding.hello.ack.
type HelloAck struct {
	Type       string `json:"type"`
	SessionKey string `json:"session_key"`
	Timestamp  string `json:"timestamp"`
}

// Ack is vibe-coding.ack.
type Ack struct {
	Type         string `json:"type"`
	EventID      string `json:"event_id"`
	LiveStreamID *int64 `json:"live_stream_id"`
	Delivered    bool   `json:"delivered"`
	Duplicate    bool   `json:"duplicate,omitempty"`
	Sequence     int64  `json:"sequence,omitempty"` // the event's per-slot sequence number
	Timestamp    string `json:"timestamp"`
}

// Pong is vibe-coding.pong.
type Pong struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
}

// Error is vibe-coding.error. EventID is set when the error concerns one event.
type Error struct {
	Type    string `json:"type"`
	Error   string `json:"error"`
	EventID string `json:"event_id,omitempty"`
}

// ViewerFrame is the chat-socket frame that carries one projected event to viewers.
type ViewerFrame struct {
	Type            string `json:"type"` // FrameVibeCoding
	ManagedStreamID int64  `json:"managed_stream_id"`
	SlotSlug        string `json:"slot_slug"`
	DelayMs         int    `json:"delay_ms"`
	Seq             int64  `json:"seq"`
	Event           *Event `json:"event"`
}

// Close codes used on the publisher socket, with their reasons.
const (
	CloseBadRequest   = 4400
	CloseUnauthorized = 4401
	CloseForbidden    = 4403
	CloseNotFound     = 4404
	CloseRateLimited  = 4429
)

const (
	ReasonAuthRequired  = "Authentication required"
	ReasonScopeRequired = "API token requires vibe_coding_publish scope"
	ReasonSlotNotFound  = "Managed stream not found"
	ReasonSlugMismatch  = "slotSlug does not match the managed stream"
	ReasonRateLimited   = "Rate limit exceeded"
)
