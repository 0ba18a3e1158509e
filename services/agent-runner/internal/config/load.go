package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tailscale/hujson"

	"openvibe.live/backend/services/agent-runner/internal/agent"
)

// Layer is one configuration source.
type Layer struct {
	// Name identifies the source in errors (a file path or an environment variable).
	Name string
	Data []byte
	// NoEnv forbids ${ENV_VAR} references and provider/mcp sections (untrusted project files
	// on a shared host must not read the server's secrets or point models elsewhere).
	Untrusted bool
}

// Loader finds and merges the layers for a project.
type Loader struct {
	// Global is the global config file path ("" for none).
	Global string
	// TrustProject allows project files to reference environment variables and configure
	// providers and MCP servers. Off for multi-tenant hosting.
	TrustProject bool
	Getenv       func(string) string
}

// DefaultGlobalPath is ~/.config/openvibe/openvibe.json (XDG_CONFIG_HOME honoured).
func DefaultGlobalPath(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "openvibe", "openvibe.json")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "openvibe", "openvibe.json")
	}
	return ""
}

// Load returns the merged configuration for a project worktree ("" for none).
func (l Loader) Load(worktree string) (*Config, error) {
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var layers []Layer
	add := func(path string, untrusted bool) error {
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read config %s: %w", path, err)
		}
		layers = append(layers, Layer{Name: path, Data: b, Untrusted: untrusted})
		return nil
	}
	if l.Global != "" {
		if err := add(l.Global, false); err != nil {
			return nil, err
		}
	}
	if worktree != "" {
		for _, name := range []string{"openvibe.json", "openvibe.jsonc"} {
			if err := add(filepath.Join(worktree, name), !l.TrustProject); err != nil {
				return nil, err
			}
		}
	}
	if p := getenv("OPENVIBE_CONFIG"); p != "" {
		if err := add(p, false); err != nil {
			return nil, err
		}
	}
	if c := getenv("OPENVIBE_CONFIG_CONTENT"); c != "" {
		layers = append(layers, Layer{Name: "OPENVIBE_CONFIG_CONTENT", Data: []byte(c)})
	}
	if m := getenv("OPENVIBE_MODEL"); m != "" {
		b, _ := json.Marshal(map[string]string{"model": m})
		layers = append(layers, Layer{Name: "OPENVIBE_MODEL", Data: b})
	}
	return Merge(layers, getenv)
}

// Merge parses, checks and merges layers in order.
func Merge(layers []Layer, getenv func(string) string) (*Config, error) {
	merged := map[string]any{}
	for _, l := range layers {
		m, err := parseLayer(l, getenv)
		if err != nil {
			return nil, err
		}
		merged = mergeMaps(merged, m, "")
	}
	b, err := json.Marshal(merged)
	if err != nil {
		return nil, err
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Validate checks what the JSON types do not.
func (c *Config) Validate() error {
	var errs []error
	if c.Model != "" && !strings.Contains(c.Model, "/") {
		errs = append(errs, fmt.Errorf("config: model %q: want provider/model", c.Model))
	}
	for i, r := range c.Permission {
		if err := r.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("config: permission[%d]: %w", i, err))
		}
	}
	if _, err := agent.Resolve(c.Agent); err != nil {
		errs = append(errs, fmt.Errorf("config: %w", err))
	}
	for name, s := range c.MCP {
		if s.Type != "local" && s.Type != "remote" {
			errs = append(errs, fmt.Errorf("config: mcp.%s.type %q: want local or remote", name, s.Type))
		}
	}
	return errors.Join(errs...)
}

