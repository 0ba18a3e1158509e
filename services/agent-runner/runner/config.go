package runner

import (
	"cmp"
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/llm/fantasyllm"
	"openvibe.live/backend/services/agent-runner/internal/project"
)

// worktreeParam is the project of ?directory= (confined to the caller's workspace), or "".
func (r *Runner) worktreeParam(c echo.Context) (string, error) {
	dir := c.QueryParam("directory")
	if dir == "" {
		return "", nil
	}
	root := r.root(principal(c).UserID)
	if root == "" && dir != "" {
		info, err := project.Detect(dir, "")
		if err != nil {
			return "", r.badRequest(c, err)
		}
		return info.Worktree, nil
	}
	s, err := r.engine.CheckDir(dir, root)
	if err != nil {
		return "", r.badRequest(c, err)
	}
	info, err := project.Detect(s, root)
	if err != nil {
		return "", r.badRequest(c, err)
	}
	return info.Worktree, nil
}

func (r *Runner) listAgents(c echo.Context) error {
	wt, err := r.worktreeParam(c)
	if err != nil {
		return err
	}
	st, err := r.settings(c.Request().Context(), wt)
	if err != nil {
		return r.badRequest(c, err)
	}
	out := make([]agent.Agent, 0, len(st.Agents))
	for _, a := range st.Agents {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return c.JSON(http.StatusOK, out)
}

// ToolView describes a tool to clients.
type ToolView struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Kind        string         `json:"kind"`
	Schema      map[string]any `json:"schema"`
}

func (r *Runner) listTools(c echo.Context) error {
	var out []ToolView
	for _, t := range r.tools.All() {
		out = append(out, ToolView{Name: t.Name(), Description: t.Description(), Kind: string(t.Kind()), Schema: t.Schema()})
	}
	return c.JSON(http.StatusOK, out)
}

func (r *Runner) getConfig(c echo.Context) error {
	wt, err := r.worktreeParam(c)
	if err != nil {
		return err
	}
	cfg, err := r.loader.Load(wt)
	if err != nil {
		return r.badRequest(c, err)
	}
	redacted := *cfg
	redacted.Provider = map[string]config.Provider{}
	for name, p := range cfg.Provider {
		if p.APIKey != "" {
			p.APIKey = "[redacted]"
		}
		if len(p.Headers) > 0 {
			h := map[string]string{}
			for k := range p.Headers {
				h[k] = "[redacted]"
			}
			p.Headers = h
		}
		redacted.Provider[name] = p
	}
	redacted.MCP = map[string]config.MCPServer{}
	for name, s := range cfg.MCP {
		s.Env, s.Headers = redactMap(s.Env), redactMap(s.Headers)
		redacted.MCP[name] = s
	}
	if redacted.Model == "" {
		redacted.Model = r.d.DefaultModel
	}
	return c.JSON(http.StatusOK, redacted)
}

func redactMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := map[string]string{}
	for k := range m {
		out[k] = "[redacted]"
	}
	return out
}

// ProviderView describes a configured or built-in provider.
type ProviderView struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Configured bool     `json:"configured"`
	HasKey     bool     `json:"has_key"`
	Models     []string `json:"models"`
}

func (r *Runner) listProviders(c echo.Context) error {
	cfg, err := r.loader.Load("")
	if err != nil {
		return r.badRequest(c, err)
	}
	byName := map[string]ProviderView{}
	for typ, env := range fantasyllm.KeyEnv {
		byName[typ] = ProviderView{Name: typ, Type: typ, HasKey: r.d.Getenv(env) != "", Models: []string{}}
	}
	for name, p := range cfg.Provider {
		typ := p.Type
		if typ == "" {
			typ = name
		}
		v := ProviderView{Name: name, Type: typ, Configured: true, Models: []string{}}
		v.HasKey = p.APIKey != "" || (fantasyllm.KeyEnv[typ] != "" && r.d.Getenv(fantasyllm.KeyEnv[typ]) != "")
		for m := range p.Models {
			v.Models = append(v.Models, m)
		}
		sort.Strings(v.Models)
		byName[name] = v
	}
	out := make([]ProviderView, 0, len(byName))
	for _, v := range byName {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return c.JSON(http.StatusOK, map[string]any{"providers": out, "default": cmp.Or(cfg.Model, r.d.DefaultModel)})
}
