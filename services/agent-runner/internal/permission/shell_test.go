package permission

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplitCommands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line   string
		want   []string
		opaque []string // the texts that are opaque
	}{
		{line: "echo hello", want: []string{"echo hello"}},
		{line: "  go   test ./...  ", want: []string{"go test ./..."}},
		{line: "echo x; cat /etc/hostname; ls /", want: []string{"echo x", "cat /etc/hostname", "ls /"}},
		{line: "echo\ncat /etc/hostname", want: []string{"echo", "cat /etc/hostname"}},
		{line: "a && b || c", want: []string{"a", "b", "c"}},
		{line: "git log | head -5 | tee out.txt", want: []string{"git log", "head -5", "tee out.txt"}},
		{line: "sleep 10 & echo started", want: []string{"sleep 10", "echo started"}},
		{line: "echo $(cat /etc/shadow)", want: []string{"echo $(cat /etc/shadow)", "cat /etc/shadow"}},
		{line: "echo `id`", want: []string{"echo $(id)", "id"}},
		{line: "diff <(ls a) <(ls b)", want: []string{"diff <(ls a) <(ls b)", "ls a", "ls b"}},
		{line: "(cd sub && make)", want: []string{"cd sub", "make"}},
		{line: "{ echo a; echo b; }", want: []string{"echo a", "echo b"}},
		{line: "for f in $(ls); do rm $f; done", want: []string{"ls", "rm $f"}},
		{line: "if test -f x; then cat x; fi", want: []string{"test -f x", "cat x"}},
		{line: "f() { rm -rf /; }; f", want: []string{"rm -rf /", "f"}},
		// Quotes and escapes do not hide the program from a rule.
		{line: `'rm' -rf /`, want: []string{"rm -rf /"}},
		{line: `"r"m -rf /`, want: []string{"rm -rf /"}},
		{line: `\rm -rf /`, want: []string{"rm -rf /"}},
		{line: `$'\x72m' -rf /`, want: []string{"rm -rf /"}},
		{line: `git commit -m "fix: a, b"`, want: []string{"git commit -m fix: a, b"}},
		// Redirections to files are part of the command; descriptor copies and /dev/null not.
		{line: "echo x > out.txt", want: []string{"echo x > out.txt"}},
		{line: "go test ./... 2>&1 >/dev/null", want: []string{"go test ./..."}},
		{line: "make 2> err.log >> all.log", want: []string{"make 2> err.log >> all.log"}},
		{line: "cat < /etc/passwd", want: []string{"cat < /etc/passwd"}},
		{line: "{ echo a; } > f", want: []string{"{ echo a;} >f", "echo a"}, opaque: []string{"{ echo a;} >f"}},
		// What runs is not known from the text.
		{line: "$CMD --force", want: []string{"$CMD --force"}, opaque: []string{"$CMD --force"}},
		{line: "$(which rm) -rf /", want: []string{"$(which rm) -rf /", "which rm"}, opaque: []string{"$(which rm) -rf /"}},
		{line: "X=$(id)", want: []string{"X=$(id)", "id"}, opaque: []string{"X=$(id)"}},
		{line: "PATH=. ls", want: []string{"PATH=. ls"}},
		{line: "export PATH=/tmp/evil", want: []string{"export PATH=/tmp/evil"}},
		{line: "# just a comment", want: nil},
	}
	for _, c := range cases {
		got, err := SplitCommands(c.line)
		require.NoError(t, err, c.line)
		var texts, opaque []string
		for _, s := range got {
			texts = append(texts, s.Text)
			if s.Opaque {
				opaque = append(opaque, s.Text)
			}
		}
		require.Equal(t, c.want, texts, c.line)
		require.Equal(t, c.opaque, opaque, c.line)
	}
}

func TestSplitCommandsUnparsable(t *testing.T) {
	t.Parallel()
	got, err := SplitCommands(`echo "unterminated; rm -rf /`)
	require.Error(t, err)
	require.Equal(t, []Subject{{Text: `echo "unterminated; rm -rf /`, Opaque: true}}, got)
}

func TestCommandPrefix(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"git status --short": "git status *", "ls -la": "ls *", "npm run dev": "npm run *", "git -C x log": "git *",
		"": "", "bash -c x": "", "python3 -c x": "", "FOO=1 make": "", "ls *.go": "ls *",
	} {
		require.Equal(t, want, commandPrefix(in), in)
	}
}
