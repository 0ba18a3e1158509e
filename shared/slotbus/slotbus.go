// Package slotbus defines the messages the services exchange about one slot over the broker:
// stored vibe-coding events (gateway → chat-socket), settings changes, retractions and the
// panic button (api → chat-socket), chat messages and viewer counts (chat-socket ↔
// chat-socket). Each slot
// has one channel, so a chat-socket node needs one subscription per slot with viewers.
package slotbus

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// Message kinds.
const (
	KindEvent    = "event"
	KindSettings = "settings"
	KindRetract  = "retract"
	KindPanic    = "panic"
	KindChat     = "chat"
	KindPresence = "presence"
)

// Channel is the broker channel of a slot.
func Channel(slotID int64) string { return "openvibe:slot:" + strconv.FormatInt(slotID, 10) }

// Message is one slot message; exactly one of the pointer fields matching Kind is set.
type Message struct {
	Kind     string         `json:"kind"`
	SlotID   int64          `json:"slot_id"`
	Event    *Event         `json:"event,omitempty"`
	Settings *vibe.Settings `json:"settings,omitempty"`
	Retract  *Retract       `json:"retract,omitempty"`
	Panic    *Panic         `json:"panic,omitempty"`
	Chat     *Chat          `json:"chat,omitempty"`
	Presence *Presence      `json:"presence,omitempty"`
}

// Event is a stored vibe-coding event, as much of it as delivery needs.
type Event struct {
	Seq          int64           `json:"seq"`
	EventID      string          `json:"event_id"`
	EventType    string          `json:"event_type"`
	Visibility   string          `json:"visibility"`
	Withheld     bool            `json:"withheld,omitempty"`
	Retracted    bool            `json:"retracted,omitempty"`
	LiveStreamID *int64          `json:"live_stream_id,omitempty"`
	ReceivedAt   time.Time       `json:"received_at"`
	Payload      json.RawMessage `json:"payload"` // sanitized canonical event (vibe.Event)
}

// Retract withdraws one event from viewers.
type Retract struct {
	Seq     int64  `json:"seq"`
	EventID string `json:"event_id"`
}

// Panic pauses the slot and drops every event still pending in a delay queue.
type Panic struct {
	At       time.Time     `json:"at"`
	Settings vibe.Settings `json:"settings"`
}

// Chat is a stored chat message.
type Chat struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	Username  string    `json:"username"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"created_at"`
}

// Presence is how many viewers of the slot one chat-socket node holds; nodes repeat it now
// and then, so a count that stops coming is dropped.
type Presence struct {
	Node    string `json:"node"`
	Viewers int    `json:"viewers"`
}

// FromStoreEvent converts a stored event.
func FromStoreEvent(e store.VibeEvent) *Event {
	return &Event{
		Seq:          e.Seq,
		EventID:      e.EventID,
		EventType:    e.EventType,
		Visibility:   e.Visibility,
		Withheld:     e.Withheld,
		Retracted:    e.RetractedAt != nil,
		LiveStreamID: e.LiveStreamID,
		ReceivedAt:   e.ReceivedAt,
		Payload:      e.Payload,
	}
}

// FromStoreChat converts a stored chat message.
func FromStoreChat(m store.ChatMessage) *Chat {
	return &Chat{ID: m.ID, UserID: m.UserID, Username: m.Username, Text: m.Text, CreatedAt: m.CreatedAt}
}

// Publish encodes m and publishes it on its slot's channel.
func Publish(ctx context.Context, b broker.Broker, m Message) error {
	return PublishAll(ctx, b, []Message{m})[0]
}

// PublishAll encodes msgs and publishes them in order, in one round trip when the broker
// can, and returns one error per message.
func PublishAll(ctx context.Context, b broker.Broker, msgs []Message) []error {
	errs := make([]error, len(msgs))
	var send []broker.Outgoing
	var index []int
	for i, m := range msgs {
		payload, err := json.Marshal(m)
		if err != nil {
			errs[i] = fmt.Errorf("encode slot message: %w", err)
			continue
		}
		send = append(send, broker.Outgoing{Channel: Channel(m.SlotID), Payload: payload})
		index = append(index, i)
	}
	for j, err := range broker.PublishAll(ctx, b, send) {
		if err != nil {
			errs[index[j]] = fmt.Errorf("publish slot message: %w", err)
		}
	}
	return errs
}

// Decode parses a payload received on a slot channel.
func Decode(payload []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(payload, &m); err != nil {
		return Message{}, fmt.Errorf("decode slot message: %w", err)
	}
	if m.Kind == "" || m.SlotID <= 0 {
		return Message{}, fmt.Errorf("decode slot message: missing kind or slot")
	}
	return m, nil
}
