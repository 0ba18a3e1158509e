package specstory

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
)

// call is what a tool block shows of one call.
type call struct {
	tool    activity.Tool
	args    string
	outcome activity.Outcome
	result  string
	change  *activity.FileChange
}

var (
	attrRE     = regexp.MustCompile(`data-tool-(type|name)="([^"]*)"`)
	toolUseRE  = regexp.MustCompile(`^Tool use:\s*\*\*([^*]+)\*\*\s*(?:•\s*)?`)
	backtickRE = regexp.MustCompile("`([^`]+)`")
	fileLinkRE = regexp.MustCompile(`\]\((file://[^)\s]+)\)`)
	exitRE     = regexp.MustCompile(`(?i)(?:exit ?code|"exitCode")"?\s*[:=]?\s*(-?\d+)`)
	jsonKeyRE  = regexp.MustCompile(`"(original|command|commandLine|cmd|filePath|file_path|targetFile|target_file|path|absolutePath|query|pattern)"\s*:\s*"((?:[^"\\]|\\.)*)"`)
	pathLineRE = regexp.MustCompile("^(?:Path|File|Reading|Read file|Edit file):\\s*`?([^`]+?)`?\\s*$")
	quotedRE   = regexp.MustCompile(`"([^"]+)"`)
	readLineRE = regexp.MustCompile(`^Read file: [^\n]+$`)
	patchRE    = regexp.MustCompile(`(?m)^\*\*\* (Add|Update|Delete) File: (.+?)\s*$`)
)

// readTool reads a tool block: a <tool-use> or <details> block, or the earliest versions'
// command block and its output.
func readTool(lines []string, root string) call {
	var typ, name string
	if len(lines) > 0 && strings.HasPrefix(strings.TrimSpace(lines[0]), "<tool-use") {
		for _, m := range attrRE.FindAllStringSubmatch(lines[0], -1) {
			if m[1] == "type" {
				typ = m[2]
			} else {
				name = m[2]
			}
		}
	}
	summary := summaryOf(lines)
	body := html.UnescapeString(bodyOf(lines))
	if summary == "" && typ == "" && name == "" {
		if !readLineRE.MatchString(body) {
			return commandRun(body)
		}
		summary, body = body, ""
	}
	desc := summary
	if m := toolUseRE.FindStringSubmatch(summary); m != nil {
		if name == "" {
			name = strings.TrimSpace(m[1])
		}
		desc = strings.TrimSpace(summary[len(m[0]):])
	}
	c := call{result: strings.TrimSpace(body)}
	t := activity.Tool{Name: name}
	t.Kind = kindOf(typ, name, desc)
	if t.Name == "" {
		t.Name = nameOf(t.Kind, desc)
	}
	fields := jsonFields(body)
	switch t.Kind {
	case activity.Shell:
		t.Command = commandOf(desc, body, fields)
		c.args = t.Command
	case activity.Read, activity.Edit, activity.Write, activity.List:
		if p := pathOf(desc, body, fields); p != "" {
			t.Path = activity.Relative(root, "", p)
		}
		c.args = activity.First(t.Path, desc)
	case activity.Search:
		t.Pattern = patternOf(desc, fields)
		c.args = activity.First(t.Pattern, desc)
	case activity.WebSearch:
		t.Query = patternOf(desc, fields)
		c.args = t.Query
	case activity.Fetch:
		t.URL = fields["url"]
		c.args = activity.First(t.URL, desc)
	default:
		c.args = desc
	}
	if t.Description == "" && t.Kind == activity.Other {
		t.Description = desc
	}
	c.tool = t
	c.outcome = activity.Outcome{Matches: -1, Output: c.result}
	if m := exitRE.FindStringSubmatch(body); m != nil && m[1] != "0" {
		c.outcome.Failed = true
		c.outcome.ExitCode, _ = strconv.Atoi(m[1])
	}
	if t.Kind == activity.Shell {
		failed, _, _ := activity.TestCounts(c.result)
		c.outcome.Failed = c.outcome.Failed || failed > 0
	}
	if (t.Kind == activity.Edit || t.Kind == activity.Write) && t.Path != "" {
		c.change = changeOf(t, body)
	}
	return c
}

// commandRun reads the earliest Cursor versions' command run: a shell block and its output.
func commandRun(body string) call {
	blocks, _ := fencedBlocks(strings.TrimSpace(body))
	if len(blocks) == 0 {
		return call{}
	}
	t := activity.Tool{Name: "run_terminal_cmd", Kind: activity.Shell, Command: strings.TrimSpace(blocks[0].body)}
	c := call{tool: t, args: t.Command}
	if len(blocks) > 1 {
		c.result = strings.TrimSpace(blocks[1].body)
	}
	failed, _, _ := activity.TestCounts(c.result)
	c.outcome = activity.Outcome{Matches: -1, Output: c.result, Failed: failed > 0}
	return c
}

