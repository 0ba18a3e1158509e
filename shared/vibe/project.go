package vibe

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Project returns the event a viewer may see given the slot's settings, or nil when viewers
// see nothing of it: the event is streamer-only, the slot is disabled or paused, or its type
// is switched off (the part of WhyHidden that reads only the event and the settings; callers
// with a stored event check WhyHidden first). The result is a new Event; ev is not modified.
// Settings are applied when the event is read, so a settings change applies to history too.
func Project(ev *Event, s Settings) *Event {
	if ev == nil || hiddenBySettings(ev.EventType, ev.Visibility, s) != Shown {
		return nil
	}
	p := &Event{
		Version:    ev.Version,
		EventID:    ev.EventID,
		SessionID:  ev.SessionID,
		Sequence:   ev.Sequence,
		EventType:  ev.EventType,
		OccurredAt: ev.OccurredAt,
	}
	ev = viewerText(ev, s.RedactPersonalData == 1)
	if ev.Publisher != nil {
		p.Publisher = ev.Publisher.ViewerSafe()
	}
	if m := ev.Metadata; m != nil && (m.RequestID != "" || m.ResponseID != "" || m.Model != "") {
		p.Metadata = &EventMetadata{RequestID: m.RequestID, ResponseID: m.ResponseID, Model: m.Model}
	}
	limit := textLimit(ev.EventType, s)
	p.Summary = truncateRunes(ev.Summary, limit, Ellipsis)
	switch ev.EventType {
	case TypePrompt:
		p.Prompt = projectText(ev.Prompt, limit)
	case TypeThinking:
		p.Thinking = projectText(ev.Thinking, limit)
	case TypeResponse:
		if ev.Response != nil {
			t := truncateRunes(ev.Response.Text, limit, Ellipsis)
			p.Response = &ResponseBody{Text: t, Truncated: ev.Response.Truncated || t != ev.Response.Text}
		}
	case TypeToolCall:
		projectTool(p, ev, s, limit)
	case TypeFileChange, TypeFileSave:
		projectFile(p, ev, s)
	case TypeSessionStatus:
		if ev.Status != nil {
			p.Status = &StatusBody{State: ev.Status.State, Message: truncateRunes(ev.Status.Message, limit, Ellipsis)}
		}
	}
	if s.RedactFilePaths == 1 {
		p.Summary = redactSummaryPaths(p.Summary)
	}
	return p
}

// VisibleTypes lists the canonical event types the settings show to viewers, in EventTypes
// order. It returns nil when the slot shows nothing at all (disabled or paused); callers must
// check that case, since an empty type filter usually means "every type".
func VisibleTypes(s Settings) []string {
	if !s.Live() {
		return nil
	}
	out := make([]string, 0, len(EventTypes))
	for _, t := range EventTypes {
		if typeShown(t, s) {
			out = append(out, t)
		}
	}
	return out
}

// FeedTypes is the type filter of a feed under the settings: either the types to include
// (custom types hidden: only the canonical types shown) or the types to exclude (custom types
// shown: every type but the canonical ones switched off). Like VisibleTypes, it means nothing
// while the slot is disabled or paused.
func FeedTypes(s Settings) (include, exclude []string) {
	if s.ShowCustomEvents != 1 {
		return VisibleTypes(s), nil
	}
	exclude = []string{}
	for _, t := range EventTypes {
		if !typeShown(t, s) {
			exclude = append(exclude, t)
		}
	}
	return nil, exclude
}

func typeShown(eventType string, s Settings) bool {
	switch eventType {
	case TypeSessionStatus:
		return true
	case TypePrompt:
		return s.ShowPrompts == 1
	case TypeResponse:
		return s.ShowResponses == 1
	case TypeThinking:
		return s.ShowThinking == 1
	case TypeToolCall:
		return s.ShowToolCalls == 1
	case TypeFileChange, TypeFileSave:
		return s.ShowFileEvents == 1
	}
	return s.ShowCustomEvents == 1 // a custom type: generic activity, its summary only
}

// textLimit is the type's character limit scaled by the viewer depth.
func textLimit(eventType string, s Settings) int {
	var n int
	switch eventType {
	case TypePrompt:
		n = s.MaxPromptChars
	case TypeThinking:
		n = s.MaxThinkingChars
	case TypeToolCall:
		n = s.MaxToolChars
	case TypeFileChange, TypeFileSave:
		n = s.MaxSnippetChars
	default:
		n = s.MaxResponseChars
	}
	return scaleLimit(n, s.ViewerDepth)
}

// scaleLimit scales a character limit by depth: headline max(40, 0.6×), standard 1×,
// deep 1.1×.
func scaleLimit(n int, depth string) int {
	switch depth {
	case DepthHeadline:
		return max(40, int(math.Round(0.6*float64(n))))
	case DepthDeep:
		return int(math.Round(1.1 * float64(n)))
	}
	return n
}

