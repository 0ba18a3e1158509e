package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/api/api"
)

// With a retention set, the service's worker deletes events older than it and keeps the rest.
func TestRetentionPrunesOldEvents(t *testing.T) {
	backends(t, func(t *testing.T, newEnv func(...envOption) *env) {
		e := newEnv(withConfig(func(c *api.Config) { c.EventRetention = 24 * time.Hour; c.RetentionInterval = time.Hour }))
		ada := e.register("ada")
		slot := e.createSlot(ada.Token, "camp-code")
		e.storeEvents(slot.ID, seedEvent{id: "old-1", typ: "prompt"}, seedEvent{id: "old-2", typ: "response"})
		e.clock.Advance(25 * time.Hour)
		e.storeEvents(slot.ID, seedEvent{id: "new-1", typ: "prompt"})

		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- e.svc.Run(ctx) }()
		require.Eventually(t, func() bool {
			evs, err := e.store.VibeEventsBefore(t.Context(), slot.ID, 0, 10)
			require.NoError(t, err)
			return len(evs) == 1 && evs[0].EventID == "new-1"
		}, 10*time.Second, 20*time.Millisecond)
		cancel()
		require.NoError(t, <-done)
	})
}

func TestRetentionConfig(t *testing.T) {
	t.Parallel()
	c := api.DefaultConfig()
	require.NoError(t, c.Validate(), "keeping events forever is the default")
	c.EventRetention = time.Minute
	require.ErrorContains(t, c.Validate(), "OPENVIBE_API_EVENT_RETENTION")
	c.EventRetention = 720 * time.Hour
	require.NoError(t, c.Validate())
}
