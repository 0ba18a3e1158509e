package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
)

// config is the standalone binary's configuration: the shared backends (with standalone
// defaults: SQLite in the data directory, a generated JWT secret) and each service's own.
type config struct {
	platform.Common
	DataDir   string `env:"OPENVIBE_DATA_DIR" envDefault:"./data"`
	PublicURL string `env:"OPENVIBE_PUBLIC_URL"`
	Backends  backends.Config
	Gateway   gateway.Config
	Chat      chat.Config
	API       api.Config
	Agent     agentConfig
}

// agentConfig is the agent runner's part of the standalone configuration.
type agentConfig struct {
	Database      string `env:"OPENVIBE_AGENT_DATABASE"`       // default: <data dir>/agent.db
	WorkspaceRoot string `env:"OPENVIBE_AGENT_WORKSPACE_ROOT"` // default: <data dir>/workspaces
	ConfigFile    string `env:"OPENVIBE_AGENT_CONFIG"`
	Model         string `env:"OPENVIBE_AGENT_MODEL"`
	Sandbox       string `env:"OPENVIBE_AGENT_SANDBOX" envDefault:"auto"`
	// PublishAllowedServers are gateways on private addresses that a session link may use
	// beside this server itself.
	PublishAllowedServers []string `env:"OPENVIBE_AGENT_PUBLISH_ALLOWED_SERVERS" envSeparator:","`
}

// Validate reports every problem at once. The database URL and JWT secret may be empty: they
// default into the data directory.
func (c *config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Check(c.DataDir != "", "OPENVIBE_DATA_DIR: must not be empty")
	if c.Backends.RedisURL != "" {
		p.Add(platform.CheckURL("OPENVIBE_REDIS_URL", c.Backends.RedisURL, "redis", "rediss", "unix"))
	}
	if s := c.Backends.JWTSecret; s != "" && len(s) < 32 {
		p.Addf("OPENVIBE_JWT_SECRET: at least 32 bytes (or unset, to generate one in the data directory)")
	}
	p.Add(c.Gateway.Validate())
	p.Add(c.Chat.Validate())
	p.Add(c.API.Validate())
	p.Add(platform.CheckOneOf("OPENVIBE_AGENT_SANDBOX", c.Agent.Sandbox, "auto", "bwrap", "none"))
	return p.Err()
}

// resolve fills the defaults that live in the data directory.
func (c *config) resolve() error {
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	if c.Backends.DatabaseURL == "" {
		c.Backends.DatabaseURL = filepath.Join(c.DataDir, "openvibe.db")
	}
	if c.Backends.JWTSecret == "" {
		secret, err := loadOrCreateSecret(filepath.Join(c.DataDir, "jwt-secret"))
		if err != nil {
			return err
		}
		c.Backends.JWTSecret = secret
	}
	c.Backends.MigrateOnStart = true
	if c.Agent.Database == "" {
		c.Agent.Database = filepath.Join(c.DataDir, "agent.db")
	}
	if c.Agent.WorkspaceRoot == "" {
		c.Agent.WorkspaceRoot = filepath.Join(c.DataDir, "workspaces")
	}
	return os.MkdirAll(c.Agent.WorkspaceRoot, 0o700)
}

// bwrap resolves the sandbox setting: the bubblewrap binary, or "" to run tools unsandboxed.
func (c *config) bwrap() (string, error) {
	switch c.Agent.Sandbox {
	case "none":
		return "", nil
	case "bwrap":
		path, err := exec.LookPath("bwrap")
		if err != nil {
			return "", fmt.Errorf("OPENVIBE_AGENT_SANDBOX=bwrap: %w", err)
		}
		return path, nil
	}
	path, _ := exec.LookPath("bwrap")
	return path, nil
}

// loadOrCreateSecret keeps a random secret in a 0600 file, so sessions survive restarts.
func loadOrCreateSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if s := strings.TrimSpace(string(b)); len(s) >= 32 {
			return s, nil
		}
		return "", fmt.Errorf("%s: secret shorter than 32 bytes; remove the file to generate a new one", path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read jwt secret: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("generate jwt secret: %w", err)
	}
	s := hex.EncodeToString(raw)
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write jwt secret: %w", err)
	}
	return s, nil
}

// baseURL is where people open the server.
func (c *config) baseURL(listen string) string {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/")
	}
	host := listen
	if strings.HasPrefix(host, "0.0.0.0:") || strings.HasPrefix(host, "[::]:") {
		host = "127.0.0.1" + host[strings.LastIndex(host, ":"):]
	}
	return "http://" + host
}
