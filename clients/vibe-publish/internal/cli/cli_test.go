package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

// Secrets planted in the inputs; none may appear in what would be sent.
var planted = []string{
	"AKIAZ7QW3RT5YU8IOPLK",
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp",
	"ghp_R7mK2xQ9vL4pW8nT1yH6bF3cJ5dG0sA8eU2i",
	"sk-ant-api03-Zq8vR2mK9xL4pW7nT1yH6bF3cJ5dG0sA8eU2i",
	"Hunter2Secret9",
	"/home/streamer",
}

func noEnv(string) string { return "" }

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// decodeLines parses the dry run's JSON lines and checks that nothing planted survived.
func decodeLines(t *testing.T, out string) []vibe.Event {
	t.Helper()
	for _, s := range planted {
		require.NotContains(t, out, s, "a planted secret or absolute path reached the output")
	}
	var evs []vibe.Event
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev vibe.Event
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev), sc.Text())
		_, err := vibe.ParseEvent(sc.Bytes())
		require.NoError(t, err, "the gateway would accept %s", sc.Text())
		evs = append(evs, ev)
	}
	return evs
}

var sessionKeyRE = regexp.MustCompile(`^openvibe-\d{14}-[0-9a-f]{8}$`)

func TestDryRunJSONLIsSanitized(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"eventType":"prompt","prompt":{"text":"use AKIAZ7QW3RT5YU8IOPLK and AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp"}}`,
		`{"eventType":"tool.call","tool":{"name":"Bash","phase":"start","argumentsPreview":"psql postgres://admin:Hunter2Secret9@db.internal:5432/app"}}`,
		`{"eventType":"file.change","file":{"name":"x.go","relativePath":"/home/streamer/src/app/x.go","operation":"edit","changeCount":1,"snippet":null}}`,
		`{"eventType":"response","response":{"text":"pushed with ghp_R7mK2xQ9vL4pW8nT1yH6bF3cJ5dG0sA8eU2i","truncated":false}}`,
		`{"eventType":"bogus"}`,
	}, "\n")
	var out, errOut testenv.Buffer
	err := Run(t.Context(), []string{"--dry-run", "jsonl"}, noEnv, IO{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errOut})
	require.NoError(t, err)
	evs := decodeLines(t, out.String())
	require.Len(t, evs, 4)
	for i, ev := range evs {
		require.Equal(t, int64(i+1), ev.Sequence)
		require.NotEmpty(t, ev.EventID)
		require.Regexp(t, sessionKeyRE, ev.SessionKey)
	}
	require.Contains(t, evs[0].Prompt.Text, "[redacted")
	require.Contains(t, errOut.String(), "line 5 skipped: eventType must be one of")
}

func TestDryRunClaudeCodeIsSanitized(t *testing.T) {
	t.Parallel()
	var out, errOut testenv.Buffer
	fixture := filepath.Join("..", "claudecode", "testdata", "session.jsonl")
	err := Run(t.Context(), []string{"--dry-run", "claude-code", "--transcript", fixture, "--once"}, noEnv, IO{Stdout: &out, Stderr: &errOut})
	require.NoError(t, err, errOut.String())
	evs := decodeLines(t, out.String())
	require.Len(t, evs, 17)
	var files []string
	for _, ev := range evs {
		require.Equal(t, "claude-code", ev.Source.Channel)
		if ev.EventType == vibe.TypeFileChange {
			files = append(files, ev.File.RelativePath)
		}
	}
	require.Equal(t, []string{"internal/timetable/parse.go", "config/local.env", "internal/timetable/parse_test.go"}, files)
	require.Contains(t, evs[0].Prompt.Text, "internal/timetable/parse.go", "paths inside the project become relative")
}

func TestDryRunGitWatch(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput()
	require.NoError(t, err, string(out))
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr testenv.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"--dry-run", "git-watch", "--dir", dir, "--debounce", "50ms"}, noEnv, IO{Stdout: &stdout, Stderr: &stderr})
	}()
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "watching") }, 30*time.Second, 10*time.Millisecond)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pkg"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pkg", "a.go"), []byte("package pkg\n\nvar A = 1\n"), 0o644))
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "\n") }, 30*time.Second, 10*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	require.NotContains(t, stdout.String(), dir)
	evs := decodeLines(t, stdout.String())
	require.Equal(t, "pkg/a.go", evs[0].File.RelativePath)
	require.Equal(t, "create", evs[0].File.Operation)
	require.Equal(t, 3, evs[0].File.ChangeCount)
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"no adapter":      {},
		"unknown adapter": {"vim"},
		"bad flag":        {"jsonl", "--nope"},
		"follow stdin":    {"jsonl", "--follow"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := Run(t.Context(), args, noEnv, IO{Stdin: strings.NewReader(""), Stdout: &testenv.Buffer{}, Stderr: &testenv.Buffer{}})
			require.ErrorIs(t, err, ErrUsage)
		})
	}
}

func TestLiveNeedsServerTokenAndSlot(t *testing.T) {
	t.Parallel()
	err := Run(t.Context(), []string{"--config", filepath.Join(t.TempDir(), "none.json"), "jsonl"}, noEnv, IO{Stdin: strings.NewReader(""), Stdout: &testenv.Buffer{}, Stderr: &testenv.Buffer{}})
	require.ErrorContains(t, err, "config file")
	err = Run(t.Context(), []string{"jsonl"}, env(map[string]string{"HOME": t.TempDir()}), IO{Stdin: strings.NewReader(""), Stdout: &testenv.Buffer{}, Stderr: &testenv.Buffer{}})
	require.ErrorIs(t, err, ErrUsage)
	for _, want := range []string{"no server", "no token", "no slot"} {
		require.ErrorContains(t, err, want)
	}
}

func TestAutoWithoutAnySession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	err := Run(t.Context(), []string{"--dry-run", "auto", "--once", "--project", t.TempDir(), "--claude-dir", home, "--codex-home", home, "--gemini-dir", home, "--opencode-dir", home},
		noEnv, IO{Stdout: &testenv.Buffer{}, Stderr: &testenv.Buffer{}})
	require.ErrorContains(t, err, "no session of Claude Code, Codex CLI, Gemini CLI, aider, opencode or SpecStory found")
}

func TestDryRunCodexIsSanitized(t *testing.T) {
	t.Parallel()
	var out, errOut testenv.Buffer
	rollout := filepath.Join("..", "..", "testdata", "agents", "codex", "own", "2026", "11", "29", "rollout-2026-11-29T21-00-00-019ad2f1-6c3e-7b20-9a41-5d0e8c7b3f12.jsonl")
	require.NoError(t, Run(t.Context(), []string{"--dry-run", "codex", "--rollout", rollout, "--once"}, noEnv, IO{Stdout: &out, Stderr: &errOut}), errOut.String())
	evs := decodeLines(t, out.String())
	require.Len(t, evs, 24)
	require.Equal(t, "codex", evs[0].Source.Channel)
}

func TestAutoFindsASpecStoryChat(t *testing.T) {
	t.Parallel()
	home, project := t.TempDir(), t.TempDir()
	hist := filepath.Join(project, ".specstory", "history")
	require.NoError(t, os.MkdirAll(hist, 0o755))
	chat := "<!-- Generated by SpecStory -->\n\n# Deploy (2025-06-21 12:09Z)\n\n_**User**_\n\ndeploy with ghp_R7mK2xQ9vL4pW8nT1yH6bF3cJ5dG0sA8eU2i\n\n---\n\n_**Assistant**_\n\nDeployed.\n\n---\n"
	require.NoError(t, os.WriteFile(filepath.Join(hist, "2025-06-21_12-09Z-deploy.md"), []byte(chat), 0o644))
	var out, errOut testenv.Buffer
	err := Run(t.Context(), []string{"--dry-run", "auto", "--once", "--project", project, "--claude-dir", home, "--codex-home", home, "--gemini-dir", home, "--opencode-dir", home},
		noEnv, IO{Stdout: &out, Stderr: &errOut})
	require.NoError(t, err, errOut.String())
	require.Contains(t, errOut.String(), "auto: SpecStory")
	evs := decodeLines(t, out.String())
	require.Len(t, evs, 2)
	require.Equal(t, "specstory", evs[0].Source.Channel)
	require.NotContains(t, out.String(), "ghp_R7mK2xQ9vL4pW8nT1yH6bF3cJ5dG0sA8eU2i")
}
