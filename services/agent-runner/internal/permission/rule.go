// Package permission decides whether a tool call may run: ordered rules where the first match
// wins (default ask), human approval over the event bus for "ask", and remembered approvals
// saved per project and agent.
package permission

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Action is what a rule decides.
type Action string

// Actions.
const (
	Allow Action = "allow"
	Deny  Action = "deny"
	Ask   Action = "ask"
)

// Valid reports whether a is one of the three actions.
func (a Action) Valid() bool { return a == Allow || a == Deny || a == Ask }

// Rule matches a tool (glob) and optionally the call's argument (glob).
type Rule struct {
	Tool    string `json:"tool"`
	Pattern string `json:"pattern,omitempty"`
	Action  Action `json:"action"`
}

// Validate checks the rule's globs and action.
func (r Rule) Validate() error {
	if !r.Action.Valid() {
		return fmt.Errorf("action %q: want allow, deny or ask", r.Action)
	}
	if r.Tool == "" {
		return fmt.Errorf("tool: must not be empty (use \"*\" for every tool)")
	}
	if !doublestar.ValidatePattern(r.Tool) {
		return fmt.Errorf("tool %q: bad glob", r.Tool)
	}
	if r.Pattern != "" && !doublestar.ValidatePattern(r.Pattern) {
		return fmt.Errorf("pattern %q: bad glob", r.Pattern)
	}
	return nil
}

// Kind says how a request's pattern is matched.
type Kind string

const (
	// KindText: "*" matches any run of characters, "?" one (URLs, MCP arguments).
	KindText Kind = "text"
	// KindPath: doublestar path globs ("*" stays within a directory, "**" crosses them).
	KindPath Kind = "path"
	// KindCommand: a shell line, split into its simple commands (SplitCommands); each is
	// matched as text and must be allowed on its own.
	KindCommand Kind = "command"
)

// UnmarshalJSON also reads the numbers requests were stored with before kinds had names.
func (k *Kind) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "0":
		*k = KindText
		return nil
	case "1":
		*k = KindPath
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("permission kind: %w", err)
	}
	*k = Kind(s)
	return nil
}

// AllPatterns reports whether a rule pattern covers every call of its tool.
func AllPatterns(pattern string) bool { return pattern == "" || pattern == "*" || pattern == "**" }

// Match reports whether the rule applies to a call of tool acting on s.
func (r Rule) Match(tool string, s Subject, kind Kind) bool {
	if ok, _ := doublestar.Match(r.Tool, tool); !ok {
		return false
	}
	if AllPatterns(r.Pattern) {
		return true
	}
	if s.Opaque && r.Action != Deny {
		return false
	}
	if kind == KindPath {
		ok, _ := doublestar.Match(r.Pattern, s.Text)
		return ok
	}
	return wildcard(r.Pattern).MatchString(s.Text)
}

var wildcards sync.Map // pattern → *regexp.Regexp

// wildcard compiles a text glob: "*" any run, "?" one character, a backslash before "*",
// "?" or another backslash makes that character literal, everything else is literal.
func wildcard(p string) *regexp.Regexp {
	if re, ok := wildcards.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\\' && i+1 < len(rs) && strings.ContainsRune(`*?\`, rs[i+1]):
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case r == '*':
			b.WriteString(`.*`)
		case r == '?':
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`$`)
	re := regexp.MustCompile(b.String())
	wildcards.Store(p, re)
	return re
}

// Literal escapes s as a text pattern that matches s and nothing else.
func Literal(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`).Replace(s)
}

// Evaluate returns the action of the first rule matching the call, or Ask when none does,
// with the index of the matching rule (-1 for the default).
func Evaluate(rules []Rule, tool string, s Subject, kind Kind) (Action, int) {
	for i, r := range rules {
		if r.Match(tool, s, kind) {
			return r.Action, i
		}
	}
	return Ask, -1
}
