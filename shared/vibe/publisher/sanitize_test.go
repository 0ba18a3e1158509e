package publisher

import (
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

func TestSanitizesBeforeSending(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, nil)
	cfg := testConfig(g)
	cfg.DisableSanitize = false
	cfg.Hints = vibe.SessionHints{WorkspaceName: "openvibe", WorkspaceRoots: []string{"/home/streamer/src/openvibe"}}
	c, err := Dial(t.Context(), cfg)
	require.NoError(t, err)
	defer closeClient(t, c)

	const awsKey = "AKIAZ7QW3RT5YU8IOPLK"
	const ghToken = "ghp_9aZxY8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8"
	ev := vibe.Event{
		EventType: vibe.TypePrompt,
		Prompt:    &vibe.TextBody{Text: "deploy with AWS_ACCESS_KEY_ID=" + awsKey + " and token " + ghToken + " from /home/streamer/src/openvibe/deploy/run.sh"},
	}
	require.NoError(t, c.Publish(ev))
	require.NoError(t, c.Flush(t.Context()))

	_, envelopes, _, _ := g.snapshot()
	require.Len(t, envelopes, 1)
	wire := string(envelopes[0].Event)
	require.NotContains(t, wire, awsKey)
	require.NotContains(t, wire, ghToken)
	require.NotContains(t, wire, "/home/streamer")
	require.Contains(t, wire, "deploy/run.sh")
}