func parseLayer(l Layer, getenv func(string) string) (map[string]any, error) {
	std, err := hujson.Standardize(slices.Clone(l.Data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.Name, err)
	}
	// Strict typed decode first, for errors naming line and key.
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	var typed Config
	if err := dec.Decode(&typed); err != nil {
		return nil, fmt.Errorf("%s: %s", l.Name, describe(err, std))
	}
	var m map[string]any
	if err := json.Unmarshal(std, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", l.Name, err)
	}
	if l.Untrusted {
		for _, k := range []string{"provider", "mcp"} {
			if _, ok := m[k]; ok {
				return nil, fmt.Errorf("%s: %q is not allowed in a project config on this server", l.Name, k)
			}
		}
	}
	out, err := expand(m, "", l, getenv)
	if err != nil {
		return nil, err
	}
	expanded, _ := json.Marshal(out)
	var layer Config
	if err := json.Unmarshal(expanded, &layer); err != nil {
		return nil, fmt.Errorf("%s: %w", l.Name, err)
	}
	if err := layer.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", l.Name, err)
	}
	return out.(map[string]any), nil
}

var unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)

// describe turns a decode error into "line N: key: problem".
func describe(err error, data []byte) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Sprintf("line %d: key %q: expected %s, got %s", line(data, te.Offset), te.Field, te.Type, te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("line %d: %v", line(data, se.Offset), se)
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		off := bytes.Index(data, []byte(`"`+m[1]+`"`))
		return fmt.Sprintf("line %d: unknown key %q", line(data, int64(max(off, 0))), m[1])
	}
	return err.Error()
}

func line(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expand substitutes ${ENV_VAR} in every string value.
func expand(v any, path string, l Layer, getenv func(string) string) (any, error) {
	switch x := v.(type) {
	case string:
		var missing []string
		out := envRef.ReplaceAllStringFunc(x, func(ref string) string {
			name := envRef.FindStringSubmatch(ref)[1]
			if l.Untrusted {
				missing = append(missing, "${"+name+"} (environment references are not allowed in project configs on this server)")
				return ""
			}
			val := getenv(name)
			if val == "" {
				missing = append(missing, "${"+name+"} is not set")
			}
			return val
		})
		if len(missing) > 0 {
			return nil, fmt.Errorf("%s: key %q: %s", l.Name, path, strings.Join(missing, ", "))
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e, err := expand(x[k], joinPath(path, k), l, getenv)
			if err != nil {
				return nil, err
			}
			x[k] = e
		}
		return x, nil
	case []any:
		for i := range x {
			e, err := expand(x[i], fmt.Sprintf("%s[%d]", path, i), l, getenv)
			if err != nil {
				return nil, err
			}
			x[i] = e
		}
		return x, nil
	}
	return v, nil
}

func joinPath(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

// listMerge says how a list at path merges with the earlier layer's: the lists that collect
// entries from every level concatenate (instructions, an agent's disabled_tools; permission
// rules with the later layer's first, so the more specific level decides); every other list
// is one value (an MCP command and its args) that the later layer replaces.
func listMerge(path string) (concat, laterFirst bool) {
	switch {
	case path == "instructions":
		return true, false
	case path == "permission":
		return true, true
	case strings.HasPrefix(path, "agent.") && strings.HasSuffix(path, ".permission"):
		return true, true
	case strings.HasPrefix(path, "agent.") && strings.HasSuffix(path, ".disabled_tools"):
		return true, false
	}
	return false, false
}

// mergeMaps merges src over dst: objects recursively, the lists listMerge names
// concatenated, everything else replaced.
func mergeMaps(dst, src map[string]any, path string) map[string]any {
	for k, sv := range src {
		dv, ok := dst[k]
		if !ok {
			dst[k] = sv
			continue
		}
		switch s := sv.(type) {
		case map[string]any:
			if d, ok := dv.(map[string]any); ok {
				dst[k] = mergeMaps(d, s, joinPath(path, k))
				continue
			}
		case []any:
			d, ok := dv.([]any)
			concat, laterFirst := listMerge(joinPath(path, k))
			if ok && concat {
				if laterFirst {
					dst[k] = append(slices.Clone(s), d...)
				} else {
					dst[k] = append(slices.Clone(d), s...)
				}
				continue
			}
		}
		dst[k] = sv
	}
	return dst
}