// summaryOf is the text of a block's first <summary>, which may span lines.
func summaryOf(lines []string) string {
	s := strings.Join(lines[:min(len(lines), 12)], "\n")
	i := strings.Index(s, "<summary>")
	if i < 0 {
		return ""
	}
	s = s[i+len("<summary>"):]
	if j := strings.Index(s, "</summary>"); j >= 0 {
		s = s[:j]
	} else if j := strings.Index(s, "\n"); j >= 0 {
		s = s[:j]
	}
	return html.UnescapeString(strings.TrimSpace(strings.Join(strings.Fields(s), " ")))
}

// bodyOf is what a block holds after its summary, without the tags around it.
func bodyOf(lines []string) string {
	s := strings.Join(lines, "\n")
	if i := strings.Index(s, "</summary>"); i >= 0 {
		s = s[i+len("</summary>"):]
	} else if strings.HasPrefix(strings.TrimSpace(s), "<") && strings.Contains(s, "<summary>") {
		if j := strings.Index(s[strings.Index(s, "<summary>"):], "\n"); j >= 0 {
			s = s[strings.Index(s, "<summary>")+j:]
		}
	}
	for _, tag := range []string{"</tool-use>", "</details>"} {
		s = strings.TrimSpace(s)
		s = strings.TrimSpace(strings.TrimSuffix(s, tag))
		s = strings.TrimSuffix(s, "</details>")
	}
	if strings.HasPrefix(strings.TrimSpace(s), "<tool-use") || strings.HasPrefix(strings.TrimSpace(s), "<details") {
		if i := strings.Index(s, "\n"); i >= 0 {
			s = s[i+1:]
		} else {
			s = ""
		}
	}
	return strings.TrimSpace(s)
}

// kindOf tells what a call does from its tool type, its name, or (the early versions, which
// name no tool) its summary.
func kindOf(typ, name, desc string) activity.Kind {
	n := strings.ToLower(name)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(n, w) {
				return true
			}
		}
		return false
	}
	switch {
	case n == "":
	case has("lint", "error", "diagnos", "image"):
		return activity.Other
	case has("terminal", "shell", "bash", "exec", "runtests", "run_test") || n == "command" || n == "run_command":
		return activity.Shell
	case has("todo", "plan"):
		return activity.Plan
	case has("web_search", "websearch", "searchweb", "search_web"):
		return activity.WebSearch
	case has("fetch"):
		return activity.Fetch
	case has("edit", "replace", "patch", "multi_edit"):
		return activity.Edit
	case has("write", "create_file", "createfile", "new_file"):
		return activity.Write
	case has("read", "view_file", "open_file"):
		return activity.Read
	case has("grep", "search", "find", "semantic"):
		return activity.Search
	case has("list", "glob", "ls", "directory"):
		return activity.List
	case has("task", "agent"):
		return activity.Agent
	}
	switch typ {
	case "shell", "bash":
		return activity.Shell
	case "read":
		return activity.Read
	case "write":
		return activity.Edit
	case "search", "grep":
		return activity.Search
	case "task":
		return activity.Plan
	}
	if n != "" {
		return activity.Other
	}
	switch d := desc; {
	case strings.HasPrefix(d, "Edit file"), strings.HasPrefix(d, "Apply patch"):
		return activity.Edit
	case strings.HasPrefix(d, "Read file"), strings.HasPrefix(d, "Reading"):
		return activity.Read
	case strings.HasPrefix(d, "Listed"):
		return activity.List
	case strings.HasPrefix(d, "Searched web"):
		return activity.WebSearch
	case strings.HasPrefix(d, "Searched"), strings.HasPrefix(d, "Grep search"), strings.HasPrefix(d, "Search"):
		return activity.Search
	case strings.HasPrefix(d, "Run command"):
		return activity.Shell
	}
	return activity.Other
}

// nameOf names a call the early versions did not name, after Cursor's own tools.
func nameOf(k activity.Kind, desc string) string {
	switch k {
	case activity.Edit:
		return "edit_file"
	case activity.Read:
		return "read_file"
	case activity.List:
		return "list_dir"
	case activity.WebSearch:
		return "web_search"
	case activity.Search:
		if strings.HasPrefix(desc, "Grep") {
			return "grep_search"
		}
		return "codebase_search"
	case activity.Shell:
		return "run_terminal_cmd"
	}
	if strings.HasPrefix(desc, "MCP tool call") {
		return "mcp"
	}
	if desc != "" {
		return "tool"
	}
	return ""
}

