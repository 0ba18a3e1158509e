package tool

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func pidAlive(t *testing.T, pidFile string) bool {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return running(pid)
}

// running reports whether pid is a live process (a zombie waiting to be reaped by init is
// dead for our purposes).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func TestShellBackgroundProcessDoesNotHang(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sh := &Shell{}
	start := time.Now()
	res, err := sh.Run(t.Context(), dir, "sleep 1000 & echo $! > pid; echo started", time.Minute)
	require.NoError(t, err)
	require.Less(t, time.Since(start), 10*time.Second, "a background child must not keep the call open")
	require.Equal(t, "started\n", res.Output)
	require.Eventually(t, func() bool { return !pidAlive(t, filepath.Join(dir, "pid")) }, 3*time.Second, 10*time.Millisecond)
}

func TestShellTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sh := &Shell{KillGrace: 200 * time.Millisecond}
	start := time.Now()
	// The shell ignores SIGTERM, so only the SIGKILL after the grace period stops it.
	res, err := sh.Run(t.Context(), dir, "trap '' TERM; sleep 1000 & echo $! > pid; echo before; wait", 300*time.Millisecond)
	require.NoError(t, err)
	require.True(t, res.TimedOut)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Contains(t, res.Output, "before")
	require.Eventually(t, func() bool { return !pidAlive(t, filepath.Join(dir, "pid")) }, 3*time.Second, 10*time.Millisecond)
}

func TestShellAbort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sh := &Shell{}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	res, err := sh.Run(ctx, dir, "npm_dev_server() { sleep 1000; }; npm_dev_server & echo $! > pid; wait", time.Minute)
	require.NoError(t, err)
	require.True(t, res.Aborted)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Eventually(t, func() bool { return !pidAlive(t, filepath.Join(dir, "pid")) }, 3*time.Second, 10*time.Millisecond)
}

func TestShellExitCodeAndStderr(t *testing.T) {
	t.Parallel()
	res, err := (&Shell{}).Run(t.Context(), t.TempDir(), "echo out; echo err >&2; exit 3", time.Minute)
	require.NoError(t, err)
	require.Equal(t, 3, res.ExitCode)
	require.Contains(t, res.Output, "out\n")
	require.Contains(t, res.Output, "err\n")
}

// TestShellOutputMemoryBounded: 50 MB of output keeps only the head and tail, without
// holding the rest in memory.
func TestShellOutputMemoryBounded(t *testing.T) {
	sh := &Shell{HeadTail: 4096}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := sh.Run(t.Context(), t.TempDir(), "echo BEGIN; head -c 50000000 /dev/zero | tr '\\0' 'a'; echo; echo END", time.Minute)
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	require.True(t, strings.HasPrefix(res.Output, "BEGIN\n"))
	require.True(t, strings.HasSuffix(res.Output, "END\n"))
	require.Contains(t, res.Output, "bytes of output omitted")
	require.Less(t, len(res.Output), 3*4096)
	require.Greater(t, res.Dropped, int64(49_000_000))
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "output must stream through a bounded buffer")
}

func TestCapBuffer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		writes []string
		want   string
	}{
		{"short", []string{"abc"}, "abc"},
		{"exact", []string{"abcdefgh"}, "abcdefgh"},
		{"head and tail", []string{"abcd", "efgh", "ijkl"}, "abcdefgh"}, // n=4: head abcd, tail ijkl, efgh dropped
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapBuffer(4)
			for _, w := range tc.writes {
				_, _ = c.Write([]byte(w))
			}
			got, dropped := c.String()
			if tc.name == "head and tail" {
				require.Equal(t, int64(4), dropped)
				require.True(t, strings.HasPrefix(got, "abcd"))
				require.True(t, strings.HasSuffix(got, "ijkl"))
				return
			}
			require.Equal(t, tc.want, got)
			require.Zero(t, dropped)
		})
	}
}

func TestSandboxConfinesWrites(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap not installed")
	}
	dir := t.TempDir()
	outside := t.TempDir()
	sh := &Shell{Sandbox: &Sandbox{Bwrap: bwrap}}
	probe, err := sh.Run(t.Context(), dir, "true", time.Minute)
	require.NoError(t, err)
	if probe.ExitCode != 0 {
		t.Skipf("bwrap cannot create namespaces here: %s", probe.Output)
	}
	res, err := sh.Run(t.Context(), dir, "echo inside > in.txt && cat in.txt; echo x > "+outside+"/out.txt; echo status $?", time.Minute)
	require.NoError(t, err)
	require.Contains(t, res.Output, "inside")
	require.Contains(t, res.Output, "status 1")
	_, err = os.Stat(filepath.Join(outside, "out.txt"))
	require.True(t, os.IsNotExist(err), "the sandbox must not write outside the project")
	b, err := os.ReadFile(filepath.Join(dir, "in.txt"))
	require.NoError(t, err)
	require.Equal(t, "inside\n", string(b))
	res, err = sh.Run(t.Context(), dir, "getent hosts example.com || echo no-network", time.Minute)
	require.NoError(t, err)
	require.Contains(t, res.Output, "no-network")
}

// TestSandboxShowsOnlySystemAndProject: a sandboxed command sees the system directories and
// its project, not a file elsewhere on the host (outside /tmp, which is private anyway),
// /etc/shadow or the service's environment, and has no capabilities even as root.
func TestSandboxShowsOnlySystemAndProject(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap not installed")
	}
	sb := &Sandbox{Bwrap: bwrap}
	if err := sb.Probe(t.Context()); err != nil {
		t.Skip(err)
	}
	hidden, err := os.MkdirTemp("/var/tmp", "openvibe-sandbox-test-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(hidden) })
	require.NoError(t, os.WriteFile(filepath.Join(hidden, "secret"), []byte("hidden-content"), 0o600))
	t.Setenv("OPENVIBE_TEST_SECRET", "env-secret-value")
	proj := t.TempDir()
	sh := &Shell{Sandbox: sb}
	res, err := sh.Run(t.Context(), proj, "cat "+hidden+"/secret; cat /etc/shadow; env; grep CapEff /proc/self/status; ls /usr/bin/env; echo ok > made && cat made", time.Minute, proj)
	require.NoError(t, err)
	require.NotContains(t, res.Output, "hidden-content")
	require.NotContains(t, res.Output, "env-secret-value")
	require.NotContains(t, res.Output, "root:")
	require.Contains(t, res.Output, "CapEff:\t0000000000000000")
	require.Contains(t, res.Output, "HOME=/tmp/home")
	require.Contains(t, res.Output, "/usr/bin/env\nok\n")
}
