package activity

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

func TestToolSummaries(t *testing.T) {
	t.Parallel()
	goOut := "=== RUN   TestA\n--- FAIL: TestA (0.00s)\n--- FAIL: TestB (0.00s)\n--- PASS: TestC (0.00s)\n--- FAIL: TestD (0.00s)\nFAIL\n"
	cases := []struct {
		name       string
		tool       Tool
		out        Outcome
		start, end string
	}{
		{"go test with failures", Tool{Name: "Bash", Kind: Shell, Command: "cd internal && go test ./..."}, Outcome{Failed: true, ExitCode: 1, Output: goOut},
			"Running tests (go test)", "Ran tests (go test) — 3 failed"},
		{"pytest passes", Tool{Name: "Bash", Kind: Shell, Command: "uv run pytest -q", Description: "Run the tests"}, Outcome{Output: "....\n===== 12 passed in 0.31s ====="},
			"Running tests (uv run pytest)", "Ran tests (uv run pytest) — 12 passed"},
		{"codex wrapper", Tool{Name: "shell", Kind: Shell, Command: `bash -lc 'npm test -- --watch=false'`}, Outcome{Output: "Tests:       1 failed, 9 passed, 10 total"},
			"Running tests (npm test)", "Ran tests (npm test) — 1 failed"},
		{"described command fails", Tool{Name: "Bash", Kind: Shell, Command: "git push origin main", Description: "Push the branch"}, Outcome{Failed: true, ExitCode: 128},
			"Push the branch", "Push the branch — failed (exit 128)"},
		{"plain command", Tool{Name: "Bash", Kind: Shell, Command: "FOO=1 git status --short"}, Outcome{},
			"Running git status", "Ran git status"},
		{"read", Tool{Name: "Read", Kind: Read, Path: "internal/room/room.go"}, Outcome{}, "Reading internal/room/room.go", "Read internal/room/room.go"},
		{"search", Tool{Name: "Grep", Kind: Search, Pattern: "parseEvent"}, Outcome{Matches: 12}, "Searching for `parseEvent`", "Searched for `parseEvent` — 12 files"},
		{"search nothing", Tool{Name: "Grep", Kind: Search, Pattern: "x", Path: "src"}, Outcome{Matches: 0}, "Searching for `x` in src", "Searched for `x` in src — nothing found"},
		{"glob", Tool{Name: "Glob", Kind: List, Pattern: "**/*.go"}, Outcome{Matches: -1}, "Listing files matching `**/*.go`", "Listed files matching `**/*.go`"},
		{"fetch", Tool{Name: "WebFetch", Kind: Fetch, URL: "https://pkg.go.dev/net/http?tab=doc"}, Outcome{}, "Fetching pkg.go.dev", "Fetched pkg.go.dev"},
		{"agent", Tool{Name: "Task", Kind: Agent, Description: "Explore the parser"}, Outcome{}, "Starting a sub-agent: Explore the parser", "Sub-agent finished: Explore the parser"},
		{"plan", Tool{Name: "TodoWrite", Kind: Plan}, Outcome{Done: 2, Total: 5}, "Updating the plan", "Updated the plan (2 of 5 done)"},
		{"unknown", Tool{Name: "mcp__db__query", Kind: Other}, Outcome{Failed: true}, "Running mcp__db__query", "mcp__db__query failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, c.start, StartSummary(c.tool))
			require.Equal(t, c.end, EndSummary(c.tool, c.out))
		})
	}
}

func TestTestCounts(t *testing.T) {
	t.Parallel()
	for out, want := range map[string][3]int{
		"test result: FAILED. 10 passed; 3 failed; 0 ignored": {3, 10, 1},
		"Finished in 0.1 seconds\n12 tests, 2 failures":       {2, 0, 1},
		"ok  \tpkg/a\t0.01s":                                  {0, 0, 0},
	} {
		f, p, ok := TestCounts(out)
		require.Equal(t, want, [3]int{f, p, map[bool]int{true: 1}[ok]}, out)
	}
}

func TestRelative(t *testing.T) {
	t.Parallel()
	cases := []struct{ root, cwd, p, want string }{
		{"/w/p", "", "/w/p/a/b.go", "a/b.go"},
		{"/w/p", "/w/p/test", "renderer.py", "test/renderer.py"},
		{"/w/p", "/w/p/test", "../cmd/x.go", "cmd/x.go"},
		{"/w/p", "", "/etc/secret.txt", "secret.txt"},
		{"/w/p", "", "/w/p2/x.go", "x.go"},
		{"", "", "rel/x.go", "rel/x.go"},
		{`C:\src\app`, "", `C:\src\app\main.go`, "main.go"},
		{`C:\src\app`, "", `src\main\K.kt`, "src/main/K.kt"},
		{"-w/p", "-w/p/.claude/agent", "-w/p/.claude/agent/a.md", ".claude/agent/a.md"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Relative(c.root, c.cwd, c.p), "%+v", c)
	}
}

func TestBuilderIDsAreStable(t *testing.T) {
	t.Parallel()
	b := Builder{Space: uuid.MustParse("0f5c9a1e-7d3b-4c62-8e1f-3a9b6d2c4e70"), Channel: "x", SessionID: "s1"}
	tool := Tool{Name: "Read", Kind: Read, Path: "a.go"}
	start, end := b.ToolStart("k", "raw", "", tool, `{"file_path":"a.go"}`), b.ToolEnd("k", "raw", "", tool, Outcome{}, "ok")
	require.NotEqual(t, start.EventID, end.EventID)
	require.Equal(t, start.EventID, b.ToolStart("k", "raw", "", tool, "").EventID)
	require.Equal(t, "end", end.Tool.Phase)
	fe := b.File("k", "raw", "", FileChange{Path: "src/a.go", Operation: "edit", Added: 2, Removed: 1, Snippet: "@@\n-a\n+b\n+c"})
	require.Equal(t, "Edited src/a.go (+2 −1)", fe.Summary)
	require.Equal(t, 3, fe.File.ChangeCount)
	require.Equal(t, "a.go", fe.File.Name)
	_, err := vibe.ParseEvent(mustJSON(t, fe))
	require.NoError(t, err, "the gateway accepts it")
}
