package session

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var errNone = errors.New("no session yet")

func TestRunWaitsThenSwitchesToNewerSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	newest := func() (string, time.Time, error) {
		p, m, ok := Newest(dir, 1, func(p string, d fs.DirEntry) bool { return filepath.Ext(p) == ".log" })
		if !ok {
			return "", time.Time{}, errNone
		}
		return p, m, nil
	}
	var mu sync.Mutex
	var reads []string
	ctx, cancel := context.WithCancel(t.Context())
	waited := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Follow: true, Poll: 5 * time.Millisecond, Newest: newest,
			OnWaiting: func(err error) { require.ErrorIs(t, err, errNone); close(waited) },
			Read: func(ctx context.Context, path string, history bool, stop func() bool) error {
				mu.Lock()
				reads = append(reads, filepath.Base(path)+map[bool]string{true: " history", false: " all"}[history])
				mu.Unlock()
				for !stop() {
					if err := Sleep(ctx, 5*time.Millisecond); err != nil {
						return err
					}
				}
				return nil
			}})
	}()
	<-waited
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "2026"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2026", "a.log"), nil, 0o600))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(reads) == 1 }, 5*time.Second, 5*time.Millisecond)
	later := time.Now().Add(time.Minute)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.log"), nil, 0o600))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "b.log"), later, later))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(reads) == 2 }, 10*time.Second, 5*time.Millisecond)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	require.Equal(t, []string{"a.log all", "b.log all"}, reads, "sessions that start while following are published whole")
}

func TestRunWithoutFollowReadsTheNewestOnce(t *testing.T) {
	t.Parallel()
	var got []string
	err := Run(t.Context(), Options{
		Newest: func() (string, time.Time, error) { return "x", time.Now(), nil },
		Read: func(_ context.Context, p string, history bool, _ func() bool) error {
			got = append(got, p)
			require.False(t, history)
			return nil
		}})
	require.NoError(t, err)
	require.Equal(t, []string{"x"}, got)
	err = Run(t.Context(), Options{Newest: func() (string, time.Time, error) { return "", time.Time{}, errNone }})
	require.ErrorIs(t, err, errNone)
}
