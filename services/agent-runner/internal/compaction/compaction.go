// Package compaction keeps a session's history inside the model's context window. Before a
// model call the engine estimates the request's size; when it would exceed the window minus a
// reserve, old tool outputs are pruned first, and if that is not enough the oldest part of the
// history is summarised by the model (with a fixed handoff prompt) into one CompactionPart.
// The most recent turns stay intact, and the model sees the summary as the start of the
// conversation. A compaction that does not make the request smaller is reported as an error
// instead of being retried forever.
package compaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
)

// SummaryPrompt is the fixed instruction the model gets when asked for a handoff summary.
const SummaryPrompt = `You are writing a handoff summary of the conversation above so that another engineer (or you, with no memory of it) can continue the work without the original messages.

Write it in plain prose and short lists, under these headings:
1. Goal: what the user asked for, including constraints and preferences they stated.
2. Progress: what has been done so far, which files were read, created or changed and why.
3. Current state: what works, what is failing, open errors and their messages.
4. Decisions: choices made and the reasons, approaches tried and rejected.
5. Next steps: what remains to be done, in order.

Be specific: keep file paths, function names, commands and exact error text. Do not address the user, do not call tools, and do not add anything that did not happen.`

// SummaryPrefix introduces the summary when it is sent to the model as the start of the
// conversation.
const SummaryPrefix = "Summary of the conversation so far:\n"

// PrunedOutput replaces a pruned tool output in what the model is sent.
const PrunedOutput = "[old tool output removed to save context; run the tool again if you need it]"

// ErrNoProgress means a compaction would not make the request smaller.
var ErrNoProgress = errors.New("compaction did not reduce the context")

// ErrNothingToCompact means the history has no older turns that could be summarised.
var ErrNothingToCompact = errors.New("nothing to compact: the history is only the most recent turns")

// Config sets the limits.
type Config struct {
	// Window is the model's context window in tokens (0 turns automatic compaction off).
	Window int64
	// Reserve is kept free for the model's answer (default: Window/8, at least 1024 tokens).
	Reserve int64
	// KeepTurns is how many of the most recent user turns are never summarised (default 2).
	KeepTurns int
	// ProtectToolTokens is the amount of recent tool output never pruned (default Window/4).
	ProtectToolTokens int64
	// Scale corrects the estimate for the model's tokenizer: the model's tokens per
	// estimated token, as Calibrate learned it from the provider's last report (1 or less:
	// no correction).
	Scale float64
}

// MaxScale bounds the correction Calibrate may learn.
const MaxScale = 4

// Calibrate returns the Scale for a session's next request from what the provider reported
// for its last one, which was estimated at estimate tokens. Only an underestimate is
// corrected: text that takes fewer than four bytes a token (code, many languages other than
// English) would otherwise overflow the window before compaction starts, while an
// overestimate only compacts a little early.
func Calibrate(u llm.Usage, estimate int64) float64 {
	// Providers report cached input apart from the rest (fantasy normalizes OpenAI's to
	// Anthropic's way), so the request's size is the sum.
	reported := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
	if estimate <= 0 || reported <= estimate {
		return 1
	}
	return min(float64(reported)/float64(estimate), MaxScale)
}

func (c Config) reserve() int64 {
	if c.Reserve > 0 {
		return c.Reserve
	}
	return max(c.Window/8, 1024)
}

func (c Config) keepTurns() int {
	if c.KeepTurns > 0 {
		return c.KeepTurns
	}
	return 2
}

// Limit is the request size (in the model's tokens, see Tokens) that triggers compaction.
func (c Config) Limit() int64 {
	if c.Window <= 0 {
		return 0
	}
	return max(c.Window-c.reserve(), 1)
}

// EstimateText is the token estimate of s (about four bytes a token, rounded up).
func EstimateText(s string) int64 { return int64(len(s)+3) / 4 }

// Estimate is the token estimate of a whole request: system prompt, messages and tool schemas.
func Estimate(req llm.Request) int64 {
	n := EstimateText(req.System)
	for _, m := range req.Messages {
		n += 4 // per-message framing
		for _, p := range m.Parts {
			n += EstimateText(p.Text) + EstimateText(string(p.Input)) + EstimateText(p.Tool)
		}
	}
	for _, t := range req.Tools {
		b, _ := json.Marshal(t.Schema)
		n += EstimateText(t.Name) + EstimateText(t.Description) + EstimateText(string(b))
	}
	return n
}

// Tokens is the estimated size of req in the model's tokens: Estimate corrected by Scale.
func (c Config) Tokens(req llm.Request) int64 {
	n := Estimate(req)
	if c.Scale > 1 {
		n = int64(math.Ceil(float64(n) * min(c.Scale, MaxScale)))
	}
	return n
}