// jsonFields picks the arguments SpecStory's "Parameters:" JSON shows (the first of each).
func jsonFields(body string) map[string]string {
	out := map[string]string{}
	for _, m := range jsonKeyRE.FindAllStringSubmatch(body, -1) {
		if _, ok := out[m[1]]; ok {
			continue
		}
		var v string
		if json.Unmarshal([]byte(`"`+m[2]+`"`), &v) != nil {
			v = m[2]
		}
		out[m[1]] = html.UnescapeString(v)
	}
	if u := regexp.MustCompile(`"url"\s*:\s*"([^"]+)"`).FindStringSubmatch(body); u != nil {
		out["url"] = u[1]
	}
	return out
}

func commandOf(desc, body string, fields map[string]string) string {
	if i := strings.Index(desc, "Run command:"); i >= 0 {
		return strings.TrimSpace(desc[i+len("Run command:"):])
	}
	blocks, _ := fencedBlocks(body)
	for _, b := range blocks {
		if shellLangs[strings.ToLower(b.lang)] {
			return strings.TrimSpace(b.body)
		}
	}
	if v := activity.First(fields["original"], fields["command"], fields["commandLine"], fields["cmd"]); v != "" {
		return v
	}
	for _, l := range strings.Split(body, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "Command:"); ok {
			return strings.TrimSpace(c)
		}
	}
	if m := backtickRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

func pathOf(desc, body string, fields map[string]string) string {
	if strings.HasPrefix(desc, "Listed current directory") {
		return "."
	}
	for _, p := range []string{"Read file:", "Edit file:", "Apply patch for", "Listed directory", "Reading", "Read"} {
		if rest, ok := strings.CutPrefix(desc, p); ok {
			rest = strings.TrimSpace(rest)
			if m := fileLinkRE.FindStringSubmatch(rest); m != nil {
				return fileURL(m[1])
			}
			if i := strings.Index(rest, " • "); i >= 0 {
				rest = rest[:i]
			}
			if i := strings.Index(rest, ", lines"); i >= 0 {
				rest = rest[:i]
			}
			if rest = strings.Trim(rest, "` "); rest != "" && rest != "undefined" && !strings.Contains(rest, "**") {
				return rest
			}
		}
	}
	if m := fileLinkRE.FindStringSubmatch(desc); m != nil {
		return fileURL(m[1])
	}
	if m := patchRE.FindStringSubmatch(body); m != nil {
		return m[2]
	}
	if v := activity.First(fields["filePath"], fields["file_path"], fields["targetFile"], fields["target_file"], fields["absolutePath"], fields["path"]); v != "" {
		return v
	}
	for _, l := range strings.Split(body, "\n") {
		if m := pathLineRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			return m[1]
		}
	}
	if m := backtickRE.FindStringSubmatch(desc); m != nil {
		return m[1]
	}
	if first, _, _ := strings.Cut(strings.TrimSpace(body), "\n"); first != "" {
		if m := backtickRE.FindStringSubmatch(first); m != nil && strings.TrimSpace(first) == "`"+m[1]+"`" {
			return m[1]
		}
	}
	return ""
}

func fileURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	p := u.Path
	if len(p) > 3 && p[0] == '/' && p[2] == ':' { // file:///c:/…
		p = p[1:]
	}
	return p
}

func patternOf(desc string, fields map[string]string) string {
	if v := activity.First(fields["query"], fields["pattern"]); v != "" {
		return v
	}
	if m := quotedRE.FindStringSubmatch(desc); m != nil {
		return m[1]
	}
	if m := backtickRE.FindStringSubmatch(desc); m != nil {
		return m[1]
	}
	return ""
}

// changeOf counts the lines a diff block of an edit adds and removes; a block without a diff
// is the file (or the text) written.
func changeOf(t activity.Tool, body string) *activity.FileChange {
	fc := activity.FileChange{Path: t.Path, Operation: "edit"}
	if m := patchRE.FindStringSubmatch(body); m != nil && m[1] != "Update" {
		fc.Operation = map[string]string{"Add": "create", "Delete": "delete"}[m[1]]
	} else if t.Kind == activity.Write || strings.Contains(strings.ToLower(t.Name), "create") {
		fc.Operation = "create"
	}
	blocks, _ := fencedBlocks(body)
	var snippet []string
	for _, b := range blocks {
		if b.lang != "diff" && b.lang != "patch" && !strings.HasPrefix(b.body, "*** Begin Patch") {
			continue
		}
		for _, l := range strings.Split(b.body, "\n") {
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "***"):
				continue
			case strings.HasPrefix(l, "+"):
				fc.Added++
			case strings.HasPrefix(l, "-"):
				fc.Removed++
			}
			if len(snippet) < activity.SnippetLines {
				snippet = append(snippet, l)
			}
		}
	}
	if len(snippet) == 0 && len(blocks) > 0 && fc.Operation == "create" {
		fc.Added = strings.Count(blocks[0].body, "\n") + 1
		snippet = strings.Split(blocks[0].body, "\n")
		snippet = snippet[:min(len(snippet), activity.SnippetLines)]
	}
	fc.Snippet = strings.Join(snippet, "\n")
	return &fc
}
