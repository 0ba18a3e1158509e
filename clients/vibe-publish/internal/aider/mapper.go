// Package aider follows aider's chat history (.aider.chat.history.md in the repository root)
// and maps it to canonical vibe-coding events.
//
// aider appends Markdown as the chat goes: "# aider chat started at <time>" opens each run,
// "#### " lines are what the streamer typed, lines quoted with "> " are aider's own output
// ("> Applied edit to x.go", "> Commit 1a2b3c4 fix: …", "> Tokens: …"), and everything else is
// the model's reply, its edits written as SEARCH/REPLACE blocks, unified diffs or whole files.
// The file only grows, so a line's number identifies it: event ids are derived from them.
package aider

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/clients/vibe-publish/internal/linediff"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "aider"

var idSpace = uuid.MustParse("3e8b5d21-7f4a-4c90-b6e2-1a9d8c7f0e53")

// Mapper turns history lines into events. Feed it every line in order with its number.
type Mapper struct {
	root    string
	b       activity.Builder
	seen    bool
	prompt  block  // #### lines being read
	reply   block  // the model's reply being read
	fence   string // the fence of a code block open in the reply
	edits   map[string][]edit
	creates map[string]bool
	shell   *shellRun
	// lastOutput is the previous "> " line: the file "Create new file?" asks about.
	lastOutput string
}

type block struct {
	start int64
	at    string
	lines []string
}

type edit struct{ before, after string }

type shellRun struct {
	key    string
	tool   activity.Tool
	output []string
}

// NewMapper returns a Mapper for the history of the repository at root.
func NewMapper(root string) *Mapper {
	m := &Mapper{root: root, b: activity.Builder{Space: idSpace, Channel: Channel}}
	if root != "" {
		m.b.Workspace = activity.BaseName(root)
	}
	m.reset()
	return m
}

func (m *Mapper) reset() {
	m.edits, m.creates, m.fence = map[string][]edit{}, map[string]bool{}, ""
}

// Recognized reports whether a line so far was aider's.
func (m *Mapper) Recognized() bool { return m.seen }

var startedRE = regexp.MustCompile(`^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)`)

// Line maps one line of the history.
func (m *Mapper) Line(raw []byte, n int64) ([]vibe.Event, error) {
	line := strings.TrimRight(string(raw), "\r")
	var out []vibe.Event
	switch {
	case startedRE.MatchString(line):
		out = m.flush()
		at := startedRE.FindStringSubmatch(line)[1]
		m.seen, m.b.SessionID = true, "aider "+at
		m.reset()
		t := strings.Replace(at, " ", "T", 1) + "Z" // aider writes local time; taken as it is
		m.prompt.at, m.reply.at = t, t
	case m.inFence(line):
		m.reply.lines = append(m.reply.lines, line)
	case strings.HasPrefix(line, "####"):
		m.seen = true
		if len(m.prompt.lines) == 0 {
			out = m.flush()
			m.prompt.start = n
		}
		m.prompt.lines = append(m.prompt.lines, strings.TrimPrefix(strings.TrimPrefix(line, "####"), " "))
	case line == ">" || strings.HasPrefix(line, "> "):
		m.seen = true
		out = append(m.flushPrompt(), m.flushReply()...)
		out = append(out, m.output(strings.TrimSpace(strings.TrimPrefix(line, ">")), n)...)
	default:
		out = m.flushPrompt()
		if len(m.reply.lines) == 0 && strings.TrimSpace(line) == "" {
			return out, nil
		}
		if len(m.reply.lines) == 0 {
			m.reply.start = n
		}
		m.reply.lines = append(m.reply.lines, line)
	}
	return out, nil
}

// inFence reports whether line belongs to a code block of the reply (its fences included),
// where "> " and "#### " lines are code, not aider's output or a prompt.
func (m *Mapper) inFence(line string) bool {
	if m.fence != "" {
		switch {
		case strings.HasPrefix(line, m.fence) && strings.TrimSpace(line) == m.fence: // not an indented one inside
			m.fence = ""
		case strings.HasPrefix(line, "> Tokens: ") || startedRE.MatchString(line): // a reply cut off inside a block
			m.fence = ""
			return false
		}
		return true
	}
	if len(m.reply.lines) > 0 || len(m.prompt.lines) == 0 {
		if f := fenceRE.FindString(line); f != "" && len(m.reply.lines) > 0 {
			m.fence = f
			return true
		}
	}
	return false
}