// Over reports whether req needs compacting.
func (c Config) Over(req llm.Request) bool {
	return c.Window > 0 && c.Tokens(req) > c.Limit()
}

// Active returns the messages the model still sees: after the latest compaction, the summary
// message is dropped and so is everything up to and including the message it replaces
// through. It also returns that compaction's summary ("" when none).
func Active(msgs []*message.Message) ([]*message.Message, string) {
	summaryAt, summary, through := -1, "", ""
	for i, m := range msgs {
		for _, p := range m.Parts {
			if c, ok := p.(*message.CompactionPart); ok {
				summaryAt, summary, through = i, c.Summary, c.Through
			}
		}
	}
	if summaryAt < 0 {
		return msgs, ""
	}
	cut := summaryAt // without Through, everything before the summary message is replaced
	for i, m := range msgs {
		if m.ID == through {
			cut = i
		}
	}
	var out []*message.Message
	for i, m := range msgs {
		if i <= cut || i == summaryAt || hasCompaction(m) {
			continue
		}
		out = append(out, m)
	}
	return out, summary
}

func hasCompaction(m *message.Message) bool {
	for _, p := range m.Parts {
		if _, ok := p.(*message.CompactionPart); ok {
			return true
		}
	}
	return false
}

// Split chooses what a compaction summarises: the active messages before the start of the
// KeepTurns-th most recent user turn. It returns the messages to summarise (nil when there
// are none) and the ID of the last of them.
func (c Config) Split(active []*message.Message) ([]*message.Message, string) {
	users := 0
	for i := len(active) - 1; i >= 0; i-- {
		if active[i].Role != message.RoleUser {
			continue
		}
		users++
		if users == c.keepTurns() {
			if i == 0 {
				return nil, ""
			}
			return active[:i], active[i-1].ID
		}
	}
	return nil, ""
}

// SplitAll is Split for a manual compaction: when there are fewer turns than KeepTurns, it
// keeps only the latest user turn.
func (c Config) SplitAll(active []*message.Message) ([]*message.Message, string) {
	if old, through := c.Split(active); old != nil {
		return old, through
	}
	return Config{KeepTurns: 1}.Split(active)
}

// Prune blanks the outputs of completed tool calls in a model request, oldest first, beyond
// the most recent ProtectToolTokens of tool output, until the request fits the limit. It
// returns how many outputs it removed. Stored parts are not touched.
func (c Config) Prune(req *llm.Request) int {
	protect := c.ProtectToolTokens
	if protect <= 0 {
		protect = c.Window / 4
	}
	// Walk from the newest, counting tool output; older outputs beyond the budget can go.
	type ref struct{ m, p int }
	var candidates []ref
	var seen int64
	for mi := len(req.Messages) - 1; mi >= 0; mi-- {
		m := req.Messages[mi]
		if m.Role != llm.RoleTool {
			continue
		}
		for pi := len(m.Parts) - 1; pi >= 0; pi-- {
			p := m.Parts[pi]
			if p.Kind != llm.PartToolResult || p.IsError || p.Text == PrunedOutput {
				continue
			}
			seen += EstimateText(p.Text)
			if seen > protect {
				candidates = append(candidates, ref{mi, pi})
			}
		}
	}
	n := 0
	for i := len(candidates) - 1; i >= 0 && c.Over(*req); i-- { // oldest first
		r := candidates[i]
		req.Messages[r.m].Parts[r.p].Text = PrunedOutput
		n++
	}
	return n
}

// Summarize asks the model for the handoff summary of history (the messages being replaced,
// already converted for the model, starting with any earlier summary).
func Summarize(ctx context.Context, backend llm.Backend, model string, maxTokens int64, history []llm.Message) (string, llm.Usage, error) {
	msgs := append([]llm.Message(nil), history...)
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: SummaryPrompt}}})
	req := llm.Request{Model: model, System: "You summarise software engineering conversations for a handoff.",
		Messages: msgs, MaxTokens: maxTokens}
	var b strings.Builder
	var usage llm.Usage
	for ev := range backend.Stream(ctx, req) {
		switch ev.Type {
		case llm.TextDelta:
			b.WriteString(ev.Text)
		case llm.StreamDone:
			usage = ev.Usage
		case llm.Error:
			return "", usage, fmt.Errorf("summarising: %w", ev.Err)
		}
	}
	if err := ctx.Err(); err != nil {
		return "", usage, err
	}
	s := strings.TrimSpace(b.String())
	if s == "" {
		return "", usage, errors.New("summarising: the model returned an empty summary")
	}
	return s, usage, nil
}
