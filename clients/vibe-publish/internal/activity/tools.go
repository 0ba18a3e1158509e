package activity

import (
	"fmt"
	"net/url"
	"strings"
)

// Kind is what a tool does, whatever the agent calls it.
type Kind int

// Tool kinds.
const (
	Other     Kind = iota
	Shell          // runs a command
	Read           // reads a file
	Search         // searches file contents for a pattern
	List           // lists files (glob, ls)
	Edit           // changes an existing file
	Write          // writes a whole file
	WebSearch      // searches the web
	Fetch          // fetches a URL
	Agent          // starts a sub-agent
	Plan           // updates a to-do list
)

// Tool describes one call for its summary. Only what the summary needs is filled in.
type Tool struct {
	Name        string // the agent's tool name
	Kind        Kind
	Command     string // Shell
	Description string // what the agent says the call does (Claude's Bash and Task descriptions)
	Path        string // Read, Edit, Write, List: project-relative
	Pattern     string // Search, List
	Query       string // WebSearch
	URL         string // Fetch
}

// Outcome is what came of a call.
type Outcome struct {
	Failed   bool
	ExitCode int    // Shell, when known and Failed
	Output   string // Shell: read for test results
	Matches  int    // Search, List: files found; -1 when unknown
	Done     int    // Plan: items done
	Total    int    // Plan: items
	// Unfinished: the session ended (or a newer one began) before the call returned.
	Unfinished bool
}

// StartSummary says what a call is about to do.
func StartSummary(t Tool) string {
	switch t.Kind {
	case Shell:
		if c := classify(t.Command); c.tests {
			return "Running " + c.label
		} else if t.Description != "" {
			return t.Description
		} else if c.label != "" {
			return "Running " + c.label
		}
	case Read:
		if t.Path != "" {
			return "Reading " + t.Path
		}
	case Search:
		if t.Pattern != "" {
			return "Searching for " + code(t.Pattern) + in(t.Path)
		}
	case List:
		if t.Pattern != "" {
			return "Listing files matching " + code(t.Pattern)
		} else if t.Path != "" {
			return "Listing " + t.Path
		}
	case Edit, Write:
		if t.Path != "" {
			return "Editing " + t.Path
		}
	case WebSearch:
		if t.Query != "" {
			return "Searching the web for " + quote(t.Query)
		}
	case Fetch:
		if h := host(t.URL); h != "" {
			return "Fetching " + h
		}
	case Agent:
		if t.Description != "" {
			return "Starting a sub-agent: " + t.Description
		}
		return "Starting a sub-agent"
	case Plan:
		return "Updating the plan"
	}
	return "Running " + name(t)
}

// EndSummary says what a call did.
func EndSummary(t Tool, o Outcome) string {
	if o.Unfinished {
		return StartSummary(t) + " — no result"
	}
	switch t.Kind {
	case Shell:
		return shellEnd(t, o)
	case Read:
		if t.Path != "" {
			return failed(o, "Could not read "+t.Path, "Read "+t.Path)
		}
	case Search:
		if t.Pattern != "" {
			return failed(o, "Search for "+code(t.Pattern)+" failed", "Searched for "+code(t.Pattern)+in(t.Path)+found(o.Matches))
		}
	case List:
		if t.Pattern != "" {
			return failed(o, "Listing "+code(t.Pattern)+" failed", "Listed files matching "+code(t.Pattern)+found(o.Matches))
		} else if t.Path != "" {
			return failed(o, "Could not list "+t.Path, "Listed "+t.Path)
		}
	case Edit, Write:
		if t.Path != "" {
			return failed(o, "Could not edit "+t.Path, "Edited "+t.Path)
		}
	case WebSearch:
		if t.Query != "" {
			return failed(o, "Web search failed", "Searched the web for "+quote(t.Query))
		}
	case Fetch:
		if h := host(t.URL); h != "" {
			return failed(o, "Could not fetch "+h, "Fetched "+h)
		}
	case Agent:
		d := ""
		if t.Description != "" {
			d = ": " + t.Description
		}
		return failed(o, "Sub-agent failed"+d, "Sub-agent finished"+d)
	case Plan:
		if o.Total > 0 {
			return fmt.Sprintf("Updated the plan (%d of %d done)", o.Done, o.Total)
		}
		return "Updated the plan"
	}
	return failed(o, name(t)+" failed", "Used "+name(t))
}

func shellEnd(t Tool, o Outcome) string {
	c := classify(t.Command)
	if c.tests {
		return "Ran " + c.label + testResult(o)
	}
	what := "Ran " + c.label
	if t.Description != "" {
		what = t.Description
	} else if c.label == "" {
		what = "Ran a command"
	}
	if !o.Failed {
		return what
	}
	if o.ExitCode > 0 {
		return fmt.Sprintf("%s — failed (exit %d)", what, o.ExitCode)
	}
	return what + " — failed"
}

func testResult(o Outcome) string {
	failedN, passedN, ok := TestCounts(o.Output)
	switch {
	case ok && failedN > 0:
		return fmt.Sprintf(" — %d failed", failedN)
	case o.Failed:
		return " — failed"
	case ok && passedN > 0:
		return fmt.Sprintf(" — %d passed", passedN)
	}
	return " — passed"
}

func failed(o Outcome, bad, good string) string {
	if o.Failed {
		return bad
	}
	return good
}

func name(t Tool) string {
	if t.Name == "" {
		return "a tool"
	}
	return t.Name
}

func found(n int) string {
	switch {
	case n < 0:
		return ""
	case n == 0:
		return " — nothing found"
	case n == 1:
		return " — 1 file"
	}
	return fmt.Sprintf(" — %d files", n)
}

func in(p string) string {
	if p == "" || p == "." {
		return ""
	}
	return " in " + p
}

func code(s string) string {
	s = Truncate(strings.Join(strings.Fields(s), " "), 60)
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

func quote(s string) string {
	return "“" + Truncate(strings.Join(strings.Fields(s), " "), 80) + "”"
}

func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Hostname()
}

func fileSummary(fc FileChange) string {
	stat := ""
	switch {
	case fc.Added > 0 && fc.Removed > 0:
		stat = fmt.Sprintf(" (+%d −%d)", fc.Added, fc.Removed)
	case fc.Added > 0:
		stat = fmt.Sprintf(" (+%d)", fc.Added)
	case fc.Removed > 0:
		stat = fmt.Sprintf(" (−%d)", fc.Removed)
	}
	switch fc.Operation {
	case "create":
		return "Created " + fc.Path + stat
	case "delete":
		return "Deleted " + fc.Path
	case "rename":
		return "Moved " + fc.Path + stat
	}
	return "Edited " + fc.Path + stat
}