// Close publishes a reply still being read and ends a command still running.
func (m *Mapper) Close() []vibe.Event {
	out := m.flush()
	return out
}

func (m *Mapper) flush() []vibe.Event {
	return append(append(m.endShell(), m.flushPrompt()...), m.flushReply()...)
}

func (m *Mapper) key(n int64, kind string) string { return "L" + strconv.FormatInt(n, 10) + "/" + kind }

var (
	commitRE  = regexp.MustCompile(`^Commit ([0-9a-f]{7,40}) (.+)$`)
	appliedRE = regexp.MustCompile(`^Applied edit to (.+)$`)
	createRE  = regexp.MustCompile(`^Create new file\? .*: y`)
	runningRE = regexp.MustCompile(`^Running (.+)$`)
)

// output maps one of aider's "> " lines.
func (m *Mapper) output(text string, n int64) []vibe.Event {
	text = strings.TrimRight(text, " ")
	var out []vibe.Event
	if m.shell != nil && !runningRE.MatchString(text) && !strings.HasPrefix(text, "Add command output") {
		m.shell.output = append(m.shell.output, text)
		return nil
	}
	switch {
	case appliedRE.MatchString(text):
		path := activity.Relative(m.root, "", appliedRE.FindStringSubmatch(text)[1])
		out = append(out, m.b.File(m.key(n, "edit"), "applied_edit", "", m.change(path)))
	case commitRE.MatchString(text):
		c := commitRE.FindStringSubmatch(text)
		out = append(out, m.b.Status(m.key(n, "commit"), "commit", "", "working", "Committed "+c[1][:7]+": "+c[2]))
	case createRE.MatchString(text):
		m.creates[m.lastFile()] = true
	case runningRE.MatchString(text):
		out = append(out, m.endShell()...)
		cmd := runningRE.FindStringSubmatch(text)[1]
		out = append(out, m.startShell(m.key(n, "run"), cmd))
	case strings.HasPrefix(text, "Add command output"):
		out = append(out, m.endShell()...)
	default:
		m.lastOutput = text
	}
	return out
}

func (m *Mapper) startShell(key, cmd string) vibe.Event {
	m.shell = &shellRun{key: key, tool: activity.Tool{Name: "run", Kind: activity.Shell, Command: cmd}}
	return m.b.ToolStart(key, "shell", "", m.shell.tool, cmd)
}

func (m *Mapper) endShell() []vibe.Event {
	if m.shell == nil {
		return nil
	}
	s := m.shell
	m.shell = nil
	output := strings.Join(s.output, "\n")
	failed, _, _ := activity.TestCounts(output)
	o := activity.Outcome{Matches: -1, Output: output, Failed: failed > 0}
	return []vibe.Event{m.b.ToolEnd(s.key, "shell", "", s.tool, o, output)}
}

// lastFile is the file named by the output line before "Create new file?".
func (m *Mapper) lastFile() string { return activity.Relative(m.root, "", m.lastOutput) }

// change describes an applied edit from the blocks the reply wrote for the file.
func (m *Mapper) change(path string) activity.FileChange {
	fc := activity.FileChange{Path: path, Operation: "edit"}
	if m.creates[path] {
		fc.Operation = "create"
	}
	for _, e := range m.edits[path] {
		a, r := linediff.Stat(e.before, e.after)
		fc.Added, fc.Removed = fc.Added+a, fc.Removed+r
		if fc.Snippet == "" {
			if e.before == "" {
				fc.Snippet = linediff.Added(e.after, activity.SnippetLines)
			} else {
				fc.Snippet = linediff.Hunk(e.before, e.after, activity.SnippetLines)
			}
		}
	}
	delete(m.edits, path)
	return fc
}
