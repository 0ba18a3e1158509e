package tool

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Sandbox runs commands in bubblewrap with only what a tool needs: the system directories
// read-only, the writable directories (the project) read-write, and a private /tmp and home
// (HOME=/tmp/home). Nothing else of the host's filesystem is mounted: not the service's data
// directory, other users' workspaces, the service's home, /run, /var or the secrets in /etc.
// The command gets a fresh environment (PATH and the locale settings of the service's, nothing
// else), no capabilities even when the service runs as root, its own PID, IPC, UTS, user and
// network namespaces (the network only with Network), and dies with the runner.
type Sandbox struct {
	Bwrap   string // path of the bwrap binary
	Network bool
	// ReadOnly lists extra paths to bind read-only (a shared toolchain or module cache).
	ReadOnly []string
}

// sandboxSystem are the top-level directories of the installed software, bound read-only
// (or recreated as the symlinks they are, /bin → usr/bin on merged-/usr systems).
var sandboxSystem = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"}

// sandboxEtc are the entries of /etc that programs need to run, resolve names and verify
// certificates; shadow files, SSH host keys, service configurations and the like stay out.
var sandboxEtc = []string{"alternatives", "bash.bashrc", "ca-certificates", "ca-certificates.conf", "gai.conf",
	"gitconfig", "group", "host.conf", "hostname", "hosts", "inputrc", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
	"localtime", "magic", "magic.mime", "manpath.config", "mime.types", "networks", "nsswitch.conf", "os-release",
	"passwd", "perl", "profile", "protocols", "python3*", "java-*", "resolv.conf", "services", "shells", "ssl",
	"terminfo", "timezone", "vim", "wgetrc", "xdg"}

// sandboxEnv are the variables of the service's environment a command keeps.
var sandboxEnv = []string{"PATH", "LANG", "LANGUAGE", "TERM", "TZ"}

const sandboxHome = "/tmp/home"

// argv is the bwrap command line running command in dir.
func (sb *Sandbox) argv(dir, command string, writable, extraEnv []string) []string {
	a := []string{sb.Bwrap, "--die-with-parent", "--unshare-all", "--cap-drop", "ALL", "--clearenv"}
	if sb.Network {
		a = append(a, "--share-net")
	}
	for _, p := range sandboxSystem {
		a = append(a, systemMount(p)...)
	}
	for _, name := range sandboxEtc {
		matches, _ := filepath.Glob(filepath.Join("/etc", name))
		for _, p := range matches {
			if src, err := filepath.EvalSymlinks(p); err == nil {
				a = append(a, "--ro-bind", src, p)
			}
		}
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", sandboxHome)
	for _, p := range sb.ReadOnly {
		a = append(a, "--ro-bind-try", p, p)
	}
	var bound []string
	for _, w := range writable {
		if w == "" || slices.ContainsFunc(bound, func(b string) bool { return Within(b, w) }) {
			continue
		}
		a = append(a, "--bind", w, w)
		bound = append(bound, w)
	}
	for _, k := range sandboxEnv {
		if v, ok := os.LookupEnv(k); ok {
			a = append(a, "--setenv", k, v)
		}
	}
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "LC_") {
			a = append(a, "--setenv", k, v)
		}
	}
	for _, kv := range extraEnv {
		if k, v, ok := strings.Cut(kv, "="); ok {
			a = append(a, "--setenv", k, v)
		}
	}
	a = append(a, "--setenv", "HOME", sandboxHome, "--setenv", "TMPDIR", "/tmp", "--setenv", "PWD", dir)
	return append(a, "--chdir", dir, "--", "bash", "-c", command)
}

// Probe runs `true` in the sandbox, to tell whether bubblewrap works here (namespaces may be
// refused by the kernel or a container).
func (sb *Sandbox) Probe(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "openvibe-sandbox-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	args := sb.argv(dir, "true", []string{dir}, nil)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = []string{}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("bwrap cannot run here: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// systemMount recreates a system path in the sandbox: the same symlink, or a read-only bind.
func systemMount(p string) []string {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return nil
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(p)
		if err != nil {
			return nil
		}
		return []string{"--symlink", target, p}
	case fi.IsDir():
		return []string{"--ro-bind", p, p}
	}
	return nil
}
