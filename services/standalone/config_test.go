package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/testenv"
)

// TestConfigDefaults: with nothing set the standalone binary runs every service with its
// defaults, which are the ones docs/operations.md gives.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	var c config
	require.NoError(t, platform.LoadConfig(&c, func(string) string { return "" }), "the standalone binary needs no variable")
	require.Equal(t, config{
		Common:   platform.Defaults[platform.Common](),
		DataDir:  "./data",
		Backends: platform.Defaults[backends.Config](),
		Gateway:  gateway.DefaultConfig(),
		Chat:     chat.DefaultConfig(),
		API:      api.DefaultConfig(),
		Agent:    agentConfig{Sandbox: "auto"},
	}, c)
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	undocumented := testenv.RequireDocumentedDefaults(t, &c, filepath.Join(root, "docs", "operations.md"))
	require.Empty(t, undocumented, "variables missing from docs/operations.md")
}

// TestConfigReportsEveryService: a bad setting of any service is reported at load, with the
// others.
func TestConfigReportsEveryService(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"OPENVIBE_GATEWAY_WRITERS":         "0",
		"OPENVIBE_CHAT_SEND_QUEUE_BYTES":   "10",
		"OPENVIBE_API_FEED_MAX_AGE":        "1h",
		"OPENVIBE_AGENT_SANDBOX":           "docker",
		"OPENVIBE_CHAT_MAX_BATCH_BYTES":    "12",
		"OPENVIBE_GATEWAY_SETTINGS_TTL":    "5s",
		"OPENVIBE_API_USER_WRITE_BURST":    "-1",
		"OPENVIBE_JWT_SECRET":              "short",
		"OPENVIBE_CHAT_REFRESH_INTERVAL":   "0s",
		"OPENVIBE_GATEWAY_PUBLISH_WORKERS": "2000",
	}
	var c config
	err := platform.LoadConfig(&c, func(k string) string { return env[k] })
	var ce *platform.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Len(t, ce.Problems, len(env), err.Error())
	for k := range env {
		require.ErrorContains(t, err, k+":")
	}
}
