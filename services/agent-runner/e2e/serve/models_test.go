package serve

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

type catalog struct {
	Default string `json:"default"`
	Models  []struct {
		ID            string `json:"id"`
		Configured    bool   `json:"configured"`
		Listed        bool   `json:"listed"`
		Default       bool   `json:"default"`
		ContextWindow int64  `json:"context_window"`
		Cost          *struct {
			Input float64 `json:"input"`
		} `json:"cost"`
	} `json:"models"`
	Providers []struct {
		Name   string `json:"name"`
		Listed bool   `json:"listed"`
		Error  string `json:"error"`
	} `json:"providers"`
}

// TestModelCatalogue: GET /model lists the configured providers' models — those configured
// with their prices and window, and those the provider reports — with the default marked;
// a provider that cannot be asked says why; lists are reused for a while unless refresh;
// openvibe models prints the same.
func TestModelCatalogue(t *testing.T) {
	p := newProvider(t)
	entry := p.entry()
	entry["fake"].(map[string]any)["models"].(map[string]any)["m"].(map[string]any)["context_window"] = 128000
	entry["down"] = map[string]any{"type": "openai-compatible", "base_url": "http://" + testenv.FreeAddr(t) + "/v1",
		"models": map[string]any{"local": map[string]any{}}}
	ov := startOpenvibe(t, map[string]any{"model": "fake/m", "provider": entry})
	c := ov.client(t)
	var cat catalog
	c.call(http.MethodGet, "/agent/model", nil, http.StatusOK, &cat)
	require.Equal(t, "fake/m", cat.Default)
	byID := map[string]int{}
	for i, m := range cat.Models {
		byID[m.ID] = i
	}
	require.Contains(t, byID, "fake/m")
	m := cat.Models[byID["fake/m"]]
	require.True(t, m.Configured && m.Listed && m.Default)
	require.EqualValues(t, 128000, m.ContextWindow)
	require.Equal(t, 1.0, m.Cost.Input)
	big := cat.Models[byID["fake/big-model"]]
	require.True(t, big.Listed)
	require.False(t, big.Configured)
	local := cat.Models[byID["down/local"]]
	require.True(t, local.Configured)
	require.False(t, local.Listed)
	for _, pr := range cat.Providers {
		switch pr.Name {
		case "fake":
			require.True(t, pr.Listed)
		case "down":
			require.False(t, pr.Listed)
			require.Contains(t, pr.Error, "list models")
		}
	}
	require.Equal(t, 1, p.listCalls())
	c.call(http.MethodGet, "/agent/model", nil, http.StatusOK, &cat)
	require.Equal(t, 1, p.listCalls(), "the list is reused")
	p.mu.Lock()
	p.models = append(p.models, "new-model")
	p.mu.Unlock()
	c.call(http.MethodGet, "/agent/model?refresh=true", nil, http.StatusOK, &cat)
	require.Equal(t, 2, p.listCalls())
	require.Contains(t, func() []string {
		var ids []string
		for _, m := range cat.Models {
			ids = append(ids, m.ID)
		}
		return ids
	}(), "fake/new-model")

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, openvibeBin, "models", "--db", filepath.Join(t.TempDir(), "cli.db"))
	cmd.Env = []string{"HOME=" + ov.home, "PATH=" + os.Getenv("PATH")}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), errOut.String())
	require.Contains(t, out.String(), "* fake/m  ")
	require.Contains(t, out.String(), "fake/big-model")
	require.Contains(t, out.String(), "128000")
	require.Contains(t, errOut.String(), "down: list models")
}
