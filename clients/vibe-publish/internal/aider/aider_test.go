package aider

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// repo lays out the own history in a git working tree.
func repo(t *testing.T) string {
	t.Helper()
	dir := fixture.Unpack(t, fixture.Dir(2, "aider", "own"), t.TempDir())
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "internal", "timetable"), 0o755))
	return dir
}

func TestMapsAHistory(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), Options{ProjectDir: filepath.Join(dir, "internal", "timetable")}, s.Emit))
	evs := s.Events()
	require.Equal(t, []string{
		"prompt: The departures board shows 24:10 before 23:50.",
		"thinking: The parser takes hours modulo 24, so 24:10 becomes 00:10 and sorts first.",
		"response: `parseTime` folds hours past 24 back into the day. I'll keep them, so **24:10** sorts after 23:50:",
		"file.change: Created internal/timetable/wrap_test.go (+9)",
		"file.change: Edited internal/timetable/parse.go (+2 −1)",
		"session.status: Committed 8c1f2e3: fix: keep departure hours past 24 when parsing",
		"tool.call: Running tests (go test)",
		"tool.call: Ran tests (go test) — 1 failed",
		"prompt: fix that one too",
		"response: The formatter has the same modulo. Here is the fix:",
		"file.change: Edited internal/timetable/format.go (+1 −1)",
		"session.status: Committed 2d7a9b0: fix: format departures past 24 as they are",
		"prompt: which lines run after midnight?",
		"response: From the timetable fixtures, the **N1**, **N2** and **N5** lines have departures after 24:00:",
	}, fixture.Summaries(evs))
	require.Equal(t, "aider 2026-11-29 21:00:03", evs[0].SessionID)
	require.Equal(t, "aider 2026-11-30 09:15:40", evs[12].SessionID, "each aider run is a session")
	require.Contains(t, evs[0].Prompt.Text, "Keep hours past 24 when parsing", "a prompt's #### lines are one prompt")
	require.NotContains(t, evs[2].Response.Text, "<<<<<<< SEARCH", "edit blocks are file changes, not prose")
	require.Contains(t, evs[2].Response.Text, "*(edited internal/timetable/parse.go)*")
	require.Contains(t, evs[13].Response.Text, "| N1   | 25:40          |")
	require.Equal(t, "@@\n \th, m := split(s)\n-\treturn time.Duration(h%24)*time.Hour + time.Duration(m)*time.Minute, nil\n+\t// keep hours past 24: the night buses run on the previous service day\n+\treturn time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, nil", *evs[4].File.Snippet)
	fixture.Check(t, "own", evs)

	var again fixture.Sink
	require.NoError(t, Run(t.Context(), Options{ProjectDir: dir}, again.Emit))
	fixture.SameIDs(t, "own", evs, again.Events())
}

func TestFollowPublishesWhatAiderAppends(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	ctx, cancel := context.WithCancel(t.Context())
	var s fixture.Sink
	started := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{ProjectDir: dir, Follow: true, Poll: 5 * time.Millisecond, OnHistory: func(p string) { started <- p }}, s.Emit)
	}()
	p := <-started
	time.Sleep(50 * time.Millisecond)
	require.Empty(t, s.Events())
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("#### rename N5 to N6  \n\nDone in the fixtures:\n\ntestdata/lines.txt\n```\n<<<<<<< SEARCH\nN5\n=======\nN6\n>>>>>>> REPLACE\n```\n\n> Tokens: 1k sent, 20 received.  \n> Applied edit to testdata/lines.txt  \n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Eventually(t, func() bool { return len(s.Events()) == 3 }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"prompt: rename N5 to N6", "response: Done in the fixtures:", "file.change: Edited testdata/lines.txt (+1 −1)"}, fixture.Summaries(s.Events()))
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

func TestNotAHistory(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "notes.md")
	require.NoError(t, os.WriteFile(p, []byte("# Notes\n\nnothing of aider here\n"), 0o600))
	require.ErrorIs(t, Run(t.Context(), Options{History: p}, (&fixture.Sink{}).Emit), ErrNotHistory)
	_, _, err := Newest(t.TempDir())
	require.ErrorIs(t, err, ErrNoHistory)
}

// A real history (testdata/agents/aider/heldout/README.md) the adapter was not written
// against.
func TestHeldBackHistory(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, fixture.Dir(2, "aider", "heldout"), t.TempDir())
	files, _ := filepath.Glob(filepath.Join(dir, "*", HistoryFile))
	require.NotEmpty(t, files)
	for _, p := range files {
		var s fixture.Sink
		require.NoError(t, Run(t.Context(), Options{History: p}, s.Emit))
		t.Logf("%s: %v", filepath.Base(filepath.Dir(p)), fixture.Check(t, p, s.Events()))
	}
}

func TestAnswersAndAICommentsAreNotPrompts(t *testing.T) {
	t.Parallel()
	m := NewMapper("/r")
	var evs []vibe.Event
	for i, l := range []string{
		"# aider chat started at 2026-11-29 21:00:03", "",
		"#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  ", "",
		`#### Find the "AI" comments below (marked with █) in the code files I've shared with you.  `,
		"#### They contain instructions for you.  ", "",
		"#### /drop docs  ", "",
		"#### !ls  ", "> a.go  ", "",
		"#### what now?  ",
	} {
		out, err := m.Line([]byte(l), int64(i+1))
		require.NoError(t, err)
		evs = append(evs, out...)
	}
	evs = append(evs, m.Close()...)
	require.Equal(t, []string{"tool.call: Running ls", "tool.call: Ran ls", "prompt: what now?"}, fixture.Summaries(evs))
}
