package runner

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/livepublish"
)

// TestEveryEventTypeIsDocumented: each event type a stream can carry has its row in
// docs/agent-runner.md.
func TestEveryEventTypeIsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../../docs/agent-runner.md")
	require.NoError(t, err)
	for _, typ := range []string{bus.ServerConnected, bus.SessionCreated, bus.SessionUpdated, bus.SessionDeleted,
		bus.SessionStatus, bus.MessageUpdated, bus.PartUpdated, bus.PartDelta, bus.PermissionAsked, bus.PermissionReplied,
		bus.TodoUpdated, bus.SubscriberLagged, livepublish.EventDiff, engine.SessionCompacted, engine.SessionQueued, engine.SessionDequeued, EventReverted, EventUnreverted} {
		documented := false
		for line := range strings.Lines(string(doc)) {
			if strings.HasPrefix(line, "| ") && strings.Contains(line, "`"+typ+"`") {
				documented = true
			}
		}
		require.True(t, documented, "docs/agent-runner.md has no row for %s", typ)
	}
}
