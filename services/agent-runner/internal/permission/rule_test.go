package permission

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEvaluateFirstMatchWins(t *testing.T) {
	rules := []Rule{
		{Tool: "bash", Pattern: "rm *", Action: Deny},
		{Tool: "bash", Pattern: "git *", Action: Allow},
		{Tool: "edit", Pattern: "src/**", Action: Allow},
		{Tool: "edit", Pattern: "*.md", Action: Deny},
		{Tool: "file.*", Action: Allow},
		{Tool: "*", Pattern: "*secret*", Action: Deny},
	}
	cases := []struct {
		tool, pattern string
		kind          Kind
		want          Action
		index         int
	}{
		{"bash", "rm -rf /", KindText, Deny, 0},
		{"bash", "git push origin/main", KindText, Allow, 1}, // * crosses / in commands
		{"bash", "make", KindText, Ask, -1},
		{"edit", "src/a/b.go", KindPath, Allow, 2},
		{"edit", "README.md", KindPath, Deny, 3},
		{"edit", "docs/README.md", KindPath, Ask, -1}, // * stays in one directory for paths
		{"file.read", "x", KindText, Allow, 4},
		{"web_fetch", "https://x/secret/y", KindText, Deny, 5},
		{"write", "a.txt", KindPath, Ask, -1},
	}
	for _, c := range cases {
		got, idx := Evaluate(rules, c.tool, Subject{Text: c.pattern}, c.kind)
		require.Equal(t, c.want, got, "%s %s", c.tool, c.pattern)
		require.Equal(t, c.index, idx, "%s %s", c.tool, c.pattern)
	}
	// Reordering changes the outcome: first match wins.
	got, _ := Evaluate([]Rule{{Tool: "*", Action: Allow}, rules[0]}, "bash", Subject{Text: "rm -rf /"}, KindText)
	require.Equal(t, Allow, got)
}

func TestRuleValidate(t *testing.T) {
	require.NoError(t, Rule{Tool: "*", Action: Ask}.Validate())
	require.ErrorContains(t, Rule{Tool: "bash", Action: "maybe"}.Validate(), "want allow, deny or ask")
	require.ErrorContains(t, Rule{Action: Allow}.Validate(), "must not be empty")
	require.ErrorContains(t, Rule{Tool: "[", Action: Allow}.Validate(), "bad glob")
}

func TestWildcardEscapes(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		want          bool
	}{
		{`ls *.go`, "ls a.go", true},
		{Literal(`ls *.go`), "ls a.go", false},
		{Literal(`ls *.go`), "ls *.go", true},
		{Literal(`echo a\b?`), `echo a\b?`, true},
		{Literal(`echo a\b?`), `echo a\bc`, false},
		{`go test*`, "go test ./...\nrm -rf /", true}, // one subject: splitting happens before matching
	} {
		got := Rule{Tool: "bash", Pattern: c.pattern, Action: Allow}.Match("bash", Subject{Text: c.text}, KindCommand)
		require.Equal(t, c.want, got, "%q ~ %q", c.pattern, c.text)
	}
}

// TestOpaqueSubjects: a subject whose text does not say what runs is allowed only by a rule
// for every pattern, and denied by any deny rule that matches its text.
func TestOpaqueSubjects(t *testing.T) {
	s := Subject{Text: "$TOOL --force", Opaque: true}
	require.False(t, Rule{Tool: "bash", Pattern: "*--force", Action: Allow}.Match("bash", s, KindCommand))
	require.False(t, Rule{Tool: "bash", Pattern: "$TOOL*", Action: Ask}.Match("bash", s, KindCommand))
	require.True(t, Rule{Tool: "bash", Pattern: "*--force", Action: Deny}.Match("bash", s, KindCommand))
	require.True(t, Rule{Tool: "bash", Action: Allow}.Match("bash", s, KindCommand))
	require.True(t, Rule{Tool: "bash", Pattern: "*", Action: Allow}.Match("bash", s, KindCommand))
}

func TestKindReadsOldNumbers(t *testing.T) {
	var r struct {
		Kind   Kind     `json:"kind"`
		Always Patterns `json:"always"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"kind": 1, "always": "*"}`), &r))
	require.Equal(t, KindPath, r.Kind)
	require.Equal(t, Patterns{"*"}, r.Always)
	require.NoError(t, json.Unmarshal([]byte(`{"kind": "command", "always": ["ls", "git status *"]}`), &r))
	require.Equal(t, KindCommand, r.Kind)
	require.Equal(t, Patterns{"ls", "git status *"}, r.Always)
}
