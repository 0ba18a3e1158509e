package chat

import (
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/testenv"
)

func TestConfigFromEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"OPENVIBE_CHAT_ALLOWED_ORIGINS": "openvibe.live, *.openvibe.live",
		"OPENVIBE_CHAT_RESUME_LIMIT":    "200",
	}
	var c Config
	require.NoError(t, platform.LoadConfig(&c, func(k string) string { return env[k] }))
	require.Equal(t, []string{"openvibe.live", " *.openvibe.live"}, c.AllowedOrigins)
	require.Equal(t, 200, c.ResumeLimit)
	want := DefaultConfig()
	want.AllowedOrigins, want.ResumeLimit = c.AllowedOrigins, 200
	require.Equal(t, want, c, "env defaults match DefaultConfig")
}

func TestConfigValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	c := DefaultConfig()
	c.SendQueueBytes, c.ChatRate, c.RoomLinger = 10, 0, -1
	err := c.Validate()
	require.ErrorContains(t, err, "OPENVIBE_CHAT_SEND_QUEUE_BYTES")
	require.ErrorContains(t, err, "OPENVIBE_CHAT_RATE")
	require.ErrorContains(t, err, "OPENVIBE_CHAT_ROOM_LINGER")
}

// TestConfigDefaults: the defaults are valid and are the ones the documentation gives.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c := DefaultConfig()
	testenv.RequireDefaults(t, &c, "operations.md", "protocol.md")
}

// TestNewTakesTheConfigAsGiven: New fills in nothing; a zero Config is refused with every
// problem named, like a bad environment.
func TestNewTakesTheConfigAsGiven(t *testing.T) {
	t.Parallel()
	_, err := New(Deps{})
	require.ErrorContains(t, err, "Store, Broker and Auth are required")
	for _, v := range []string{"OPENVIBE_CHAT_SEND_QUEUE_BYTES", "OPENVIBE_CHAT_WRITE_TIMEOUT", "OPENVIBE_CHAT_RATE", "OPENVIBE_CHAT_MAX_BATCH_BYTES"} {
		require.ErrorContains(t, err, v)
	}
	_, err = New(Deps{Config: DefaultConfig()})
	require.EqualError(t, err, "chat: Store, Broker and Auth are required")
}