// viewerText returns a copy of ev whose texts name only the class of each redaction
// ([redacted:token]), not the rule that fired, which the owner's history keeps, and, with
// personal, have their personal data removed. It runs before any text is cut to its display
// limit so that no marker is cut in half.
func viewerText(ev *Event, personal bool) *Event {
	clean := func(s string) string {
		s = publicMarks(s)
		if personal {
			s = redactPersonal(s)
		}
		return s
	}
	c := *ev
	c.Summary = clean(c.Summary)
	if ev.Prompt != nil {
		c.Prompt = &TextBody{Text: clean(ev.Prompt.Text)}
	}
	if ev.Thinking != nil {
		c.Thinking = &TextBody{Text: clean(ev.Thinking.Text)}
	}
	if ev.Response != nil {
		r := *ev.Response
		r.Text = clean(r.Text)
		c.Response = &r
	}
	// Names and paths are no prose: only an address in them is personal data (a file or
	// a directory named for an account, gcloud/legacy_credentials/ada@corp.io/adc.json).
	name := func(s string) string {
		if personal && strings.IndexByte(s, '@') >= 0 {
			return redactAddresses(s)
		}
		return s
	}
	if ev.Tool != nil {
		t := *ev.Tool
		t.Name = name(t.Name)
		t.ArgumentsPreview, t.ResultPreview = clean(t.ArgumentsPreview), clean(t.ResultPreview)
		c.Tool = &t
	}
	if ev.File != nil {
		f := *ev.File
		f.Name, f.RelativePath = name(f.Name), name(f.RelativePath)
		if f.Snippet != nil {
			s := clean(*f.Snippet)
			f.Snippet = &s
		}
		c.File = &f
	}
	if ev.Status != nil {
		st := *ev.Status
		st.Message = clean(st.Message)
		c.Status = &st
	}
	return &c
}

func projectText(b *TextBody, limit int) *TextBody {
	if b == nil {
		return nil
	}
	return &TextBody{Text: truncateRunes(b.Text, limit, Ellipsis)}
}

// projectTool shows the tool's name and phase; arguments and results only with
// show_tool_arguments. Without them the publisher's summary still shows ("Ran tests (go
// test) — 3 failed", as the original platform shows it) unless it quotes the arguments or the
// result, when a summary made of the name and phase stands in.
func projectTool(p, ev *Event, s Settings, limit int) {
	if ev.Tool == nil {
		if s.ShowToolArguments != 1 && p.Summary == "" {
			p.Summary = "Used a tool"
		}
		return
	}
	t := &ToolBody{Name: ev.Tool.Name, Phase: ev.Tool.Phase}
	if s.ShowToolArguments == 1 {
		t.ArgumentsPreview = truncateRunes(ev.Tool.ArgumentsPreview, limit, Ellipsis)
		t.ResultPreview = truncateRunes(ev.Tool.ResultPreview, limit, Ellipsis)
	} else if p.Summary == "" || quotes(ev.Summary, ev.Tool.ArgumentsPreview) || quotes(ev.Summary, ev.Tool.ResultPreview) {
		p.Summary = toolSummary(t)
	}
	p.Tool = t
}

// minQuote is the shortest piece of a tool's arguments or result that, found in its summary,
// makes the summary a quote of them.
const minQuote = 8

// quotes reports whether summary holds preview, or, when preview is a JSON object or array,
// one of its string values, of at least minQuote bytes.
func quotes(summary, preview string) bool {
	preview = strings.TrimSpace(preview)
	if summary == "" || len(preview) < minQuote {
		return false
	}
	if strings.Contains(summary, preview) {
		return true
	}
	var v any
	if (preview[0] != '{' && preview[0] != '[') || json.Unmarshal([]byte(preview), &v) != nil {
		return false
	}
	return quotesValue(summary, v)
}

func quotesValue(summary string, v any) bool {
	switch v := v.(type) {
	case string:
		v = strings.TrimSpace(v)
		return len(v) >= minQuote && strings.Contains(summary, v)
	case []any:
		return slices.ContainsFunc(v, func(e any) bool { return quotesValue(summary, e) })
	case map[string]any:
		for _, e := range v {
			if quotesValue(summary, e) {
				return true
			}
		}
	}
	return false
}

func toolSummary(t *ToolBody) string {
	name := t.Name
	if name == "" {
		name = "a tool"
	}
	switch t.Phase {
	case "start":
		return "Running " + name
	case "error":
		return name + " failed"
	}
	return "Used " + name
}

func projectFile(p, ev *Event, s Settings) {
	if ev.File == nil {
		return
	}
	f := &FileBody{
		Name:         ev.File.Name,
		RelativePath: ev.File.RelativePath,
		Operation:    ev.File.Operation,
		ChangeCount:  ev.File.ChangeCount,
	}
	if s.RedactFilePaths == 1 {
		f.Name = baseName(f.Name)
		f.RelativePath = baseName(f.RelativePath)
	}
	if s.ShowFileSnippets == 1 && ev.File.Snippet != nil {
		snip := truncateRunes(*ev.File.Snippet, scaleLimit(s.MaxSnippetChars, s.ViewerDepth), Ellipsis)
		f.Snippet = &snip
	}
	p.File = f
}

// baseName returns the last segment of a slash- or backslash-separated path.
func baseName(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// summaryPath matches path-like words: at least one separator, and either a dotted last
// segment, two separators, or a leading ~ / . / drive.
var summaryPath = regexp.MustCompile(`[^\s"'\x60()\[\]<>,;]*[/\\][^\s"'\x60()\[\]<>,;]*`)

// redactSummaryPaths replaces every path in a summary by its file name; URLs stay.
func redactSummaryPaths(s string) string {
	if !strings.ContainsAny(s, `/\`) {
		return s
	}
	return summaryPath.ReplaceAllStringFunc(s, func(w string) string {
		if strings.Contains(w, "://") {
			return w
		}
		seps := strings.Count(w, "/") + strings.Count(w, `\`)
		last := baseName(w)
		if seps >= 2 || strings.Contains(last, ".") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, ".") {
			if last == "" {
				return w
			}
			return last
		}
		return w
	})
}
