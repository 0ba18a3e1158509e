// Package config loads openvibe.json: JSONC files with ${ENV_VAR} references, layered
// global (~/.config/openvibe/openvibe.json) → project (openvibe.json in the project root) →
// environment (OPENVIBE_CONFIG, OPENVIBE_CONFIG_CONTENT, OPENVIBE_MODEL). Later layers win;
// objects merge recursively; the lists that collect entries concatenate (instructions and
// agents' disabled_tools; permission rules with the later layer's first, since the first match
// wins and the more specific level decides); other lists, such as an MCP server's command,
// are values the later layer replaces.
package config

import (
	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/permission"
)

// Config is the merged configuration.
type Config struct {
	Schema       string                    `json:"$schema,omitempty"`
	Model        string                    `json:"model,omitempty"`
	Instructions []string                  `json:"instructions,omitempty"`
	Agent        map[string]agent.Override `json:"agent,omitempty"`
	Provider     map[string]Provider       `json:"provider,omitempty"`
	Permission   []permission.Rule         `json:"permission,omitempty"`
	MCP          map[string]MCPServer      `json:"mcp,omitempty"`
}

// Provider configures one model provider. Its name is the key in "provider"; Type defaults
// to the name for the known providers (openai, anthropic, google, openrouter, azure,
// bedrock) and must be set otherwise ("openai-compatible" for llama.cpp, Ollama, vLLM…).
type Provider struct {
	Type    string            `json:"type,omitempty"`
	BaseURL string            `json:"base_url,omitempty"`
	APIKey  string            `json:"api_key,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Options holds provider-specific settings: api_version (azure), region (bedrock),
	// script (scripted: a JSON file of steps).
	Options map[string]string `json:"options,omitempty"`
	Models  map[string]Model  `json:"models,omitempty"`
}

// Model holds per-model settings.
type Model struct {
	// Cost in dollars per million tokens.
	Cost          Cost  `json:"cost,omitempty"`
	MaxTokens     int64 `json:"max_tokens,omitempty"`
	ContextWindow int64 `json:"context_window,omitempty"`
}

// Cost is a model's price list.
type Cost struct {
	Input      float64 `json:"input,omitempty"`
	Output     float64 `json:"output,omitempty"`
	CacheRead  float64 `json:"cache_read,omitempty"`
	CacheWrite float64 `json:"cache_write,omitempty"`
}

// MCPServer configures an MCP server (local stdio command or remote URL).
type MCPServer struct {
	Type    string            `json:"type"` // local or remote
	Command []string          `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Transport of a remote server: "http" (streamable HTTP, the default) or "sse".
	Transport string `json:"transport,omitempty"`
	Enabled   *bool  `json:"enabled,omitempty"`
	// Timeout in milliseconds for connecting and for each call (default 60000).
	Timeout int `json:"timeout,omitempty"`
}
