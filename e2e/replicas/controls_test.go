package replicas

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

// slotFixture is one slot with a publisher and a viewer on each chat-socket replica.
type slotFixture struct {
	t       *testing.T
	c       *cluster.Cluster
	owner   *cluster.Owner
	slot    cluster.Slot
	pub     *cluster.Publisher
	viewers []*cluster.Viewer
}

func newSlotFixture(t *testing.T, c *cluster.Cluster, owner *cluster.Owner, i int, delayMS int) *slotFixture {
	t.Helper()
	f := &slotFixture{t: t, c: c, owner: owner, slot: owner.Slots[i]}
	for r := range c.Chats {
		v := cluster.DialViewer(t, c.ChatAddrs(r)[:1], owner.User.Username, f.slot.Slug, cluster.ViewerOptions{})
		require.True(t, v.WaitWelcome(10*time.Second, 1))
		f.viewers = append(f.viewers, v)
	}
	if delayMS > 0 {
		owner.Settings(f.slot.ID, map[string]any{"delay_ms": delayMS})
		for _, v := range f.viewers {
			_, ok := v.WaitFor(5*time.Second, func(s cluster.Snapshot) bool { return s.Settings >= 1 })
			require.True(t, ok, "the settings change reached every replica's viewer")
		}
		// The gateway re-reads settings at most a second later.
		time.Sleep(1100 * time.Millisecond)
	}
	f.pub = cluster.NewPublisher(t, cluster.PublisherOptions{Server: c.GatewayLB.URL(), Token: owner.Token, Slot: f.slot})
	return f
}

// send publishes one event and waits for its ack.
func (f *slotFixture) send(summary string) (string, time.Time) {
	f.t.Helper()
	id, err := f.pub.Send(summary)
	require.NoError(f.t, err)
	ack, ok := f.pub.WaitAck(10*time.Second, id)
	require.True(f.t, ok, "event %s acked", id)
	require.True(f.t, ack.Delivered, "ack says delivered")
	return id, time.Now()
}

func (f *slotFixture) feedIDs() []string {
	var ids []string
	for _, e := range f.owner.MustFeed(f.owner.User.Username, f.slot.Slug) {
		ids = append(ids, e.EventID)
	}
	return ids
}

// TestOwnerControls runs retract and panic against two chat-socket replicas.
func TestOwnerControls(t *testing.T) {
	c := cluster.Start(t, bins, cluster.Options{Gateways: 1, Chats: 2, APIs: 2})
	owner := c.NewOwner("controls", 3)

	// delay_ms=3000: an event retracted one second after its ack reaches no viewer on either
	// replica and never shows in the public feed; one sent beside it is delivered.
	t.Run("retract inside the delay window", func(t *testing.T) {
		f := newSlotFixture(t, c, owner, 0, 3000)
		kept, _ := f.send("kept")
		gone, ackAt := f.send("retracted while pending")
		time.Sleep(time.Until(ackAt.Add(time.Second)))
		owner.Retract(f.slot.ID, gone)
		retractedAfter := time.Since(ackAt)
		// Watch the feed through the rest of the window and past it.
		for until := ackAt.Add(5 * time.Second); time.Now().Before(until); time.Sleep(250 * time.Millisecond) {
			require.NotContains(t, f.feedIDs(), gone, "the retracted event appeared in the public feed")
		}
		for i, v := range f.viewers {
			snap, ok := v.WaitEvents(5*time.Second, map[string]bool{kept: true})
			require.True(t, ok, "replica %d delivered the kept event", i+1)
			require.NotContains(t, snap.EventIDs(), gone, "replica %d delivered the retracted event", i+1)
			first := snap.Events[0].At
			require.GreaterOrEqual(t, first.Sub(ackAt), 1500*time.Millisecond, "delivery honoured the delay")
		}
		require.Contains(t, f.feedIDs(), kept)
		require.NotContains(t, f.feedIDs(), gone)
		t.Logf("retracted %.2fs after its ack: no viewer on either replica and no feed read saw it", retractedAfter.Seconds())
	})

	// An event retracted after delivery leaves the feed, and viewers on both replicas get
	// vibe-coding.retract for it.
	t.Run("retract after delivery", func(t *testing.T) {
		f := newSlotFixture(t, c, owner, 1, 0)
		id, _ := f.send("delivered, then retracted")
		for i, v := range f.viewers {
			_, ok := v.WaitEvents(5*time.Second, map[string]bool{id: true})
			require.True(t, ok, "replica %d delivered the event", i+1)
		}
		require.Eventually(t, func() bool { return slices.Contains(f.feedIDs(), id) }, 5*time.Second, 100*time.Millisecond)
		at := time.Now()
		owner.Retract(f.slot.ID, id)
		require.NotContains(t, f.feedIDs(), id, "the feed drops a retracted event at once")
		var slowest time.Duration
		for i, v := range f.viewers {
			_, ok := v.WaitFor(5*time.Second, func(s cluster.Snapshot) bool { return slices.Contains(s.Retracts, id) })
			require.True(t, ok, "replica %d sent vibe-coding.retract", i+1)
			slowest = max(slowest, time.Since(at))
		}
		t.Logf("retract frame on both replicas within %.0fms", slowest.Seconds()*1000)
	})

	// Panic drops three pending events on both replicas and pauses the slot; the publisher
	// then gets delivered:false.
	t.Run("panic", func(t *testing.T) {
		f := newSlotFixture(t, c, owner, 2, 3000)
		pending := map[string]bool{}
		var lastAck time.Time
		for i := range 3 {
			id, at := f.send("pending " + string(rune('a'+i)))
			pending[id], lastAck = true, at
		}
		res := owner.Panic(f.slot.ID)
		require.GreaterOrEqual(t, res.Withheld, int64(3), "panic withheld the pending events")
		// Past every delay window, nothing of it reached a viewer or the feed.
		time.Sleep(time.Until(lastAck.Add(4500 * time.Millisecond)))
		for i, v := range f.viewers {
			snap := v.Snapshot()
			require.Empty(t, snap.Events, "replica %d delivered an event panic dropped", i+1)
			require.GreaterOrEqual(t, snap.Settings, 2, "replica %d told its viewer about the pause", i+1)
		}
		require.Empty(t, f.feedIDs())
		// The gateway now stores but does not deliver.
		time.Sleep(1100 * time.Millisecond)
		id, err := f.pub.Send("after panic")
		require.NoError(t, err)
		ack, ok := f.pub.WaitAck(10*time.Second, id)
		require.True(t, ok)
		require.False(t, ack.Delivered, "the publisher gets delivered:false once the slot is paused")
		for _, h := range owner.History(f.slot.ID) {
			if pending[h.EventID] {
				require.Equal(t, "withheld", h.ViewerStatus, "history marks %s withheld", h.EventID)
				require.Nil(t, h.FirstDeliveredAt)
			}
		}
	})
}
