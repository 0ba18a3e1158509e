package api_test

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/testenv"
)

func TestConfigFromEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"OPENVIBE_API_USER_WRITES_PER_MINUTE": "0",
		"OPENVIBE_API_TRUST_PROXY_HEADERS":    "true",
		"OPENVIBE_API_EVENT_RETENTION":        "720h",
	}
	var c api.Config
	require.NoError(t, platform.LoadConfig(&c, func(k string) string { return env[k] }))
	want := api.DefaultConfig()
	want.UserWritesPerMinute, want.TrustProxyHeaders, want.EventRetention = 0, true, 720*time.Hour
	require.Equal(t, want, c, "every variable not set keeps its default")
}

// TestConfigDefaults: the defaults are valid and are the ones the documentation gives.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c := api.DefaultConfig()
	testenv.RequireDefaults(t, &c, "operations.md", "api.md")
}

// TestNewTakesTheConfigAsGiven: New fills in nothing and refuses an invalid Config, naming
// every problem. (A zero Config is valid here: it turns every rate limit off.)
func TestNewTakesTheConfigAsGiven(t *testing.T) {
	t.Parallel()
	c := api.DefaultConfig()
	c.IPWriteBurst, c.FeedMaxAge = -1, 2*time.Minute
	_, err := api.New(api.Deps{Registerer: prometheus.NewRegistry(), Config: c})
	require.ErrorContains(t, err, "OPENVIBE_API_IP_WRITE_BURST: must not be negative")
	require.ErrorContains(t, err, "OPENVIBE_API_FEED_MAX_AGE: must be between 0 and 1m")
}

// TestNewDefaultsItsLoggerAndRegistry: like every service, a nil Logger discards and a nil
// Registerer is a private registry.
func TestNewDefaultsItsLoggerAndRegistry(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	st := openStore(t, filepath.Join(t.TempDir(), "openvibe.db"), log)
	t.Cleanup(func() { _ = st.Close() })
	br := openBroker(t, log)
	t.Cleanup(func() { _ = br.Close() })
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: testSecret, Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	svc, err := api.New(api.Deps{Store: st, Broker: br, Auth: auth.NewAuthenticator(st, jwt, nil), JWT: jwt, Config: api.DefaultConfig()})
	require.NoError(t, err)
	e := echo.New()
	svc.Register(e) // the routes and their metrics register without a caller's registry
}
