package opencode

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/clients/vibe-publish/internal/applypatch"
	"openvibe.live/backend/clients/vibe-publish/internal/linediff"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "opencode"

var idSpace = uuid.MustParse("8d2c6f4a-1e3b-4d57-a9c0-5b7e2f8d1c64")

// partEvents maps one part of a message. Its ids are derived from the part id, so a part
// read again (it changed) maps to the same ids; open is the end to send for a tool call that
// will not finish.
func partEvents(b activity.Builder, m messageInfo, p part, done bool, root string) (out []vibe.Event, open *vibe.Event) {
	at := millis(m.Time.Created)
	if p.Time != nil && p.Time.Start > 0 {
		at = millis(p.Time.Start)
	}
	switch {
	case p.Type == "text" && m.Role == "user":
		if !p.Synthetic && !p.Ignored && strings.TrimSpace(p.Text) != "" {
			out = append(out, b.Prompt(p.ID+"/text", "part.text.user", at, p.Text))
		}
	case p.Type == "text" && m.Role == "assistant":
		if p.final(done) && !p.Synthetic && strings.TrimSpace(p.Text) != "" {
			out = append(out, b.Response(p.ID+"/text", "part.text", at, p.Text))
		}
	case p.Type == "reasoning":
		if p.final(done) && strings.TrimSpace(p.Text) != "" {
			out = append(out, b.Thinking(p.ID+"/reasoning", "part.reasoning", at, p.Text))
		}
	case p.Type == "compaction":
		out = append(out, b.Status(p.ID+"/compaction", "part.compaction", at, "working", "Conversation compacted to free context"))
	case p.Type == "tool" && p.State != nil:
		return toolEvents(b, p, root, at)
	}
	return out, nil
}

// input holds the arguments of opencode's built-in tools.
type input struct {
	Command     string `json:"command"`
	Description string `json:"description"`
	FilePath    string `json:"filePath"`
	Path        string `json:"path"`
	Pattern     string `json:"pattern"`
	URL         string `json:"url"`
	Query       string `json:"query"`
	OldString   string `json:"oldString"`
	NewString   string `json:"newString"`
	Content     string `json:"content"`
	PatchText   string `json:"patchText"`
	Todos       []struct {
		Status string `json:"status"`
	} `json:"todos"`
}

// meta holds what opencode records about a finished call.
type meta struct {
	Exit     *int  `json:"exit"`
	Count    *int  `json:"count"`
	Matches  *int  `json:"matches"`
	Exists   *bool `json:"exists"`
	Filediff *struct {
		Before    string `json:"before"`
		After     string `json:"after"`
		Additions int    `json:"additions"`
		Deletions int    `json:"deletions"`
	} `json:"filediff"`
	Diff string `json:"diff"`
}

func toolEvents(b activity.Builder, p part, root, at string) ([]vibe.Event, *vibe.Event) {
	var in input
	_ = json.Unmarshal(p.State.Input, &in)
	t := describe(p.Tool, in, root)
	key := p.ID
	out := []vibe.Event{b.ToolStart(key, "part.tool", at, t, activity.CompactJSON(p.State.Input))}
	if !p.final(false) {
		end := b.ToolEnd(key, "part.tool.unfinished", at, t, activity.Outcome{Unfinished: true}, "")
		return out, &end
	}
	var md meta
	_ = json.Unmarshal(p.State.Metadata, &md)
	if p.State.Time != nil && p.State.Time.End > 0 {
		at = millis(p.State.Time.End)
	}
	o := activity.Outcome{Failed: p.State.Status == "error", Output: p.State.Output, Matches: -1}
	result := p.State.Output
	if o.Failed {
		result = p.State.Error
	}
	if md.Exit != nil && *md.Exit != 0 {
		o.Failed, o.ExitCode = true, *md.Exit
	}
	switch {
	case md.Count != nil:
		o.Matches = *md.Count
	case md.Matches != nil:
		o.Matches = *md.Matches
	}
	for _, td := range in.Todos {
		o.Total++
		if td.Status == "completed" {
			o.Done++
		}
	}
	if p.State.Status == "success" { // an older name of completed
		p.State.Status = "completed"
	}
	out = append(out, b.ToolEnd(key, "part.tool."+p.State.Status, at, t, o, result))
	if !o.Failed {
		for i, fc := range fileChanges(p.Tool, in, md, t, root) {
			out = append(out, b.File(key+"/"+strconv.Itoa(i), "part.tool."+p.Tool, at, fc))
		}
	}
	return out, nil
}

func describe(name string, in input, root string) activity.Tool {
	rel := func(p string) string { return activity.Relative(root, "", p) }
	t := activity.Tool{Name: name}
	switch name {
	case "bash":
		t.Kind, t.Command, t.Description = activity.Shell, in.Command, in.Description
	case "read":
		t.Kind, t.Path = activity.Read, rel(in.FilePath)
	case "edit", "multiedit":
		t.Kind, t.Path = activity.Edit, rel(in.FilePath)
	case "write":
		t.Kind, t.Path = activity.Write, rel(in.FilePath)
	case "patch", "apply_patch":
		t.Kind = activity.Edit
		if files := applypatch.Parse(in.PatchText); len(files) == 1 {
			t.Path = rel(files[0].Target())
		} else if len(files) > 1 {
			t.Path = strconv.Itoa(len(files)) + " files"
		}
	case "glob":
		t.Kind, t.Pattern = activity.List, in.Pattern
	case "list":
		t.Kind, t.Path = activity.List, rel(in.Path)
	case "grep":
		t.Kind, t.Pattern, t.Path = activity.Search, in.Pattern, rel(in.Path)
	case "webfetch":
		t.Kind, t.URL = activity.Fetch, in.URL
	case "websearch":
		t.Kind, t.Query = activity.WebSearch, in.Query
	case "task":
		t.Kind, t.Description = activity.Agent, in.Description
	case "todowrite":
		t.Kind = activity.Plan
	}
	return t
}

// fileChanges describes what a successful edit, write or patch call did.
func fileChanges(name string, in input, md meta, t activity.Tool, root string) []activity.FileChange {
	switch name {
	case "edit", "multiedit":
		fc := activity.FileChange{Path: t.Path, Operation: "edit"}
		if fd := md.Filediff; fd != nil {
			fc.Added, fc.Removed = linediff.Stat(fd.Before, fd.After)
			fc.Snippet = linediff.Hunk(fd.Before, fd.After, activity.SnippetLines)
		} else {
			fc.Added, fc.Removed = linediff.Stat(in.OldString, in.NewString)
			fc.Snippet = linediff.Hunk(in.OldString, in.NewString, activity.SnippetLines)
		}
		return keep(fc)
	case "write":
		fc := activity.FileChange{Path: t.Path, Operation: "create", Added: linediff.Count(in.Content), Snippet: linediff.Added(in.Content, activity.SnippetLines)}
		if md.Exists != nil && *md.Exists {
			fc.Operation = "edit"
		}
		return keep(fc)
	case "patch", "apply_patch":
		return applypatch.Changes(applypatch.Parse(in.PatchText), root, "")
	}
	return nil
}

func keep(fc activity.FileChange) []activity.FileChange {
	if fc.Path == "" || fc.Path == "." {
		return nil
	}
	return []activity.FileChange{fc}
}

func millis(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}
