// Package permission decides whether a tool call may run: ordered rules where the first match
// wins (default ask), human approval over the event bus for "ask", and remembered approvals
// saved per project and agent.
package permission

import (
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
type Kind int

const (
	// KindText: a "*" matches any run of characters (commands, URLs).
	KindText Kind = iota
	// KindPath: doublestar path globs ("*" stays within a directory, "**" crosses them).
	KindPath
)

// Match reports whether the rule applies to a call of tool with argument pattern.
func (r Rule) Match(tool, pattern string, kind Kind) bool {
	if ok, _ := doublestar.Match(r.Tool, tool); !ok {
		return false
	}
	if r.Pattern == "" || r.Pattern == "*" || r.Pattern == "**" {
		return true
	}
	if kind == KindPath {
		ok, _ := doublestar.Match(r.Pattern, pattern)
		return ok
	}
	return wildcard(r.Pattern).MatchString(pattern)
}

var wildcards sync.Map // pattern → *regexp.Regexp

// wildcard compiles a text glob: "*" any run, "?" one character, everything else literal.
func wildcard(p string) *regexp.Regexp {
	if re, ok := wildcards.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
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

// Evaluate returns the action of the first rule matching the call, or Ask when none does,
// with the index of the matching rule (-1 for the default).
func Evaluate(rules []Rule, tool, pattern string, kind Kind) (Action, int) {
	for i, r := range rules {
		if r.Match(tool, pattern, kind) {
			return r.Action, i
		}
	}
	return Ask, -1
}
