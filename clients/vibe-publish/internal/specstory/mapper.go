package specstory

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "specstory"

var idSpace = uuid.MustParse("5b0e7c3a-9d41-4f6e-8a2b-c7d1e3f50a96")

type partKind int

const (
	textPart partKind = iota
	thinkingPart
	toolPart
)

// part is one piece of a reply: prose, reasoning, or a tool call with what it returned.
type part struct {
	kind  partKind
	lines []string
}

// Events maps a whole history: every event it shows, in order, with ids that do not change
// as the chat grows, and how many of them (at the end) come from its last part, which may
// still be being written. path names the chat when the file has no session id; root is the
// project the chat's paths are relative to.
func Events(data []byte, path, root string) (evs []vibe.Event, tail int) {
	h, msgs := parse(string(data))
	b := activity.Builder{Space: idSpace, Channel: Channel, SessionID: h.sessionID}
	if b.SessionID == "" {
		b.SessionID = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if root != "" {
		b.Workspace = activity.BaseName(root)
	}
	for i, m := range msgs {
		key := "m" + strconv.Itoa(i+1)
		last := i == len(msgs)-1
		if m.user {
			text := strings.TrimSpace(trimRules(strings.Join(m.lines, "\n")))
			if text == "" {
				continue
			}
			evs = append(evs, b.Prompt(key, "user", m.at, text))
			if last {
				tail = 1
			}
			continue
		}
		mb := builder{b}
		mb.Model = m.model
		parts := split(m.lines)
		for j, p := range parts {
			out := mb.partEvents(key+"/p"+strconv.Itoa(j+1), m.at, p, root)
			evs = append(evs, out...)
			if last && j == len(parts)-1 {
				tail = len(out)
			}
		}
	}
	return evs, tail
}

type builder struct{ activity.Builder }

func (b builder) partEvents(key, at string, p part, root string) []vibe.Event {
	text := strings.Join(p.lines, "\n")
	switch p.kind {
	case thinkingPart:
		if t := strings.TrimSpace(thinkingText(text)); t != "" {
			return []vibe.Event{b.Thinking(key, "agent.thinking", at, t)}
		}
	case toolPart:
		return b.toolEvents(key, at, readTool(p.lines, root))
	default:
		if t := strings.TrimSpace(text); t != "" {
			return []vibe.Event{b.Response(key, "agent", at, t)}
		}
	}
	return nil
}

func (b builder) toolEvents(key, at string, c call) []vibe.Event {
	if c.tool.Name == "" {
		return nil
	}
	raw := "tool." + c.tool.Name
	out := []vibe.Event{
		b.ToolStart(key, raw, at, c.tool, c.args),
		b.ToolEnd(key, raw, at, c.tool, c.outcome, c.result),
	}
	if c.change != nil && !c.outcome.Failed {
		out = append(out, b.File(key, raw, at, *c.change))
	}
	return out
}

// split cuts a reply into its parts. "---" lines between parts are SpecStory's and dropped;
// one inside prose is kept as the rule it is.
func split(lines []string) []part {
	var parts []part
	var text []string
	flush := func() {
		parts = append(parts, textParts(text)...)
		text = nil
	}
	fence := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if fence != "" {
			if closesFence(l, fence) {
				fence = ""
			}
			text = append(text, l)
			continue
		}
		if f := fenceRE.FindStringSubmatch(l); f != nil {
			fence = f[1]
			text = append(text, l)
			continue
		}
		var kind partKind
		var end int
		switch {
		case strings.HasPrefix(t, "<tool-use"):
			kind, end = toolPart, closing(lines, i, "<tool-use", "</tool-use>")
		case strings.HasPrefix(t, "<think>"):
			kind, end = thinkingPart, closing(lines, i, "<think>", "</think>")
		case strings.HasPrefix(t, "<details"):
			end = closing(lines, i, "<details", "</details>")
			kind = toolPart
			if s := summaryOf(lines[i : end+1]); strings.HasPrefix(s, "Thought Process") || strings.HasPrefix(s, "Thinking") {
				kind = thinkingPart
			}
		default:
			text = append(text, l)
			continue
		}
		flush()
		parts = append(parts, part{kind: kind, lines: lines[i : end+1]})
		i = end
	}
	flush()
	return parts
}

// closing is the line that closes the block opened at lines[from] (blocks of the same tag
// nested in it counted, code blocks in it skipped); the last line when it is not closed.
func closing(lines []string, from int, open, end string) int {
	depth, fence := 0, ""
	for j := from; j < len(lines); j++ {
		l := lines[j]
		if fence != "" {
			if closesFence(l, fence) {
				fence = ""
			}
			continue
		}
		if f := fenceRE.FindStringSubmatch(l); f != nil && j > from {
			fence = f[1]
			continue
		}
		depth += strings.Count(l, open) - strings.Count(l, end)
		if depth <= 0 {
			return j
		}
	}
	return len(lines) - 1
}

