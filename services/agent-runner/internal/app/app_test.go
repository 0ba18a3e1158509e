package app

import (
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/testenv"
)

func TestConfigValidateReportsEveryProblem(t *testing.T) {
	cfg := &Config{}
	err := platform.LoadConfig(cfg, func(k string) string {
		return map[string]string{"OPENVIBE_AGENT_SANDBOX": "docker"}[k]
	})
	require.Error(t, err)
	for _, want := range []string{"OPENVIBE_DATABASE_URL", "OPENVIBE_JWT_SECRET", "OPENVIBE_AGENT_SANDBOX"} {
		require.Contains(t, err.Error(), want)
	}
	cfg = &Config{}
	require.NoError(t, platform.LoadConfig(cfg, func(k string) string {
		return map[string]string{"OPENVIBE_DATABASE_URL": "/tmp/x.db", "OPENVIBE_JWT_SECRET": strings.Repeat("s", 32)}[k]
	}))
	require.Equal(t, "data/agent.db", cfg.Agent.Database)
	require.Equal(t, "auto", cfg.Agent.Sandbox)
	require.Equal(t, "/agent", cfg.Agent.Prefix)
}

// TestConfigDefaults: the defaults, with the two settings that have none, are valid and are
// the ones docs/agent-runner.md gives; what it leaves out are the settings every service has,
// which docs/operations.md lists (and the other services' defaults tests check).
func TestConfigDefaults(t *testing.T) {
	c := platform.Defaults[Config]()
	c.DatabaseURL, c.JWTSecret = "/tmp/accounts.db", strings.Repeat("s", 32)
	require.NoError(t, c.Validate())
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	missing := testenv.RequireDocumentedDefaults(t, &c, filepath.Join(root, "docs", "agent-runner.md"))
	require.ElementsMatch(t, []string{"OPENVIBE_LOG_LEVEL", "OPENVIBE_LOG_FORMAT", "OPENVIBE_SHUTDOWN_TIMEOUT",
		"OPENVIBE_DRAIN_DELAY", "OPENVIBE_HTTP_BODY_LIMIT", "OPENVIBE_MIGRATE_ON_START"}, missing)
}

func TestSandboxSelection(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	path, err := Sandbox(t.Context(), "none", log)
	require.NoError(t, err)
	require.Empty(t, path)
	auto, err := Sandbox(t.Context(), "auto", log)
	require.NoError(t, err, "auto never fails; it falls back to no sandbox")
	if _, lookErr := exec.LookPath("bwrap"); lookErr != nil {
		require.Empty(t, auto)
		_, err := Sandbox(t.Context(), "bwrap", log)
		require.Error(t, err, "an explicit bwrap sandbox must not silently fall back")
	}
}
