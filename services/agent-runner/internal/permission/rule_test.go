package permission

import (
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
		got, idx := Evaluate(rules, c.tool, c.pattern, c.kind)
		require.Equal(t, c.want, got, "%s %s", c.tool, c.pattern)
		require.Equal(t, c.index, idx, "%s %s", c.tool, c.pattern)
	}
	// Reordering changes the outcome: first match wins.
	got, _ := Evaluate([]Rule{{Tool: "*", Action: Allow}, rules[0]}, "bash", "rm -rf /", KindText)
	require.Equal(t, Allow, got)
}

func TestRuleValidate(t *testing.T) {
	require.NoError(t, Rule{Tool: "*", Action: Ask}.Validate())
	require.ErrorContains(t, Rule{Tool: "bash", Action: "maybe"}.Validate(), "want allow, deny or ask")
	require.ErrorContains(t, Rule{Action: Allow}.Validate(), "must not be empty")
	require.ErrorContains(t, Rule{Tool: "[", Action: Allow}.Validate(), "bad glob")
}
