package slotbus

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/vibe"
)

// TestPublishAll: messages reach their slots' channels in order, and each gets its own
// result.
func TestPublishAll(t *testing.T) {
	b := memory.New(memory.Options{})
	t.Cleanup(func() { _ = b.Close() })
	sub1, err := b.Subscribe(t.Context(), Channel(1))
	require.NoError(t, err)
	sub2, err := b.Subscribe(t.Context(), Channel(2))
	require.NoError(t, err)

	msgs := []Message{
		{Kind: KindEvent, SlotID: 1, Event: &Event{Seq: 1, EventID: "a", Payload: json.RawMessage(`{}`)}},
		{Kind: KindEvent, SlotID: 2, Event: &Event{Seq: 1, EventID: "b", Payload: json.RawMessage(`{}`)}},
		{Kind: KindEvent, SlotID: 1, Event: &Event{Seq: 2, EventID: "c", Payload: json.RawMessage(`{"broken`)}},
		{Kind: KindEvent, SlotID: 1, Event: &Event{Seq: 3, EventID: "d", Payload: json.RawMessage(`{}`)}},
	}
	errs := PublishAll(t.Context(), b, msgs)
	require.Len(t, errs, 4)
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	require.ErrorContains(t, errs[2], "encode slot message", "a payload that is not JSON is refused alone")
	require.NoError(t, errs[3])

	for _, want := range []string{"a", "d"} {
		m, err := Decode((<-sub1.Messages()).Payload)
		require.NoError(t, err)
		require.Equal(t, want, m.Event.EventID)
	}
	m, err := Decode((<-sub2.Messages()).Payload)
	require.NoError(t, err)
	require.Equal(t, "b", m.Event.EventID)

	require.NoError(t, b.Close())
	for _, err := range PublishAll(t.Context(), b, msgs[:1]) {
		require.ErrorIs(t, err, broker.ErrClosed)
	}
}

// TestControlMessagesHaveTheirOwnChannel: settings, retractions and panics go on the slot's
// control channel, events, chat and viewer counts on its event channel; a subscriber of one
// never sees the other's messages.
func TestControlMessagesHaveTheirOwnChannel(t *testing.T) {
	b := memory.New(memory.Options{})
	t.Cleanup(func() { _ = b.Close() })
	events, err := b.Subscribe(t.Context(), Channel(1))
	require.NoError(t, err)
	control, err := b.Subscribe(t.Context(), ControlChannel(1))
	require.NoError(t, err)
	require.NotEqual(t, Channel(1), ControlChannel(1))
	require.NotEqual(t, ControlChannel(1), ControlChannel(11))

	s := vibe.DefaultSettings()
	msgs := []Message{
		{Kind: KindEvent, SlotID: 1, Event: &Event{Seq: 1, EventID: "a", Payload: json.RawMessage(`{}`)}},
		{Kind: KindSettings, SlotID: 1, Settings: &s},
		{Kind: KindChat, SlotID: 1, Chat: &Chat{ID: 1, Text: "hi"}},
		{Kind: KindRetract, SlotID: 1, Retract: &Retract{Seq: 1, EventID: "a"}},
		{Kind: KindPresence, SlotID: 1, Presence: &Presence{Node: "n", Viewers: 2}},
		{Kind: KindPanic, SlotID: 1, Panic: &Panic{At: time.Now(), Since: time.Now().Add(-time.Minute), Settings: s}},
	}
	for _, err := range PublishAll(t.Context(), b, msgs) {
		require.NoError(t, err)
	}
	kinds := func(sub broker.Subscription, n int) []string {
		var out []string
		for range n {
			m, err := Decode((<-sub.Messages()).Payload)
			require.NoError(t, err)
			out = append(out, m.Kind)
		}
		select {
		case m := <-sub.Messages():
			t.Fatalf("unexpected message %s", m.Payload)
		default:
		}
		return out
	}
	require.Equal(t, []string{KindEvent, KindChat, KindPresence}, kinds(events, 3))
	require.Equal(t, []string{KindSettings, KindRetract, KindPanic}, kinds(control, 3))
	for _, m := range msgs {
		require.Equal(t, IsControl(m.Kind), ChannelOf(m) == ControlChannel(1), m.Kind)
	}
}
