package gateway

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/vibetest"
)

// TestAckFollowsTheRule: an ack's delivered is true exactly when viewers see the event now or
// once its delay has passed (vibe.WhyHidden), for every case of the rule: for a new event,
// which the gateway stores withheld when the slot is paused or disabled, and for an event
// sent again, whose stored row may have been withheld or retracted since, or be old enough
// to be past its delay.
func TestAckFollowsTheRule(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	for i, c := range vibetest.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			bs, err := vibe.BroadcastWithSettings(json.RawMessage(`{}`), c.Settings)
			require.NoError(t, err)
			ms, err := h.st.CreateManagedStream(t.Context(), alice.ID, fmt.Sprintf("rule-%d", i), "Rule", bs)
			require.NoError(t, err)
			ls, _, err := h.st.StartLiveStream(t.Context(), ms.ID, time.Now())
			require.NoError(t, err)
			ms.LiveStreamID = &ls.ID
			ctx := h.ctx()
			conn := h.connect(tok, ms, "key")
			send := func(id string) vibe.Ack {
				t.Helper()
				require.NoError(t, conn.Send(ctx, eventMsg("key", id, c.Event.EventType, map[string]any{"visibility": c.Event.Visibility})))
				return ack(t, must(conn.Next(ctx)))
			}

			if !c.Event.Withheld && !c.Event.Retracted {
				a := send("new")
				require.False(t, a.Duplicate)
				require.Equal(t, c.Want.Coming(), a.Delivered, "a new event")
			}

			sess, err := h.st.VibeSessionByKey(t.Context(), ms.ID, "key")
			require.NoError(t, err)
			e := c.At(time.Now())
			_, err = h.st.InsertVibeEvents(t.Context(), []store.NewVibeEvent{{
				ManagedStreamID: ms.ID, SessionID: sess.ID, EventID: "stored", EventType: e.EventType,
				Visibility: e.Visibility, LiveStreamID: ms.LiveStreamID, Payload: json.RawMessage(`{}`),
				ReceivedAt: e.ReceivedAt, Withheld: e.Withheld,
			}})
			require.NoError(t, err)
			if e.Retracted {
				_, err = h.st.RetractVibeEvent(t.Context(), ms.ID, "stored", alice.ID, time.Now())
				require.NoError(t, err)
			}
			a := send("stored")
			require.True(t, a.Duplicate)
			require.Equal(t, c.Want.Coming(), a.Delivered, "the stored event sent again")
		})
	}
}

// TestGatewayHearsOnlyControlMessages: the gateway subscribes to its slots' control channels
// only, so the events it publishes and the chat never come back to it; settings reach it
// there whatever the order of their fields.
func TestGatewayHearsOnlyControlMessages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")
	require.True(t, ack(t, sendEvent(t, ctx, c, "key", "ev-1")).Delivered)
	require.Equal(t, []string{slotbus.ControlChannel(ms.ID)}, h.br.channels())

	paused := vibe.DefaultSettings()
	paused.Paused = 1
	raw, err := json.Marshal(paused)
	require.NoError(t, err)
	// Fields in another order than slotbus writes them.
	msg := []byte(fmt.Sprintf(`{"settings":%s,"slot_id":%d,"kind":"settings"}`, raw, ms.ID))
	require.NoError(t, h.br.Publish(ctx, slotbus.Channel(ms.ID), msg))
	require.True(t, ack(t, sendEvent(t, ctx, c, "key", "ev-2")).Delivered, "the event channel is not the gateway's")
	require.NoError(t, h.br.Publish(ctx, slotbus.ControlChannel(ms.ID), msg))
	require.Eventually(t, func() bool {
		return !ack(t, sendEvent(t, ctx, c, "key", fmt.Sprintf("ev-%d", time.Now().UnixNano()))).Delivered
	}, 5*time.Second, 20*time.Millisecond, "settings on the control channel apply")
}
