package runner

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/llm/fantasyllm"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

const (
	defaultCloseWait   = 10 * time.Second
	maxInstructionSize = 64 << 10
)

// settings loads the effective configuration of a project.
func (r *Runner) settings(_ context.Context, worktree string) (engine.Settings, error) {
	cfg, err := r.loader.Load(worktree)
	if err != nil {
		return engine.Settings{}, err
	}
	agents, err := agent.Resolve(cfg.Agent)
	if err != nil {
		return engine.Settings{}, err
	}
	model := cfg.Model
	if model == "" {
		model = r.d.DefaultModel
	}
	return engine.Settings{Model: model, Agents: agents, Rules: cfg.Permission,
		Instructions: instructions(worktree, cfg.Instructions)}, nil
}

// instructions reads AGENTS.md in the project root and the configured instruction files
// (relative to the project), each capped in size; files outside the project are skipped.
func instructions(worktree string, files []string) string {
	if worktree == "" {
		return ""
	}
	var b strings.Builder
	for _, f := range append([]string{"AGENTS.md"}, files...) {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(worktree, p)
		}
		p = filepath.Clean(p)
		if !tool.Within(worktree, p) {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if len(data) > maxInstructionSize {
			data = data[:maxInstructionSize]
		}
		fmt.Fprintf(&b, "Instructions from %s:\n%s\n\n", f, strings.ToValidUTF8(string(data), ""))
	}
	return strings.TrimSpace(b.String())
}

// modelCache builds each configured provider once (rebuilt when its config changes).
type modelCache struct {
	r  *Runner
	mu sync.Mutex
	// key: provider name + hash of its config
	backends map[string]llm.Backend
}

func newModelCache(r *Runner) *modelCache {
	return &modelCache{r: r, backends: map[string]llm.Backend{}}
}

// resolve turns "provider/model" into a backend and the model's settings.
func (m *modelCache) resolve(worktree, name string) (engine.Model, error) {
	prov, modelID, ok := strings.Cut(name, "/")
	if !ok || prov == "" || modelID == "" {
		if name == "" {
			return engine.Model{}, fmt.Errorf("no model configured: set \"model\" in openvibe.json or OPENVIBE_MODEL (provider/model)")
		}
		return engine.Model{}, fmt.Errorf("model %q: want provider/model", name)
	}
	if m.r.d.Backend != nil {
		out := engine.Model{Backend: m.r.d.Backend, ID: modelID}
		if cfg, err := m.r.loader.Load(""); err == nil {
			mc := cfg.Provider[prov].Models[modelID]
			out.MaxTokens, out.ContextWindow = mc.MaxTokens, mc.ContextWindow
		}
		return out, nil
	}
	// Providers come from the trusted layers only (global file and environment); a project
	// file may configure them only when project files are trusted.
	wt := ""
	if m.r.d.TrustProject {
		wt = worktree
	}
	cfg, err := m.r.loader.Load(wt)
	if err != nil {
		return engine.Model{}, err
	}
	pc, configured := cfg.Provider[prov]
	mc := pc.Models[modelID]
	out := engine.Model{ID: modelID, InputPrice: mc.Cost.Input, OutputPrice: mc.Cost.Output,
		CacheReadPrice: mc.Cost.CacheRead, CacheWritePrice: mc.Cost.CacheWrite, MaxTokens: mc.MaxTokens, ContextWindow: mc.ContextWindow}
	typ := pc.Type
	if typ == "" {
		typ = prov
	}
	if !configured && fantasyllm.KeyEnv[typ] == "" {
		return engine.Model{}, fmt.Errorf("model %q: unknown provider %q; configure it under \"provider\" in openvibe.json", name, prov)
	}
	b, err := m.backend(prov, typ, pc)
	if err != nil {
		return engine.Model{}, err
	}
	out.Backend = b
	return out, nil
}

func (m *modelCache) backend(name, typ string, pc config.Provider) (llm.Backend, error) {
	raw, _ := json.Marshal(pc)
	key := fmt.Sprintf("%s:%x", name, sha256.Sum256(raw))
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.backends[key]; ok {
		return b, nil
	}
	var b llm.Backend
	if typ == "scripted" {
		steps, err := llm.LoadScript(pc.Options["script"])
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", name, err)
		}
		b = llm.NewScripted(llm.ByHistory(steps...)).KeepRequests(0)
	} else {
		key := pc.APIKey
		if key == "" && fantasyllm.KeyEnv[typ] != "" {
			key = m.r.d.Getenv(fantasyllm.KeyEnv[typ])
		}
		p, err := fantasyllm.NewProvider(fantasyllm.ProviderConfig{Name: name, Type: typ, BaseURL: pc.BaseURL,
			APIKey: key, Headers: pc.Headers, Options: pc.Options})
		if err != nil {
			return nil, err
		}
		b = fantasyllm.New(p, fantasyllm.Options{})
	}
	m.backends[key] = b
	return b, nil
}
