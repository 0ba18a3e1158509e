package chat

import (
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/platform"
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
	require.NoError(t, Config{}.withDefaults().Validate(), "zero values take the defaults")
}
