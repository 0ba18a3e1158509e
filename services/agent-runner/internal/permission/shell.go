package permission

import (
	"bytes"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Subject is one thing a call acts on, as rules see it: a path, a URL, or one simple command
// of a shell line.
type Subject struct {
	Text string
	// Opaque: the text does not say what will run (the program is named by an expansion, or
	// the line does not parse). Only a rule covering every pattern of the tool allows it, and
	// nothing is remembered for it; deny rules still match its text.
	Opaque bool
}

// SplitCommands parses a bash command line into the simple commands it would run: every
// command of a list or pipeline (;, &&, ||, |, newlines, &), of subshells, blocks, loops,
// conditionals and function bodies, and of command and process substitutions ($(…),
// backticks, <(…)) wherever they appear. Each command's text is its words, unquoted where
// they are literal (so 'rm' is rm), joined by single spaces, followed by its file
// redirections ("> out.txt"; descriptor copies such as 2>&1 and /dev/null are left out).
// A line that does not parse is one opaque subject, with the parse error.
func SplitCommands(line string) ([]Subject, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return []Subject{{Text: strings.TrimSpace(line), Opaque: true}}, err
	}
	var out []Subject
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || st.Cmd == nil {
			return true
		}
		switch cmd := st.Cmd.(type) {
		case *syntax.CallExpr:
			out = append(out, callSubject(cmd, st.Redirs))
		case *syntax.DeclClause:
			out = append(out, declSubject(cmd, st.Redirs))
		default:
			// A compound command's own redirections apply to everything inside it, which
			// the commands' texts do not show: the statement as a whole must be approved.
			if r := redirections(st.Redirs); r != "" {
				out = append(out, Subject{Text: printed(st), Opaque: true})
			}
		}
		return true
	})
	return out, nil
}

func callSubject(cmd *syntax.CallExpr, redirs []*syntax.Redirect) Subject {
	var words []string
	opaque := false
	for _, a := range cmd.Assigns {
		words = append(words, assignText(a))
	}
	for i, w := range cmd.Args {
		text, static := wordText(w)
		if i == 0 && !static {
			opaque = true
		}
		words = append(words, text)
	}
	if len(cmd.Args) == 0 {
		// Only assignments: nothing runs, but an assignment like PATH=… changes what the
		// next commands run, so it is a subject of its own.
		for _, a := range cmd.Assigns {
			if a.Value != nil {
				if _, static := wordText(a.Value); !static {
					opaque = true
				}
			}
		}
	}
	return Subject{Text: join(words, redirs), Opaque: opaque}
}

func declSubject(cmd *syntax.DeclClause, redirs []*syntax.Redirect) Subject {
	words := []string{cmd.Variant.Value}
	for _, a := range cmd.Args {
		words = append(words, assignText(a))
	}
	return Subject{Text: join(words, redirs)}
}

func join(words []string, redirs []*syntax.Redirect) string {
	text := strings.Join(words, " ")
	if r := redirections(redirs); r != "" {
		text += " " + r
	}
	return text
}

func assignText(a *syntax.Assign) string {
	if a.Naked || a.Name == nil {
		return printed(a)
	}
	if a.Value == nil {
		if a.Array != nil {
			return printed(a)
		}
		return a.Name.Value + "="
	}
	v, _ := wordText(a.Value)
	op := "="
	if a.Append {
		op = "+="
	}
	return a.Name.Value + op + v
}

// redirections renders the redirections that read or write a file.
func redirections(rs []*syntax.Redirect) string {
	var parts []string
	for _, r := range rs {
		n := ""
		if r.N != nil {
			n = r.N.Value
		}
		switch r.Op {
		case syntax.DplIn, syntax.DplOut:
			if t, static := wordText(r.Word); static && (t == "-" || isDigits(t)) {
				continue // 2>&1, >&2, <&-: descriptors, no file
			}
		case syntax.Hdoc, syntax.DashHdoc:
			body := ""
			if r.Hdoc != nil {
				body = printed(r.Hdoc)
			}
			parts = append(parts, n+r.Op.String()+" "+strings.TrimSpace(body))
			continue
		}
		target, _ := wordText(r.Word)
		if target == "/dev/null" {
			continue
		}
		parts = append(parts, n+r.Op.String()+" "+target)
	}
	return strings.Join(parts, " ")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// wordText is a word's value when it is literal (quotes removed, escapes applied) and
// static is true; otherwise its source text and false.
func wordText(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return printed(w), false
			}
			b.WriteString(s)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return printed(w), false
				}
			}
			s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return printed(w), false
			}
			b.WriteString(s)
		default:
			return printed(w), false
		}
	}
	return b.String(), true
}

// unescape removes the backslashes of an unquoted literal (\x is x; a backslash before a
// newline joins the lines).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func printed(n syntax.Node) string {
	var buf bytes.Buffer
	if err := syntax.NewPrinter(syntax.Minify(true)).Print(&buf, n); err != nil {
		return fmt.Sprint(n)
	}
	return strings.TrimSpace(buf.String())
}

// withSubcommands are programs whose first argument names what they do: a prefix of theirs
// keeps it (git status *).
var withSubcommands = map[string]bool{"git": true, "go": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true,
	"docker": true, "kubectl": true, "make": true, "bun": true, "npx": true, "pip": true, "uv": true, "gh": true}

// runsOthers are programs that run what their arguments say (shells, interpreters, wrappers):
// no prefix of theirs is offered, only the exact command.
var runsOthers = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "fish": true, "eval": true,
	"exec": true, "source": true, ".": true, "sudo": true, "su": true, "doas": true, "env": true, "command": true,
	"builtin": true, "nohup": true, "time": true, "timeout": true, "nice": true, "xargs": true, "watch": true,
	"python": true, "python3": true, "node": true, "perl": true, "ruby": true, "php": true, "deno": true, "ssh": true,
	"find": true, "awk": true, "sed": true, "busybox": true}

// commandPrefix is a broader pattern a user may choose to remember for a simple command:
// its program (and subcommand) followed by " *"; "" when none is safe to offer.
func commandPrefix(text string) string {
	f := strings.Fields(text)
	if len(f) == 0 || runsOthers[f[0]] || strings.Contains(f[0], "=") {
		return ""
	}
	if withSubcommands[f[0]] && len(f) > 1 && !strings.HasPrefix(f[1], "-") {
		return Literal(f[0]+" "+f[1]) + " *"
	}
	return Literal(f[0]) + " *"
}
