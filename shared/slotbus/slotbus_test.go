package slotbus

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/memory"
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
