package runner

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/llm/fantasyllm"
)

const (
	// catalogTTL is how long a provider's model list is reused.
	catalogTTL = 5 * time.Minute
	// catalogTimeout bounds one provider's model list request.
	catalogTimeout = 5 * time.Second
)

// ModelView is one model a session may use.
type ModelView struct {
	ID       string `json:"id"` // provider/model, what "model" takes
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Configured: listed under provider.<p>.models; Listed: reported by the provider.
	Configured    bool         `json:"configured"`
	Listed        bool         `json:"listed"`
	Default       bool         `json:"default"`
	ContextWindow int64        `json:"context_window,omitempty"`
	MaxTokens     int64        `json:"max_tokens,omitempty"`
	Cost          *config.Cost `json:"cost,omitempty"`
}

// CatalogProvider says whether a provider's own list could be read.
type CatalogProvider struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Listed bool   `json:"listed"`          // its model list was read
	Error  string `json:"error,omitempty"` // why not, when it was tried
}

// ModelCatalog is GET /model's answer.
type ModelCatalog struct {
	Default   string            `json:"default"`
	Models    []ModelView       `json:"models"`
	Providers []CatalogProvider `json:"providers"`
}

// catalogCache keeps each provider's model list for catalogTTL.
type catalogCache struct {
	mu      sync.Mutex
	entries map[string]catalogEntry // provider name + hash of its config
}

type catalogEntry struct {
	ids []string
	err error
	at  time.Time
}

// Models lists the models of the configured providers (the trusted layers, and the
// project's when project files are trusted): those configured under provider.<p>.models and
// those the providers report (OpenAI-style GET /models, Anthropic's /v1/models), fetched
// at most every five minutes unless refresh. Providers with a key in the environment count
// as configured.
func (r *Runner) Models(ctx context.Context, worktree string, refresh bool) (ModelCatalog, error) {
	wt := ""
	if r.d.TrustProject {
		wt = worktree
	}
	cfg, err := r.loader.Load(wt)
	if err != nil {
		return ModelCatalog{}, err
	}
	cat := ModelCatalog{Default: cmp.Or(cfg.Model, r.d.DefaultModel), Models: []ModelView{}, Providers: []CatalogProvider{}}
	providers := map[string]config.Provider{}
	for typ, env := range fantasyllm.KeyEnv {
		if r.d.Getenv(env) != "" {
			providers[typ] = config.Provider{Type: typ}
		}
	}
	for name, p := range cfg.Provider {
		providers[name] = p
	}
	names := slices.Sorted(maps.Keys(providers))
	lists := make([][]string, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { lists[i], errs[i] = r.catalog.list(ctx, r, name, providers[name], refresh) })
	}
	wg.Wait()
	byID := map[string]*ModelView{}
	for i, name := range names {
		p := providers[name]
		cp := CatalogProvider{Name: name, Type: cmp.Or(p.Type, name), Listed: errs[i] == nil && lists[i] != nil}
		if errs[i] != nil {
			cp.Error = errs[i].Error()
		}
		cat.Providers = append(cat.Providers, cp)
		for id, m := range p.Models {
			cost := m.Cost
			byID[name+"/"+id] = &ModelView{ID: name + "/" + id, Provider: name, Model: id, Configured: true,
				ContextWindow: m.ContextWindow, MaxTokens: m.MaxTokens, Cost: &cost}
		}
		for _, id := range lists[i] {
			v := byID[name+"/"+id]
			if v == nil {
				v = &ModelView{ID: name + "/" + id, Provider: name, Model: id}
				byID[v.ID] = v
			}
			v.Listed = true
		}
	}
	if d := byID[cat.Default]; d != nil {
		d.Default = true
	}
	for _, v := range byID {
		cat.Models = append(cat.Models, *v)
	}
	slices.SortFunc(cat.Models, func(a, b ModelView) int { return cmp.Compare(a.ID, b.ID) })
	return cat, nil
}

// list returns the provider's own model list (nil when it has none to ask for), cached.
func (cc *catalogCache) list(ctx context.Context, r *Runner, name string, p config.Provider, refresh bool) ([]string, error) {
	raw, _ := json.Marshal(p)
	key := fmt.Sprintf("%s:%x", name, sha256.Sum256(raw))
	cc.mu.Lock()
	e, ok := cc.entries[key]
	cc.mu.Unlock()
	if ok && !refresh && time.Since(e.at) < catalogTTL {
		return e.ids, e.err
	}
	ids, err := fetchModels(ctx, r, name, p)
	cc.mu.Lock()
	cc.entries[key] = catalogEntry{ids: ids, err: err, at: time.Now()}
	cc.mu.Unlock()
	return ids, err
}

// fetchModels asks a provider for its models: the OpenAI-style list for openai, openrouter
// and openai-compatible servers (llama.cpp, Ollama, vLLM…), Anthropic's for anthropic;
// other types have no list (nil, nil).
func fetchModels(ctx context.Context, r *Runner, name string, p config.Provider) ([]string, error) {
	typ := cmp.Or(p.Type, name)
	key := p.APIKey
	if key == "" && fantasyllm.KeyEnv[typ] != "" {
		key = r.d.Getenv(fantasyllm.KeyEnv[typ])
	}
	base := strings.TrimSuffix(p.BaseURL, "/")
	header := http.Header{}
	switch typ {
	case "openai", "openrouter", "openai-compatible":
		base = cmp.Or(base, map[string]string{"openai": "https://api.openai.com/v1", "openrouter": "https://openrouter.ai/api/v1"}[typ])
		if base == "" {
			return nil, fmt.Errorf("no base_url")
		}
		if key != "" {
			header.Set("Authorization", "Bearer "+key)
		}
	case "anthropic":
		base = cmp.Or(base, "https://api.anthropic.com/v1")
		header.Set("x-api-key", key)
		header.Set("anthropic-version", "2023-06-01")
	default:
		return nil, nil
	}
	for k, v := range p.Headers {
		header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(ctx, catalogTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, err
	}
	req.Header = header
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list models: HTTP %d", res.StatusCode)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	ids := []string{}
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}

// listModels answers GET /model?directory=&refresh=.
func (r *Runner) listModels(c echo.Context) error {
	wt, err := r.worktreeParam(c)
	if err != nil {
		return err
	}
	cat, err := r.Models(c.Request().Context(), wt, c.QueryParam("refresh") == "true")
	if err != nil {
		return r.badRequest(c, err)
	}
	return c.JSON(http.StatusOK, cat)
}
