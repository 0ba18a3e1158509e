package follow

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type collector struct {
	mu    sync.Mutex
	lines []string
}

func (c *collector) add(line []byte, _ int64) error {
	c.mu.Lock()
	c.lines = append(c.lines, string(line))
	c.mu.Unlock()
	return nil
}

func (c *collector) get() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

func TestLinesWithoutFollow(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "a.jsonl")
	require.NoError(t, os.WriteFile(p, []byte("one\r\ntwo\n\nthree"), 0o600))
	var c collector
	require.NoError(t, Lines(t.Context(), p, Options{}, c.add))
	require.Equal(t, []string{"one", "two", "", "three"}, c.get())
}

func TestFollowAppendTruncateRotate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.jsonl")
	require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o600))
	var c collector
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	opened := make(chan struct{})
	opt := Options{Follow: true, FromEnd: true, Poll: 5 * time.Millisecond, Opened: func() { close(opened) }}
	go func() { done <- Lines(ctx, p, opt, c.add) }()
	<-opened

	appendTo := func(s string) {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.WriteString(s)
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
	appendTo("a1\na2-")
	require.Eventually(t, func() bool { return strings.Join(c.get(), ",") == "a1" }, 2*time.Second, 5*time.Millisecond)
	appendTo("rest\n")
	require.Eventually(t, func() bool { return strings.Join(c.get(), ",") == "a1,a2-rest" }, 2*time.Second, 5*time.Millisecond)

	// Truncation (copytruncate rotation): start again from the top.
	require.NoError(t, os.WriteFile(p, []byte("t1\n"), 0o600))
	require.Eventually(t, func() bool { return strings.Join(c.get(), ",") == "a1,a2-rest,t1" }, 2*time.Second, 5*time.Millisecond)

	// Replacement (rename rotation): read the new file from its start.
	tmp := filepath.Join(dir, "new")
	require.NoError(t, os.WriteFile(tmp, []byte("n1\nn2\n"), 0o600))
	require.NoError(t, os.Rename(tmp, p))
	require.Eventually(t, func() bool { return strings.Join(c.get(), ",") == "a1,a2-rest,t1,n1,n2" }, 2*time.Second, 5*time.Millisecond)

	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

func TestOverlongLineIsSkipped(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "a.jsonl")
	long := `{"tool_use_id":"toolu_1","content":"` + strings.Repeat("x", 300<<10) + `"}`
	require.NoError(t, os.WriteFile(p, []byte("ok\n"+long+"\nafter\n"+strings.Repeat("z", 2000)+"\n"), 0o600))
	var c collector
	var skipped []int64
	var heads []string
	opt := Options{MaxLine: 256 << 10, OnSkip: func(n int64, err error) { skipped = append(skipped, n) },
		OnLongLine: func(n int64, head []byte) { heads = append(heads, string(head)) }}
	require.NoError(t, Lines(t.Context(), p, opt, c.add))
	require.Equal(t, []string{"ok", "after", strings.Repeat("z", 2000)}, c.get())
	require.Equal(t, []int64{2}, skipped)
	require.Len(t, heads, 1)
	require.Len(t, heads[0], HeadBytes, "the head of the skipped line")
	require.True(t, strings.HasPrefix(heads[0], `{"tool_use_id":"toolu_1","content":"xxx`))
}

func TestReaderSkipsOverlongLines(t *testing.T) {
	t.Parallel()
	in := "a\n" + strings.Repeat("y", 5000) + "\nb\r\nc"
	var c collector
	var skipped []int64
	opt := Options{MaxLine: 1024, OnSkip: func(n int64, err error) { skipped = append(skipped, n) }}
	require.NoError(t, Reader(t.Context(), strings.NewReader(in), opt, c.add))
	require.Equal(t, []string{"a", "b", "c"}, c.get())
	require.Equal(t, []int64{2}, skipped)
}
