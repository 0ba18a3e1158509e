package claudecode

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// Recorded Claude Code transcripts from public repositories (testdata/agents/claude-code,
// provenance in its README): the tuned set was read while writing the mapping, the held-back
// set was not.

// sessions unpacks a fixture set and lists its session transcripts (not sub-agents').
func sessions(t *testing.T, set string) []string {
	t.Helper()
	root := fixture.Unpack(t, fixture.Dir(2, "claude-code", set), t.TempDir())
	var out []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.HasPrefix(d.Name(), "agent-") && !strings.Contains(p, "/subagents/") {
			out = append(out, p)
		}
		return err
	}))
	sort.Strings(out)
	return out
}

func readOnce(t *testing.T, path string) []vibe.Event {
	t.Helper()
	var s fixture.Sink
	require.NoError(t, Run(t.Context(), Options{Transcript: path}, s.Emit))
	return s.Events()
}

// checkSession checks one transcript's events (fixture.Check) and that a second read gives the
// same ids.
func checkSession(t *testing.T, path string, evs []vibe.Event) map[string]int {
	t.Helper()
	count := fixture.Check(t, filepath.Base(path), evs)
	fixture.SameIDs(t, filepath.Base(path), evs, readOnce(t, path))
	return count
}

func TestTunedTranscripts(t *testing.T) {
	t.Parallel()
	for _, p := range sessions(t, "tuned") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			evs := readOnce(t, p)
			count := checkSession(t, p, evs)
			t.Logf("%v", count)
		})
	}
}

func TestHeldBackTranscripts(t *testing.T) {
	t.Parallel()
	for _, p := range sessions(t, "heldout") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			count := checkSession(t, p, readOnce(t, p))
			t.Logf("%v", count)
		})
	}
}

// The agent cds into test/ half-way through: paths stay relative to where Claude Code
// started (1.0.51).
func TestPathsAreRelativeToTheProjectRoot(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, p := range sessions(t, "tuned") {
		if filepath.Base(p) != "37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl" {
			continue
		}
		for _, ev := range readOnce(t, p) {
			if ev.EventType == vibe.TypeFileChange {
				paths = append(paths, ev.File.RelativePath)
			}
		}
	}
	require.Contains(t, paths, "claude_code_log/renderer.py")
	require.Contains(t, paths, "test/test_combined_transcript_link.py")
	require.NotContains(t, paths, "renderer.py")
}

func byName(t *testing.T, set, name string) []vibe.Event {
	t.Helper()
	for _, p := range sessions(t, set) {
		if filepath.Base(p) == name {
			return readOnce(t, p)
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// 2.1.39: a sub-agent's edits reach viewers, and the compaction is one status event, not a
// prompt.
func TestSubAgentsAndCompaction(t *testing.T) {
	t.Parallel()
	evs := byName(t, "tuned", "4d5611e5-241a-462a-8d15-5122611a9569.jsonl")
	var statuses, prompts []string
	sub := 0
	for _, ev := range evs {
		switch ev.EventType {
		case vibe.TypeSessionStatus:
			statuses = append(statuses, ev.Status.Message)
		case vibe.TypePrompt:
			prompts = append(prompts, ev.Prompt.Text)
		}
		if ev.EventID == "5774a91b-7621-543c-9681-07d627d94c19" { // agent-a2898e3's first Read
			sub++
		}
	}
	require.Equal(t, []string{"Conversation compacted to free context"}, statuses)
	require.Len(t, prompts, 2)
	require.Equal(t, 1, sub, "the sub-agent's tool calls are published")
}

// 2.0.42 in VS Code: the code the streamer had selected is not shown as their prompt.
func TestIDEContextIsNotAPrompt(t *testing.T) {
	t.Parallel()
	var prompts []string
	for _, ev := range byName(t, "tuned", "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl") {
		if ev.EventType == vibe.TypePrompt {
			prompts = append(prompts, ev.Prompt.Text)
		}
	}
	require.Contains(t, prompts, "Let's also Migrate to AudioWorklet")
	for _, p := range prompts {
		require.NotContains(t, p, "The user selected the lines")
	}
}

func TestNotATranscript(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "notes.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"eventType":"prompt","prompt":{"text":"hi"}}`+"\n"+`{"a":1}`+"\n"), 0o600))
	err := Run(context.Background(), Options{Transcript: p}, (&fixture.Sink{}).Emit)
	require.ErrorIs(t, err, ErrNotTranscript)
	require.NoError(t, os.WriteFile(p, nil, 0o600))
	require.NoError(t, Run(context.Background(), Options{Transcript: p}, (&fixture.Sink{}).Emit), "an empty transcript is a session that has not started")
}

// 2.1.114: every edit of the session was made by its six sub-agents (in worktrees of their
// own); the main transcript alone has none.
func TestSubAgentEditsAreFileChanges(t *testing.T) {
	t.Parallel()
	var files []string
	for _, ev := range byName(t, "tuned", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl") {
		if ev.EventType == vibe.TypeFileChange {
			files = append(files, ev.File.RelativePath)
		}
	}
	require.Len(t, files, 14)
	require.Contains(t, files, ".claude/worktrees/agent-a4ca7529/work/research-plan-mode.md")
}
