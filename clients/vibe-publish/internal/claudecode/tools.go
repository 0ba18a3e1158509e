package claudecode

import (
	"regexp"
	"strconv"
	"strings"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/clients/vibe-publish/internal/linediff"
)

// fileTools are the tools that change files.
var fileTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}

// describe says what a tool call is, for its summaries.
func (m *Mapper) describe(name string, in toolInput, cwd string) activity.Tool {
	t := activity.Tool{Name: name}
	switch name {
	case "Bash":
		t.Kind, t.Command, t.Description = activity.Shell, in.Command, in.Description
	case "Read", "NotebookRead":
		t.Kind, t.Path = activity.Read, m.rel(cwd, activity.First(in.FilePath, in.NotebookPath))
	case "Grep":
		t.Kind, t.Pattern, t.Path = activity.Search, in.Pattern, m.rel(cwd, in.Path)
	case "Glob":
		t.Kind, t.Pattern = activity.List, in.Pattern
	case "LS":
		t.Kind, t.Path = activity.List, m.rel(cwd, in.Path)
	case "Edit", "MultiEdit", "NotebookEdit":
		t.Kind, t.Path = activity.Edit, m.rel(cwd, activity.First(in.FilePath, in.NotebookPath))
	case "Write":
		t.Kind, t.Path = activity.Write, m.rel(cwd, in.FilePath)
	case "WebSearch":
		t.Kind, t.Query = activity.WebSearch, in.Query
	case "WebFetch":
		t.Kind, t.URL = activity.Fetch, in.URL
	case "Task", "Agent":
		t.Kind, t.Description = activity.Agent, in.Description
	case "TodoWrite":
		t.Kind = activity.Plan
	}
	return t
}

var exitCodeRE = regexp.MustCompile(`(?i)\bexit code:? (\d+)`)

// outcome reads what came of a call from its tool_result and toolUseResult.
func outcome(tu toolUse, isError bool, text string, res toolResult) activity.Outcome {
	o := activity.Outcome{Failed: isError, Matches: -1, Output: text}
	if res.Stdout != "" || res.Stderr != "" {
		o.Output = res.Stdout + "\n" + res.Stderr
	}
	if isError {
		if m := exitCodeRE.FindStringSubmatch(text); m != nil {
			o.ExitCode, _ = strconv.Atoi(m[1])
		}
	}
	switch tu.tool.Kind {
	case activity.Search, activity.List:
		switch {
		case res.NumFiles != nil:
			o.Matches = *res.NumFiles
		case res.Filenames != nil:
			o.Matches = len(res.Filenames)
		}
	case activity.Plan:
		todos := res.NewTodos
		if todos == nil {
			todos = tu.input.Todos
		}
		o.Total = len(todos)
		for _, t := range todos {
			if t.Status == "completed" {
				o.Done++
			}
		}
	}
	return o
}

// fileChange describes the change a successful file-editing tool call made.
func (m *Mapper) fileChange(tu toolUse, res toolResult) (activity.FileChange, bool) {
	in := tu.input
	fc := activity.FileChange{Path: tu.tool.Path, Operation: "edit"}
	if fc.Path == "" || fc.Path == "." {
		return fc, false
	}
	switch tu.name {
	case "Edit":
		fc.Added, fc.Removed = linediff.Stat(in.OldString, in.NewString)
		fc.Snippet = linediff.Hunk(in.OldString, in.NewString, activity.SnippetLines)
	case "MultiEdit":
		for _, e := range in.Edits {
			a, r := linediff.Stat(e.OldString, e.NewString)
			fc.Added, fc.Removed = fc.Added+a, fc.Removed+r
		}
		if n := len(in.Edits); n > 0 {
			fc.Snippet = linediff.Hunk(in.Edits[0].OldString, in.Edits[0].NewString, activity.SnippetLines)
		}
	case "Write":
		switch {
		case res.Type == "create":
			fc.Operation, fc.Added = "create", linediff.Count(in.Content)
			fc.Snippet = linediff.Added(in.Content, activity.SnippetLines)
		case res.OriginalFile != nil:
			fc.Added, fc.Removed = linediff.Stat(*res.OriginalFile, in.Content)
			fc.Snippet = linediff.Hunk(*res.OriginalFile, in.Content, activity.SnippetLines)
		default:
			fc.Added = linediff.Count(in.Content)
			fc.Snippet = linediff.Added(in.Content, activity.SnippetLines)
		}
	case "NotebookEdit":
		fc.Added = max(linediff.Count(in.NewSource), 1)
		if in.EditMode != "delete" {
			fc.Snippet = linediff.Added(in.NewSource, activity.SnippetLines)
		}
	}
	if len(res.StructuredPatch) > 0 && tu.name != "Write" { // Claude Code's own count of the applied edit
		fc.Added, fc.Removed = patchStat(res)
	}
	return fc, true
}

func patchStat(res toolResult) (added, removed int) {
	for _, h := range res.StructuredPatch {
		for _, l := range h.Lines {
			switch {
			case strings.HasPrefix(l, "+"):
				added++
			case strings.HasPrefix(l, "-"):
				removed++
			}
		}
	}
	return added, removed
}

// noisePrefixes start user "messages" that Claude Code writes itself (slash commands, their
// output, interruptions, notifications, the summary a compacted session continues from), not
// prompts the streamer typed.
var noisePrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "<local-command-caveat>", "<system-reminder>", "<user-prompt-submit-hook>",
	"<bash-stdout>", "<bash-stderr>", "<task-notification>", "<task-id>", "<teammate-message",
	"Caveat: The messages below were generated", "[Request interrupted by user",
	"This session is being continued from a previous conversation",
}

func isNoise(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return true
	}
	for _, p := range noisePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// contextBlocks are what the IDE extensions and hooks attach to a prompt: the file the
// streamer has open, the code they selected (which they did not type and may not want shown),
// diagnostics, reminders.
var contextBlocks = regexp.MustCompile(`(?s)<(ide_opened_file|ide_selection|ide_diagnostics|system-reminder)>.*?</(ide_opened_file|ide_selection|ide_diagnostics|system-reminder)>`)

func stripContext(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	return strings.TrimSpace(contextBlocks.ReplaceAllString(text, ""))
}

var bashInputRE = regexp.MustCompile(`(?s)^\s*<bash-input>(.*?)</bash-input>\s*$`)

func bashInput(text string) (string, bool) {
	m := bashInputRE.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return strings.TrimSpace(m[1]), true
}
