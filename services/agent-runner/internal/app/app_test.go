package app

import (
	"log/slog"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/platform"
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
