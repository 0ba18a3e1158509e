// Package mcp connects the runner to Model Context Protocol servers and offers their tools to
// the agent. Each configured server is supervised by its own goroutine: it is connected
// (a local subprocess over stdio, or a remote server over streamable HTTP or SSE), its tools
// are listed and added to the tool registry as "<server>_<tool>", and when it crashes, times
// out or drops the connection its tools are withdrawn, the failure is reported in Status, and
// it is reconnected with exponential backoff. A server never takes the agent down: a call to
// a server that is gone fails with a message for the model.
package mcp

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Server types.
const (
	TypeLocal  = "local"
	TypeRemote = "remote"
)

// Remote transports.
const (
	TransportHTTP = "http" // streamable HTTP (the default)
	TransportSSE  = "sse"  // the older HTTP+SSE transport
)

// ServerConfig is one entry of the "mcp" object in openvibe.json:
//
//	"mcp": {
//	  "fs":   {"type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."],
//	           "env": {"DEBUG": "1"}},
//	  "docs": {"type": "remote", "url": "https://mcp.example/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
//	}
type ServerConfig struct {
	Type string `json:"type"`
	// Local: Command is the program and its arguments; Args are appended.
	Command     []string          `json:"command,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Environment map[string]string `json:"env,omitempty"`
	// Remote.
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Transport string            `json:"transport,omitempty"`
	// Enabled defaults to true.
	Enabled *bool `json:"enabled,omitempty"`
	// Timeout in milliseconds for connecting and for each tool call (default 60000).
	Timeout int `json:"timeout,omitempty"`
}

// IsEnabled reports whether the server should be connected.
func (c ServerConfig) IsEnabled() bool { return c.Enabled == nil || *c.Enabled }

func (c ServerConfig) timeout() time.Duration {
	if c.Timeout <= 0 {
		return 60 * time.Second
	}
	return time.Duration(c.Timeout) * time.Millisecond
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// Validate checks one server entry; name is its key in the "mcp" object.
func (c ServerConfig) Validate(name string) error {
	var errs []error
	if !nameRE.MatchString(name) {
		errs = append(errs, fmt.Errorf("mcp.%s: the server name must be 1-32 letters, digits, '_' or '-'", name))
	}
	switch c.Type {
	case TypeLocal:
		if len(c.Command) == 0 || strings.TrimSpace(c.Command[0]) == "" {
			errs = append(errs, fmt.Errorf("mcp.%s.command: a local server needs a command", name))
		}
	case TypeRemote:
		if !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://") {
			errs = append(errs, fmt.Errorf("mcp.%s.url: a remote server needs an http(s) URL", name))
		}
		if c.Transport != "" && c.Transport != TransportHTTP && c.Transport != TransportSSE {
			errs = append(errs, fmt.Errorf("mcp.%s.transport: must be %q or %q", name, TransportHTTP, TransportSSE))
		}
	default:
		errs = append(errs, fmt.Errorf("mcp.%s.type: must be %q or %q", name, TypeLocal, TypeRemote))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("mcp.%s.timeout: must not be negative", name))
	}
	return errors.Join(errs...)
}

var badToolChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// ToolName is the registry name of a server's tool: "<server>_<tool>", with characters
// providers reject replaced by '_' and cut to 64 characters.
func ToolName(server, toolName string) string {
	n := badToolChars.ReplaceAllString(server+"_"+toolName, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}
