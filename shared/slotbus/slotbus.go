// Package slotbus defines the messages the services exchange about one slot over the broker,
// on two channels per slot:
//
//   - the event channel (Channel): stored vibe-coding events (gateway → chat-socket), chat
//     messages and viewer counts (chat-socket ↔ chat-socket);
//   - the control channel (ControlChannel): settings changes, retractions and the panic button
//     (api → gateway and chat-socket).
//
// Publish puts each message on its kind's channel. A chat-socket room subscribes to both, a
// gateway to the control channel only, so it never receives the events and chat it does not
// need. The broker orders messages per channel only: a control message may overtake the
// event it concerns, and consumers must not rely on the order between the two channels (the
// chat-socket room keeps what it needs, such as the seqs retracted before it received them).
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

// Channel is the broker channel of a slot's stored events, chat messages and viewer counts.
func Channel(slotID int64) string { return "openvibe:slot:" + strconv.FormatInt(slotID, 10) }

// ControlChannel is the broker channel of a slot's settings changes, retractions and panic
// button.
func ControlChannel(slotID int64) string { return Channel(slotID) + ":control" }

// IsControl reports whether messages of the kind go on the control channel.
func IsControl(kind string) bool {
	return kind == KindSettings || kind == KindRetract || kind == KindPanic
}

// ChannelOf is the channel m is published on.
func ChannelOf(m Message) string {
	if IsControl(m.Kind) {
		return ControlChannel(m.SlotID)
	}
	return Channel(m.SlotID)
}

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

// Panic pauses the slot and drops every event still pending in a delay queue. Every event
// received since Since is withheld in the store before the message is sent.
type Panic struct {
	At       time.Time     `json:"at"`
	Since    time.Time     `json:"since,omitzero"`
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

// Viewing is what the visibility rule (vibe.WhyHidden) reads of the event.
func (e *Event) Viewing() vibe.Stored {
	return vibe.Stored{EventType: e.EventType, Visibility: e.Visibility, Withheld: e.Withheld,
		Retracted: e.Retracted, ReceivedAt: e.ReceivedAt}
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

// Publish encodes m and publishes it on its slot's channel for its kind.
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
		send = append(send, broker.Outgoing{Channel: ChannelOf(m), Payload: payload})
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
