package gateway

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/testenv"
)

func TestConfigFromEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"OPENVIBE_GATEWAY_ORIGIN_PATTERNS":           "studio.openvibe.live,*.example.org",
		"OPENVIBE_GATEWAY_ALLOW_LEGACY_STREAM_SCOPE": "false",
		"OPENVIBE_GATEWAY_WRITERS":                   "4",
		"OPENVIBE_GATEWAY_BATCH_MAX_DELAY":           "2ms",
	}
	var c Config
	require.NoError(t, platform.LoadConfig(&c, func(k string) string { return env[k] }))
	want := DefaultConfig()
	want.OriginPatterns = []string{"studio.openvibe.live", "*.example.org"}
	want.AllowLegacyStreamScope, want.Writers, want.BatchMaxDelay = false, 4, 2*time.Millisecond
	require.Equal(t, want, c, "every variable not set keeps its default")
}

func TestConfigValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	c := DefaultConfig()
	c.MaxMessageBytes, c.SettingsTTL, c.Writers = 10, 2*time.Second, 0
	err := c.Validate()
	require.ErrorContains(t, err, "OPENVIBE_GATEWAY_MAX_MESSAGE_BYTES")
	require.ErrorContains(t, err, "OPENVIBE_GATEWAY_SETTINGS_TTL: must be at most 1s")
	require.ErrorContains(t, err, "OPENVIBE_GATEWAY_WRITERS")
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
	require.ErrorContains(t, err, "gateway: Store is required")
	for _, v := range []string{"OPENVIBE_GATEWAY_MAX_MESSAGE_BYTES", "OPENVIBE_GATEWAY_CONN_RATE", "OPENVIBE_GATEWAY_WRITERS", "OPENVIBE_GATEWAY_PUBLISH_WORKERS"} {
		require.ErrorContains(t, err, v)
	}
	_, err = New(Deps{Config: DefaultConfig()})
	require.NotContains(t, err.Error(), "OPENVIBE_GATEWAY_")
}
