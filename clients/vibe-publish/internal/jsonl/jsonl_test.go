package jsonl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

func collect(t *testing.T, opt Options) ([]vibe.Event, []string) {
	t.Helper()
	var evs []vibe.Event
	var bads []string
	opt.OnBadLine = func(n int64, err error) { bads = append(bads, err.Error()) }
	err := Run(t.Context(), opt, func(_ context.Context, ev vibe.Event) error { evs = append(evs, ev); return nil })
	require.NoError(t, err)
	return evs, bads
}

const input = `{"eventType":"prompt","prompt":{"text":"hello"}}

{"eventId":"fixed-1","eventType":"response","response":{"text":"hi","truncated":false},"extra":"dropped"}
not json
{"eventType":"nope"}
{"eventType":"file.change","file":{"relativePath":"a/b.go","operation":"edit","changeCount":2,"snippet":null}}
`

func TestStdin(t *testing.T) {
	t.Parallel()
	evs, bads := collect(t, Options{Stdin: strings.NewReader(input)})
	require.Len(t, evs, 3)
	require.Equal(t, vibe.TypePrompt, evs[0].EventType)
	require.NotEmpty(t, evs[0].EventID)
	require.Equal(t, "fixed-1", evs[1].EventID)
	require.Equal(t, "a/b.go", evs[2].File.RelativePath)
	require.Len(t, bads, 2)
	require.Contains(t, bads[1], "eventType must be one of")
}

func TestFileIDsAreStable(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "events.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(input), 0o600))
	a, _ := collect(t, Options{Path: p})
	b, _ := collect(t, Options{Path: p})
	require.Len(t, a, 3)
	for i := range a {
		require.Equal(t, a[i].EventID, b[i].EventID, "re-reading a file yields the same eventIds")
	}
	require.NotEqual(t, a[0].EventID, a[2].EventID)
}
