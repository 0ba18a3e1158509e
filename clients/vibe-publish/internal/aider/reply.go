package aider

import (
	"regexp"
	"strings"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/shared/vibe"
)

// Commands that carry a prompt after them; the other slash commands (/add, /drop, /model, …)
// manage aider and are not published.
var promptCommands = map[string]bool{"/ask": true, "/code": true, "/architect": true, "/context": true, "/chat": true}

// flushPrompt publishes the #### lines read so far: a prompt, a command run with /run or !,
// or nothing for aider's own commands.
func (m *Mapper) flushPrompt() []vibe.Event {
	p := m.prompt
	m.prompt.lines = nil
	text := strings.TrimSpace(strings.Join(p.lines, "\n"))
	if text == "" {
		return nil
	}
	key := m.key(p.start, "prompt")
	if answerRE.MatchString(text) || strings.HasPrefix(text, aiComments) {
		return nil // an answer to aider's question, or the prompt aider writes for "AI!" comments
	}
	if strings.HasPrefix(text, "!") {
		return []vibe.Event{m.startShell(key, strings.TrimSpace(text[1:]))}
	}
	if strings.HasPrefix(text, "/") {
		word, rest, _ := strings.Cut(text, " ")
		switch {
		case word == "/run" || word == "/test":
			return []vibe.Event{m.startShell(key, strings.TrimSpace(rest))}
		case !promptCommands[word] || strings.TrimSpace(rest) == "":
			return nil
		}
		text = strings.TrimSpace(rest)
	}
	return []vibe.Event{m.b.Prompt(key, "prompt", p.at, text)}
}

// answerRE matches aider's yes/no questions, whose answers it records as #### lines.
var answerRE = regexp.MustCompile(`\(Y\)es/\(N\)o`)

// aiComments opens the prompt aider writes itself when it finds "AI!" comments in files.
const aiComments = `Find the "AI" comments below`

var (
	thinkingRE = regexp.MustCompile(`(?s)<thinking-content-[0-9a-f]+>(.*?)</thinking-content-[0-9a-f]+>`)
	fenceRE    = regexp.MustCompile("^(`{3,}|~{3,})")
	markerRE   = regexp.MustCompile(`^► \*\*(THINKING|ANSWER)\*\*\s*$`)
)

// flushReply publishes the model's reply read so far: its reasoning as thinking, its prose as
// a response, and remembers the edits it wrote so that "Applied edit to" can count them.
func (m *Mapper) flushReply() []vibe.Event {
	r := m.reply
	m.reply.lines = nil
	if len(r.lines) == 0 {
		return nil
	}
	text := strings.Join(r.lines, "\n")
	var out []vibe.Event
	var thoughts []string
	text = thinkingRE.ReplaceAllStringFunc(text, func(s string) string {
		thoughts = append(thoughts, strings.TrimSpace(thinkingRE.FindStringSubmatch(s)[1]))
		return ""
	})
	prose, think := m.readReply(strings.Split(text, "\n"))
	thoughts = append(thoughts, think)
	if t := strings.TrimSpace(strings.Join(thoughts, "\n\n")); t != "" {
		out = append(out, m.b.Thinking(m.key(r.start, "thinking"), "reply.thinking", r.at, t))
	}
	if t := strings.TrimSpace(prose); t != "" {
		out = append(out, m.b.Response(m.key(r.start, "reply"), "reply", r.at, t))
	}
	return out
}

// readReply splits a reply into its prose and its reasoning (after "► **THINKING**"), and
// records its edit blocks, leaving a note in the prose where each was.
func (m *Mapper) readReply(lines []string) (prose, thinking string) {
	var pb, tb []string
	dst := &pb
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if mk := markerRE.FindStringSubmatch(l); mk != nil {
			if mk[1] == "THINKING" {
				dst = &tb
			} else {
				dst = &pb
			}
			continue
		}
		if f := fenceRE.FindString(l); f != "" {
			end := closing(lines, i+1, f)
			file := fileBefore(lines, i)
			if n := m.recordEdits(file, lines[i+1:end]); n {
				*dst = append(*dst, "*(edited "+file+")*")
			} else {
				*dst = append(*dst, lines[i:min(end+1, len(lines))]...)
			}
			i = end
			continue
		}
		*dst = append(*dst, l)
	}
	// the file name line before a fence belongs to the edit
	return strings.Join(dropFileLines(pb), "\n"), strings.Join(tb, "\n")
}

func closing(lines []string, from int, fence string) int {
	for j := from; j < len(lines); j++ {
		if strings.HasPrefix(lines[j], fence) && strings.TrimSpace(lines[j]) == fence {
			return j
		}
	}
	return len(lines)
}

// fileBefore is the file name aider's edit formats put on the line before a fence.
func fileBefore(lines []string, i int) string {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		if l := strings.TrimSpace(lines[j]); l != "" {
			if strings.ContainsAny(l, " `*") && !strings.Contains(l, "/") && !strings.Contains(l, `\`) {
				return ""
			}
			return strings.Trim(l, "`*")
		}
	}
	return ""
}

func dropFileLines(lines []string) []string {
	out := lines[:0:0]
	for i, l := range lines {
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "*(edited ") && strings.Trim(strings.TrimSpace(l), "`*") == strings.TrimSuffix(strings.TrimPrefix(lines[i+1], "*(edited "), ")*") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// recordEdits reads the edits of one fenced block: SEARCH/REPLACE blocks, a unified diff,
// or (after a file name) the whole file. It reports whether the block was an edit.
func (m *Mapper) recordEdits(file string, body []string) bool {
	if file == "" && len(body) > 1 && strings.HasPrefix(body[1], "<<<<<<< SEARCH") { // diff-fenced: the name inside
		file, body = strings.TrimSpace(body[0]), body[1:]
	}
	path := activity.Relative(m.root, "", file)
	switch {
	case hasLine(body, "<<<<<<< SEARCH"):
		var before, after []string
		state := 0
		for _, l := range body {
			switch {
			case strings.HasPrefix(l, "<<<<<<< SEARCH"):
				state, before, after = 1, nil, nil
			case strings.HasPrefix(l, "=======") && state == 1:
				state = 2
			case strings.HasPrefix(l, ">>>>>>> REPLACE") && state == 2:
				m.addEdit(path, strings.Join(before, "\n"), strings.Join(after, "\n"))
				state = 0
			case state == 1:
				before = append(before, l)
			case state == 2:
				after = append(after, l)
			}
		}
		return file != ""
	case len(body) > 0 && (strings.HasPrefix(body[0], "--- ") || strings.HasPrefix(body[0], "@@")):
		var before, after []string
		for _, l := range body {
			switch {
			case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "@@"):
			case strings.HasPrefix(l, "-"):
				before = append(before, l[1:])
			case strings.HasPrefix(l, "+"):
				after = append(after, l[1:])
			}
		}
		if file == "" && len(body) > 1 && strings.HasPrefix(body[1], "+++ ") {
			file = strings.TrimPrefix(strings.TrimPrefix(body[1], "+++ "), "b/")
			path = activity.Relative(m.root, "", file)
		}
		m.addEdit(path, strings.Join(before, "\n"), strings.Join(after, "\n"))
		return file != ""
	case file != "" && strings.Contains(file, "."):
		m.addEdit(path, "", strings.Join(body, "\n"))
		return true
	}
	return false
}

func (m *Mapper) addEdit(path, before, after string) {
	if path == "" {
		return
	}
	m.edits[path] = append(m.edits[path], edit{before, after})
}

func hasLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
