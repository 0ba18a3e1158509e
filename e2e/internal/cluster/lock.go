package cluster

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Exclusive holds a machine-wide lock until the test ends, so clusters of different test
// packages (which go test runs in parallel) do not run at the same time: the fault tests
// time outages and recoveries, and the soak measures, on a small machine.
func Exclusive(t testing.TB) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "openvibe-e2e-cluster.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatalf("cluster lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("cluster lock: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	})
}
