package gemini

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/clients/vibe-publish/internal/linediff"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "gemini-cli"

var idSpace = uuid.MustParse("c1e7a3d4-5b6f-4e28-9a0b-7d3c2f1e6b85")

// events is every event a session's state shows, in order, with ids derived from the
// session's message and tool-call ids: reading a newer state of the same session gives the
// same ids for what was already there. A tool call's end is there once its status is final;
// open holds the ends to send for calls still running if no result will come.
func events(c conversation, root string) (out, open []vibe.Event) {
	b := activity.Builder{Space: idSpace, Channel: Channel, SessionID: c.SessionID}
	if root != "" {
		b.Workspace = activity.BaseName(root)
	}
	for _, m := range c.Messages {
		if m.ID == "" {
			continue
		}
		mb := b
		mb.Model = m.Model
		switch m.Type {
		case "user":
			if t := strings.TrimSpace(m.text()); t != "" && !strings.HasPrefix(t, "/") {
				out = append(out, mb.Prompt(m.ID+"/text", "message.user", m.Timestamp, m.text()))
			}
		case "gemini", "model":
			evs, unfinished := geminiEvents(mb, m, root)
			out, open = append(out, evs...), append(open, unfinished...)
		}
	}
	return out, open
}

func geminiEvents(b activity.Builder, m message, root string) (out, open []vibe.Event) {
	for i, th := range m.Thoughts {
		text := strings.TrimSpace(th.Description)
		if th.Subject != "" {
			text = "**" + th.Subject + "**\n\n" + text
		}
		if strings.TrimSpace(text) != "" {
			out = append(out, b.Thinking(m.ID+"/thought/"+strconv.Itoa(i), "message.gemini.thought", activity.First(th.Timestamp, m.Timestamp), text))
		}
	}
	if t := m.text(); strings.TrimSpace(t) != "" {
		out = append(out, b.Response(m.ID+"/text", "message.gemini", m.Timestamp, t))
	}
	for i, tc := range m.ToolCalls {
		key := m.ID + "/tool/" + activity.First(tc.ID, strconv.Itoa(i))
		at := activity.First(tc.Timestamp, m.Timestamp)
		var a args
		_ = json.Unmarshal(tc.Args, &a)
		t := describe(tc.Name, a, root)
		out = append(out, b.ToolStart(key, "toolCall", at, t, activity.CompactJSON(tc.Args)))
		if !finished(tc.Status) {
			open = append(open, b.ToolEnd(key, "toolCall.unfinished", at, t, activity.Outcome{Unfinished: true}, ""))
			continue
		}
		res := resultText(tc.Result)
		o := outcome(tc, t, res)
		out = append(out, b.ToolEnd(key, "toolCall."+tc.Status, at, t, o, res))
		if !o.Failed {
			if fc, ok := fileChange(tc.Name, a, t, res, tc.ResultDisplay); ok {
				out = append(out, b.File(key, "toolCall."+tc.Name, at, fc))
			}
		}
	}
	return out, open
}

func finished(status string) bool {
	switch status {
	case "success", "error", "cancelled", "canceled":
		return true
	}
	return false
}

// args holds the arguments of Gemini CLI's built-in tools.
type args struct {
	Command   string   `json:"command"`
	Desc      string   `json:"description"`
	FilePath  string   `json:"file_path"`
	AbsPath   string   `json:"absolute_path"`
	Path      string   `json:"path"`
	DirPath   string   `json:"dir_path"`
	Paths     []string `json:"paths"`
	Pattern   string   `json:"pattern"`
	Query     string   `json:"query"`
	Prompt    string   `json:"prompt"`
	URL       string   `json:"url"`
	OldString string   `json:"old_string"`
	NewString string   `json:"new_string"`
	Content   string   `json:"content"`
	Todos     []struct {
		Status string `json:"status"`
	} `json:"todos"`
}

var urlRE = regexp.MustCompile(`https?://[^\s"'<>)]+`)

