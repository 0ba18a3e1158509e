package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// BinariesEnv names a directory of already built binaries (publish-gateway, chat-socket,
// api, …, each named after its module directory) to use instead of building:
// scripts/test.sh and scripts/reliability.sh build once for every test package.
const BinariesEnv = "OPENVIBE_E2E_BINARIES"

// RepoRoot finds the repository root above the working directory.
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

// Binaries are executables built for a test binary.
type Binaries struct {
	dir   string // what BuildBinaries built, removed by Remove
	paths map[string]string
}

// BuildBinaries compiles the main packages of the given module directories (relative to the
// repository root, e.g. "services/publish-gateway") into a fresh temporary directory, each
// named after its directory. Each is built inside its own module, so it works with and
// without go.work. A binary of that name in the BinariesEnv directory is used as it is.
// A build has no deadline of its own: on a busy machine a first build may take minutes, and
// ctx (or the go test -timeout) is the only limit.
func BuildBinaries(ctx context.Context, modules ...string) (*Binaries, error) {
	b := &Binaries{paths: map[string]string{}}
	var root string
	for _, module := range modules {
		name := filepath.Base(module)
		if dir := os.Getenv(BinariesEnv); dir != "" {
			if p := filepath.Join(dir, name); fileExists(p) {
				b.paths[module] = p
				continue
			}
		}
		if b.dir == "" {
			var err error
			if root, err = RepoRoot(); err != nil {
				return nil, err
			}
			if b.dir, err = os.MkdirTemp("", "openvibe-test-bin-"); err != nil {
				return nil, err
			}
		}
		out := filepath.Join(b.dir, name)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", out, ".")
		cmd.Dir = filepath.Join(root, module)
		output, err := cmd.CombinedOutput()
		if err != nil {
			b.Remove()
			return nil, fmt.Errorf("build %s: %w\n%s", module, err, output)
		}
		b.paths[module] = out
	}
	return b, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Path is the executable built from module.
func (b *Binaries) Path(module string) string { return b.paths[module] }

// Remove deletes the binaries BuildBinaries made.
func (b *Binaries) Remove() {
	if b.dir != "" {
		_ = os.RemoveAll(b.dir)
	}
}

// RunWithBinaries is a TestMain body: it builds the modules that are the keys of bins,
// stores each executable's path where its value points, runs the tests and removes the
// binaries. It returns the exit code for os.Exit.
func RunWithBinaries(m interface{ Run() int }, bins map[string]*string) int {
	modules := make([]string, 0, len(bins))
	for module := range bins {
		modules = append(modules, module)
	}
	b, err := BuildBinaries(context.Background(), modules...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer b.Remove()
	for module, p := range bins {
		*p = b.Path(module)
	}
	return m.Run()
}
