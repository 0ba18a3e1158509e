package vibe

import (
	"fmt"
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"
)

// randomShape builds a string of n pieces drawn from pieces.
func randomShape(r *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// The hand-written matchers decide as the expressions they stand for.
func TestIsModelNameMatchesExpression(t *testing.T) {
	pieces := []string{"a", "Z", "q", "9", "0", "_", ".", "-", ":", "/", "claude", "3", "5", "sonnet", "gpt", "4o", "Llama",
		"Instruct", "20241022", "HuggingFaceTB", "SmolLM3", "B", " ", "+", "=", "ſ", "K", "é", "abcdefghijklmnopqrstuvwxyz012"}
	r := rand.New(rand.NewPCG(1, 2))
	cases := []string{"", "a", "a-b", "a-", "claude-3-5-sonnet-20241022", "gpt-4o-2024-08-06", "HuggingFaceTB/SmolLM3-3B",
		"meta-llama/Llama-3.1-8B-Instruct", "a/b-c", "/a-b", "a//b-c", "a-b/c", "x-" + strings.Repeat("a", 24), "x-" + strings.Repeat("a", 25),
		"x" + strings.Repeat("-a", 10), "x" + strings.Repeat("-a", 11), strings.Repeat("o", 41) + "/a-b", strings.Repeat("o", 42) + "/a-b",
		"a..", "a.b", "a_b", "a:b", "1-a", "a-b-", "ſa-b", "a-ſ", "a-K"}
	for range 300000 {
		cases = append(cases, randomShape(r, pieces, r.IntN(14)))
	}
	for _, s := range cases {
		if got, want := isModelName(s), modelName.MatchString(s); got != want {
			t.Fatalf("isModelName(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func TestIsPlaceholderMatchesExpression(t *testing.T) {
	pieces := []string{"$", "%", "<", ">", "{", "}", "[", "]", "(", ")", "*", "x", "X", ".", "-", "_", "#", " ", "a", "9", "Z",
		"your", "YOUR", "change", "me", "os", "process", "env", "null", "None", "TRUE", "token", "secret", "redacted", "placeholder",
		"undefined", "xx", "..", "**", "ſ", "K", "é", "'", "\"", "abcdefghijklmnop"}
	r := rand.New(rand.NewPCG(3, 4))
	cases := []string{"", "x", "changeme", "change-me", "CHANGE_ME", "yourKey12", "os.environ['X']", "process.env.KEY", "${VAR}",
		"<your-key>", "{{ secret }}", "abcxxxdef", "a***b", "a...b", "null", "NIL", "tokens", "toKen", "paſs", "os.", "Os.x",
		strings.Repeat("a", 17) + "xxx", "test", "testing"}
	for range 300000 {
		cases = append(cases, randomShape(r, pieces, r.IntN(8)))
	}
	for w := range placeholderWordSet {
		cases = append(cases, w, strings.ToUpper(w), w+"s", "a"+w)
	}
	for _, s := range cases {
		if got, want := isPlaceholder(s), placeholder.MatchString(s); got != want {
			t.Fatalf("isPlaceholder(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

// The prefilters reject only texts their expressions cannot match.
func TestGitRefOpeningPrefilter(t *testing.T) {
	pieces := []string{" ", "\t", "\n", "+", " ", "*", "a", "f", "0", "9", "g", "x", "...", "..", "[new branch]", "[new tag]", "- [deleted]",
		"= [up to date]", "! [rejected]", "1234567", "abcdef0", "main -> main"}
	r := rand.New(rand.NewPCG(5, 6))
	matched := 0
	for range 300000 {
		s := randomShape(r, pieces, r.IntN(10))
		if gitRefLine.MatchString(s) {
			matched++
			if !gitRefOpening(s) {
				t.Fatalf("gitRefOpening(%q) = false, but the expression matches", s)
			}
		}
	}
	if matched == 0 {
		t.Fatal("no generated line matched the expression")
	}
}

// Every match of an added rule holds one literal of each set requiredLiterals reads from
// its expression: on a sample of the texts the equivalence check sanitizes, and on forms the
// parser factors.
func TestRequiredLiteralsHoldInMatches(t *testing.T) {
	var texts []string
	for i, e := range equivalenceTexts(t) {
		if i%16 == 0 { // a sample: every expression over every text takes minutes
			texts = append(texts, e.text)
		}
	}
	g := extraGates()
	checked := 0
	for _, text := range texts {
		view := escapeView(text)
		if !isASCII(view) {
			continue
		}
		lower := asciiLower(view)
		for i := range extraRules {
			req := g.required[i]
			if req == nil {
				continue
			}
			for _, m := range extraRules[i].re.FindAllStringIndex(view, -1) {
				checked++
				if !holdsRequired(req, view[m[0]:m[1]], lower[m[0]:m[1]]) {
					t.Fatalf("rule %d (%s) matched %q, which holds no literal of one of %v", i, extraRules[i].id, view[m[0]:m[1]], req)
				}
			}
		}
	}
	if checked < 200 {
		t.Fatalf("only %d matches checked", checked)
	}
	// A rule's literals, read from a form the parser factors: p(?:assword|w(?:d|)), (?i),
	// alternations; an optional part holds none.
	parse := func(expr string) *syntax.Regexp {
		re, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		return re
	}
	got := fmt.Sprint(requiredLiterals(parse(`(?i)\b(?:[\w-]*(?:password|pwd|pw|secret)|pin)s?\s+(?:is|was)\s+(x+)`)))
	for _, want := range []string{"[{password true} {pw true} {secret true} {pin true}]", "[{is true} {was true}]"} {
		if !strings.Contains(got, want) {
			t.Fatalf("requiredLiterals = %v, want the set %v in it", got, want)
		}
	}
	for _, expr := range []string{`a|b*`, `(?:ab)?c*`, `x{0,3}`} {
		if req := requiredLiterals(parse(expr)); req != nil {
			t.Fatalf("requiredLiterals(%s) = %v, want none", expr, req)
		}
	}
}

// squeeze's marks give every kept byte's position, as the position list squeeze returned
// before (written out here) did.
func TestSqueezePositions(t *testing.T) {
	reference := func(s string) (string, []int) {
		var b strings.Builder
		var pos []int
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				continue
			case c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r' || s[i+1] == 't'):
				i++
				continue
			case c == '"' || c == '\'':
				if j := literalJoint(s, i); j > i {
					i = j
					continue
				}
			}
			b.WriteByte(c)
			pos = append(pos, i)
		}
		return b.String(), pos
	}
	pieces := []string{" ", "\t", "\n", "\r", `\`, "n", "t", `"`, "'", "+", ".", "..", "&", "||", "a", "b", "9", `" + "`, `' . '`, `\n`}
	r := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		s := randomShape(r, pieces, r.IntN(120))
		wantNorm, wantPos := reference(s)
		norm, marks := squeeze(s)
		if norm != wantNorm {
			t.Fatalf("squeeze(%q) = %q, want %q", s, norm, wantNorm)
		}
		for k, p := range wantPos {
			if got := squeezedPos(s, marks, k); got != p {
				t.Fatalf("squeezedPos(%q, %d) = %d, want %d", s, k, got, p)
			}
		}
	}
}

func TestHasPathSegmentPrefilter(t *testing.T) {
	pieces := []string{"/", "\\", "//", "\\\\", "\\/", "a", "Z", "9", ".", "-", " ", ":", "C:", "file:", "file:///", "%USERPROFILE%",
		"$HOME", "${HOME}", "\"", "'", "<", "*", "?", "é", "\xff", "\v", "home", "Users"}
	r := rand.New(rand.NewPCG(13, 14))
	matched := 0
	for range 300000 {
		s := randomShape(r, pieces, r.IntN(8))
		if pathToken.MatchString(s) {
			matched++
			if !hasPathSegment(s) {
				t.Fatalf("hasPathSegment(%q) = false, but pathToken matches", s)
			}
		}
	}
	if matched == 0 {
		t.Fatal("no generated token matched pathToken")
	}
}
