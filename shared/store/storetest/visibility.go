package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/vibetest"
)

// testViewerFeedFollowsTheRule: the public feed's query (store.ViewerFeed) returns exactly the
// events the visibility rule shows, for every event of the rule's cases under the settings of
// every case: the SQL may narrow the rows before the rule, never decide otherwise.
func testViewerFeedFollowsTheRule(t *testing.T, s store.Store) {
	ctx := t.Context()
	f := mkFixture(t, s, "alice")
	now := at(time.Hour)
	cases := vibetest.Cases()
	var batch []store.NewVibeEvent
	for i, c := range cases {
		e := c.At(now)
		ev := f.event(fmt.Sprintf("e%d", i), e.ReceivedAt)
		ev.EventType, ev.Visibility, ev.Withheld = e.EventType, e.Visibility, e.Withheld
		batch = append(batch, ev)
	}
	insert(t, s, batch...)
	for i, c := range cases {
		if c.Event.Retracted {
			_, err := s.RetractVibeEvent(ctx, f.slot.ID, fmt.Sprintf("e%d", i), f.user.ID, now)
			require.NoError(t, err)
		}
	}
	stored := allEvents(t, s, f.slot.ID)
	require.Len(t, stored, len(cases))

	for _, c := range cases {
		var want []int64
		for _, e := range slices.Backward(stored) {
			if vibe.WhyHidden(e.Viewing(), c.Settings, now) == vibe.Shown {
				want = append(want, e.Seq)
			}
		}
		q, ok := store.ViewerFeed(f.slot.ID, c.Settings, now, len(stored)+1)
		if !ok {
			require.Empty(t, want, "settings of %q: viewers see nothing, the rule agrees", c.Name)
			continue
		}
		got, err := s.VibeFeed(ctx, q)
		require.NoError(t, err)
		require.Equal(t, want, seqs(got), "settings of %q", c.Name)
	}
	// And each case's own event under its own settings, as the rule's table says.
	for i, c := range cases {
		require.Equal(t, c.Want, vibe.WhyHidden(stored[i].Viewing(), c.Settings, now), c.Name)
	}
}