func describe(name string, a args, root string) activity.Tool {
	rel := func(p string) string { return activity.Relative(root, "", p) }
	t := activity.Tool{Name: name}
	switch name {
	case "run_shell_command":
		t.Kind, t.Command, t.Description = activity.Shell, a.Command, a.Desc
	case "read_file":
		t.Kind, t.Path = activity.Read, rel(activity.First(a.FilePath, a.AbsPath, a.Path))
	case "read_many_files":
		t.Kind = activity.Read
		if len(a.Paths) == 1 {
			t.Path = rel(a.Paths[0])
		} else if len(a.Paths) > 1 {
			t.Path = strconv.Itoa(len(a.Paths)) + " files"
		}
	case "write_file":
		t.Kind, t.Path = activity.Write, rel(activity.First(a.FilePath, a.AbsPath))
	case "replace", "edit":
		t.Kind, t.Path = activity.Edit, rel(activity.First(a.FilePath, a.AbsPath))
	case "glob":
		t.Kind, t.Pattern = activity.List, a.Pattern
	case "list_directory":
		t.Kind, t.Path = activity.List, rel(activity.First(a.DirPath, a.Path))
	case "search_file_content", "grep", "grep_search":
		t.Kind, t.Pattern = activity.Search, a.Pattern
	case "google_web_search":
		t.Kind, t.Query = activity.WebSearch, a.Query
	case "web_fetch":
		t.Kind, t.URL = activity.Fetch, activity.First(a.URL, urlRE.FindString(a.Prompt))
	case "write_todos":
		t.Kind = activity.Plan
	}
	return t
}

// resultText is what a tool returned to the model: the output of its functionResponse parts.
func resultText(raw json.RawMessage) string {
	var parts []struct {
		FunctionResponse struct {
			Response struct {
				Output json.RawMessage `json:"output"`
				Error  json.RawMessage `json:"error"`
			} `json:"response"`
		} `json:"functionResponse"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return partsText(raw)
	}
	var b strings.Builder
	for _, p := range parts {
		for _, r := range []json.RawMessage{p.FunctionResponse.Response.Output, p.FunctionResponse.Response.Error} {
			if s := partsText(r); s != "" {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(s)
			}
		}
		if p.Text != "" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

var (
	exitRE  = regexp.MustCompile(`(?m)^Exit Code: (-?\d+)`)
	foundRE = regexp.MustCompile(`(?i)\bFound (\d+) (?:files?|matche?s?)`)
)

func outcome(tc toolCall, t activity.Tool, res string) activity.Outcome {
	o := activity.Outcome{Failed: tc.Status != "success", Output: res, Matches: -1}
	if m := exitRE.FindStringSubmatch(res); m != nil {
		if n, _ := strconv.Atoi(m[1]); n != 0 {
			o.Failed, o.ExitCode = true, n
		}
	}
	if m := foundRE.FindStringSubmatch(res); m != nil {
		o.Matches, _ = strconv.Atoi(m[1])
	} else if strings.HasPrefix(res, "No files found") || strings.HasPrefix(res, "No matches found") {
		o.Matches = 0
	}
	if t.Kind == activity.Plan {
		var a args
		_ = json.Unmarshal(tc.Args, &a)
		o.Total = len(a.Todos)
		for _, td := range a.Todos {
			if td.Status == "completed" {
				o.Done++
			}
		}
	}
	return o
}

// fileChange describes what a successful write_file or replace did. The diff Gemini CLI shows
// (resultDisplay) gives the original file when it has one.
func fileChange(name string, a args, t activity.Tool, res string, display json.RawMessage) (activity.FileChange, bool) {
	if (t.Kind != activity.Write && t.Kind != activity.Edit) || t.Path == "" || t.Path == "." {
		return activity.FileChange{}, false
	}
	var d struct {
		OriginalContent *string `json:"originalContent"`
		NewContent      *string `json:"newContent"`
	}
	_ = json.Unmarshal(display, &d)
	fc := activity.FileChange{Path: t.Path, Operation: "edit"}
	switch {
	case d.OriginalContent != nil && d.NewContent != nil && *d.OriginalContent != "":
		fc.Added, fc.Removed = linediff.Stat(*d.OriginalContent, *d.NewContent)
		fc.Snippet = linediff.Hunk(*d.OriginalContent, *d.NewContent, activity.SnippetLines)
	case name == "write_file":
		if strings.Contains(res, "created") || (d.OriginalContent != nil && *d.OriginalContent == "") {
			fc.Operation = "create"
		}
		fc.Added = linediff.Count(a.Content)
		fc.Snippet = linediff.Added(a.Content, activity.SnippetLines)
	default:
		fc.Added, fc.Removed = linediff.Stat(a.OldString, a.NewString)
		fc.Snippet = linediff.Hunk(a.OldString, a.NewString, activity.SnippetLines)
	}
	return fc, true
}
