// Package cluster runs a real OpenVibe.Live deployment on loopback for end-to-end and fault
// tests: its own PostgreSQL and Redis servers (so a test may stop, kill and restart them
// without disturbing anything else), the migrate step, and N replicas of the publish gateway,
// the chat socket and the api, each a real process built from this repository. Small typed
// clients drive it: the api over HTTP, publishers through shared/vibe/publisher, viewers over
// the chat WebSocket.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Binaries are the service executables, built once per test binary.
type Binaries struct {
	Dir     string
	Gateway string
	Chat    string
	API     string
}

// RepoRoot finds the repository root (the directory holding go.work) above the working
// directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "services", "publish-gateway", "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root not found above the working directory")
		}
		dir = parent
	}
}

// BinariesEnv names a directory of already built binaries (publish-gateway, chat-socket,
// api) to use instead of building: scripts/reliability.sh builds once for every package.
const BinariesEnv = "OPENVIBE_E2E_BINARIES"

// Build compiles publish-gateway, chat-socket and api into a fresh temporary directory. Each
// is built inside its own module directory, so it works with and without go.work. Remove
// the directory with Binaries.Remove. When BinariesEnv is set, the binaries there are used
// as they are (and never removed).
func Build(ctx context.Context) (*Binaries, error) {
	if dir := os.Getenv(BinariesEnv); dir != "" {
		b := &Binaries{Gateway: filepath.Join(dir, "publish-gateway"), Chat: filepath.Join(dir, "chat-socket"), API: filepath.Join(dir, "api")}
		for _, p := range []string{b.Gateway, b.Chat, b.API} {
			if _, err := os.Stat(p); err != nil {
				return nil, fmt.Errorf("%s: %w", BinariesEnv, err)
			}
		}
		return b, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "openvibe-e2e-bin-")
	if err != nil {
		return nil, err
	}
	b := &Binaries{Dir: dir}
	for _, s := range []struct {
		module string
		out    *string
	}{
		{"services/publish-gateway", &b.Gateway},
		{"services/chat-socket", &b.Chat},
		{"services/api", &b.API},
	} {
		*s.out = filepath.Join(dir, filepath.Base(s.module))
		ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", *s.out, ".")
		cmd.Dir = filepath.Join(root, s.module)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("build %s: %w\n%s", s.module, err, out)
		}
	}
	return b, nil
}

// Remove deletes the binaries Build made.
func (b *Binaries) Remove() {
	if b.Dir != "" {
		_ = os.RemoveAll(b.Dir)
	}
}

// Main is a TestMain body: it builds the binaries into *bins, runs the tests and removes
// the binaries.
func Main(m interface{ Run() int }, bins **Binaries) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	b, err := Build(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	*bins = b
	defer b.Remove()
	return m.Run()
}