func closesFence(l, fence string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == ""
}

// textParts makes the parts of prose read between blocks: the pieces "---" lines separate,
// joined again, except a piece that is only a command and its output, or only a "Read file:
// …" line (the earliest Cursor versions' terminal calls and file reads), which is a tool call.
func textParts(lines []string) []part {
	var pieces [][]string
	cur := []string{}
	fence := ""
	for _, l := range lines {
		if fence == "" && strings.TrimSpace(l) == "---" {
			pieces = append(pieces, cur)
			cur = []string{}
			continue
		}
		if fence != "" {
			if closesFence(l, fence) {
				fence = ""
			}
		} else if f := fenceRE.FindStringSubmatch(l); f != nil {
			fence = f[1]
		}
		cur = append(cur, l)
	}
	pieces = append(pieces, cur)
	var parts []part
	var prose []string
	flush := func() {
		if strings.TrimSpace(strings.Join(prose, "\n")) != "" {
			parts = append(parts, part{kind: textPart, lines: prose})
		}
		prose = nil
	}
	for _, p := range pieces {
		body := strings.TrimSpace(strings.Join(p, "\n"))
		if body == "" {
			continue
		}
		if isCommandRun(body) || readLineRE.MatchString(body) {
			flush()
			parts = append(parts, part{kind: toolPart, lines: p})
			continue
		}
		if len(prose) > 0 {
			prose = append(prose, "", "---", "")
		}
		prose = append(prose, strings.Split(body, "\n")...)
	}
	flush()
	return parts
}

var shellLangs = map[string]bool{"bash": true, "sh": true, "shell": true, "zsh": true, "powershell": true, "pwsh": true, "cmd": true, "console": true, "ps1": true, "bat": true}

// isCommandRun reports a piece that is only a shell block, then (optionally) a block of its
// output without a language.
func isCommandRun(body string) bool {
	blocks, rest := fencedBlocks(body)
	if strings.TrimSpace(rest) != "" || len(blocks) == 0 || len(blocks) > 2 {
		return false
	}
	if !shellLangs[strings.ToLower(blocks[0].lang)] {
		return false
	}
	return len(blocks) == 1 || blocks[1].lang == ""
}

type fenced struct {
	lang string
	body string
}

// fencedBlocks returns the code blocks of text and what is outside them.
func fencedBlocks(text string) (blocks []fenced, rest string) {
	var out []string
	var cur []string
	fence, lang := "", ""
	for _, l := range strings.Split(text, "\n") {
		if fence != "" {
			if closesFence(l, fence) {
				blocks = append(blocks, fenced{lang: lang, body: strings.Join(cur, "\n")})
				fence, cur = "", nil
				continue
			}
			cur = append(cur, l)
			continue
		}
		if f := fenceRE.FindStringSubmatch(l); f != nil {
			fence = f[1]
			lang = ""
			if info := strings.Fields(strings.TrimSpace(l)[len(f[1]):]); len(info) > 0 {
				lang = info[0]
			}
			cur = nil
			continue
		}
		out = append(out, l)
	}
	if fence != "" {
		blocks = append(blocks, fenced{lang: lang, body: strings.Join(cur, "\n")})
	}
	return blocks, strings.Join(out, "\n")
}

// thinkingText is the reasoning of a <think> or "Thought Process" block, without its tags.
func thinkingText(s string) string {
	for _, tag := range []string{"<think>", "</think>", "</details>", "<details>"} {
		s = strings.ReplaceAll(s, tag, "")
	}
	if i := strings.Index(s, "<summary>"); i >= 0 {
		if j := strings.Index(s[i:], "</summary>"); j >= 0 {
			summary := strings.TrimSpace(s[i+len("<summary>") : i+j])
			rest := s[i+j+len("</summary>"):]
			if strings.HasPrefix(summary, "Thought Process") || strings.HasPrefix(summary, "Thinking") {
				summary = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(summary, "Thought Process"), "Thinking"))
			}
			s = s[:i] + summary + "\n" + rest
		}
	}
	return s
}

// trimRules drops the "---" lines a message begins or ends with.
func trimRules(s string) string {
	lines := strings.Split(s, "\n")
	for len(lines) > 0 && (strings.TrimSpace(lines[0]) == "---" || strings.TrimSpace(lines[0]) == "") {
		lines = lines[1:]
	}
	for len(lines) > 0 && (strings.TrimSpace(lines[len(lines)-1]) == "---" || strings.TrimSpace(lines[len(lines)-1]) == "") {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
