package compaction

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
)

func msg(id string, role message.Role, parts ...message.Part) *message.Message {
	return &message.Message{ID: id, Role: role, Parts: parts}
}

func text(s string) message.Part { return &message.TextPart{Text: s} }

func ids(ms []*message.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestSplitAndActive(t *testing.T) {
	t.Parallel()
	h := []*message.Message{
		msg("u1", message.RoleUser, text("one")), msg("a1", message.RoleAssistant, text("r1")),
		msg("u2", message.RoleUser, text("two")), msg("a2", message.RoleAssistant, text("r2")),
		msg("u3", message.RoleUser, text("three")), msg("a3", message.RoleAssistant, text("r3")),
	}
	c := Config{Window: 1000}
	old, through := c.Split(h)
	require.Equal(t, []string{"u1", "a1"}, ids(old))
	require.Equal(t, "a1", through)

	// The summary message is appended after the history; the model then sees the kept turns.
	h = append(h, msg("s1", message.RoleAssistant, &message.CompactionPart{Summary: "did one", Through: through}))
	active, summary := Active(h)
	require.Equal(t, "did one", summary)
	require.Equal(t, []string{"u2", "a2", "u3", "a3"}, ids(active))

	// Too short to split automatically; a manual compaction keeps only the last turn.
	short := h[:2]
	old, _ = c.Split(short)
	require.Nil(t, old)
	old, _ = c.SplitAll(short)
	require.Nil(t, old)
	old, through = c.SplitAll(h[2:6])
	require.Equal(t, []string{"u2", "a2"}, ids(old))
	require.Equal(t, "a2", through)
}

func TestPruneOldestToolOutputsFirst(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 4000) // ~1000 tokens
	var msgs []llm.Message
	for i := range 4 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartToolCall, CallID: string(rune('a' + i)), Tool: "read"}}},
			llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{Kind: llm.PartToolResult, CallID: string(rune('a' + i)), Text: big}}})
	}
	req := llm.Request{Messages: msgs}
	c := Config{Window: 3500, Reserve: 500, ProtectToolTokens: 1500}
	require.True(t, c.Over(req))
	n := c.Prune(&req)
	require.Equal(t, 2, n)
	require.False(t, c.Over(req))
	require.Equal(t, PrunedOutput, req.Messages[1].Parts[0].Text)
	require.Equal(t, PrunedOutput, req.Messages[3].Parts[0].Text)
	require.Equal(t, big, req.Messages[5].Parts[0].Text)
	require.Equal(t, big, req.Messages[7].Parts[0].Text)
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	be := llm.NewScripted(llm.Queue(llm.Step{Events: []llm.Event{llm.Text("Goal: x. "), llm.Text("Next: y.")}}))
	s, _, err := Summarize(t.Context(), be, "m", 1000, []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "hello"}}}})
	require.NoError(t, err)
	require.Equal(t, "Goal: x. Next: y.", s)
	req := be.Requests()[0]
	last := req.Messages[len(req.Messages)-1]
	require.Equal(t, SummaryPrompt, last.Parts[0].Text)
	require.Empty(t, req.Tools, "the summariser is offered no tools")

	empty := llm.NewScripted(llm.Queue(llm.Step{Events: []llm.Event{llm.Text("  ")}}))
	_, _, err = Summarize(t.Context(), empty, "m", 1000, nil)
	require.ErrorContains(t, err, "empty summary")
}

func TestCalibrateCorrectsOnlyUnderestimates(t *testing.T) {
	require.InDelta(t, 1, Calibrate(llm.Usage{InputTokens: 800}, 1000), 0, "an overestimate is kept")
	require.InDelta(t, 1, Calibrate(llm.Usage{}, 1000), 0, "no report")
	require.InDelta(t, 1, Calibrate(llm.Usage{InputTokens: 50}, 0), 0)
	require.InDelta(t, 1.5, Calibrate(llm.Usage{InputTokens: 500, CacheReadTokens: 900, CacheWriteTokens: 100}, 1000), 1e-9,
		"cached input counts")
	require.InDelta(t, MaxScale, Calibrate(llm.Usage{InputTokens: 50_000}, 1000), 0, "bounded")
}

func TestScaleMovesTheLimit(t *testing.T) {
	req := llm.Request{System: strings.Repeat("x", 4000)} // 1000 estimated tokens
	cfg := Config{Window: 2000, Reserve: 500}
	require.EqualValues(t, 1000, cfg.Tokens(req))
	require.False(t, cfg.Over(req))
	cfg.Scale = 1.6
	require.EqualValues(t, 1600, cfg.Tokens(req))
	require.True(t, cfg.Over(req), "1 600 of the model's tokens do not fit 2 000 minus 500")
	cfg.Scale = 0.5
	require.EqualValues(t, 1000, cfg.Tokens(req), "a scale below 1 is no correction")
}
