package runner

import (
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/compaction"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
)

func isSummaryRequest(req llm.Request) bool {
	if len(req.Messages) == 0 {
		return false
	}
	last := req.Messages[len(req.Messages)-1]
	return len(last.Parts) == 1 && last.Parts[0].Text == compaction.SummaryPrompt
}

func compactionParts(msgs []*message.Message) []*message.CompactionPart {
	var out []*message.CompactionPart
	for _, m := range msgs {
		for _, p := range m.Parts {
			if c, ok := p.(*message.CompactionPart); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

const windowConfig = `{"provider":{"scripted":{"type":"openai-compatible","base_url":"http://127.0.0.1:9","models":{"test":{"context_window":20000}}}}}`

func TestLongSessionCompactsOnceAndContinues(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("All work and no play makes a long answer. ", 380) // ~4000 tokens
	var summaries atomic.Int32
	be := llm.NewScripted(func(req llm.Request) llm.Step {
		if isSummaryRequest(req) {
			summaries.Add(1)
			return llm.Step{Events: []llm.Event{llm.Text("Goal: answer seven prompts. Progress: turns 1-3 answered at length.")}}
		}
		return llm.Step{Events: []llm.Event{llm.Text(long)}}
	})
	h := newHarness(t, harnessOpts{backend: be, env: map[string]string{"OPENVIBE_CONFIG_CONTENT": windowConfig}})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	s := h.createSession("alice", dir)
	for i := 1; i <= 7; i++ {
		h.prompt("alice", s.ID, "prompt number "+strings.Repeat("x", i))
		h.waitIdle("alice", s.ID)
	}
	require.EqualValues(t, 1, summaries.Load(), "compacted exactly once")
	msgs := h.messages("alice", s.ID)
	cps := compactionParts(msgs)
	require.Len(t, cps, 1)
	require.Contains(t, cps[0].Summary, "Goal: answer seven prompts")
	// The model calls after the compaction start with the summary and keep the recent turns.
	var after []llm.Request
	for _, r := range be.Requests() {
		if !isSummaryRequest(r) && strings.HasPrefix(r.Messages[0].Parts[0].Text, compaction.SummaryPrefix) {
			after = append(after, r)
		}
	}
	require.Len(t, after, 2, "the turns after the compaction saw the summary")
	require.Contains(t, after[0].Messages[1].Parts[0].Text, "prompt number xxxx", "the most recent turns stay intact")
	require.Less(t, compaction.Estimate(after[0]), int64(20000-2500))
	// The last turn answered normally.
	last := msgs[len(msgs)-1]
	require.Equal(t, message.RoleAssistant, last.Role)
	require.Equal(t, long, last.Text())
}

// TestCompactionFollowsTheProvidersCount: when the provider counts more tokens than the
// four-bytes-a-token estimate (code, other languages), compaction starts earlier, before
// the real window overflows.
func TestCompactionFollowsTheProvidersCount(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("All work and no play makes a long answer. ", 380) // ~4000 estimated tokens
	run := func(factor int64) (firstSummaryAt int) {
		var calls int
		be := llm.NewScripted(func(req llm.Request) llm.Step {
			if isSummaryRequest(req) {
				if firstSummaryAt == 0 {
					firstSummaryAt = calls
				}
				return llm.Step{Events: []llm.Event{llm.Text("Goal: answer the prompts.")}}
			}
			calls++
			return llm.Step{Events: []llm.Event{llm.Text(long), llm.Done("stop", factor*compaction.Estimate(req), 10)}}
		})
		h := newHarness(t, harnessOpts{backend: be, env: map[string]string{"OPENVIBE_CONFIG_CONTENT": windowConfig}})
		dir := h.userDir(10)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		s := h.createSession("alice", dir)
		for i := 1; i <= 6 && firstSummaryAt == 0; i++ {
			h.prompt("alice", s.ID, "prompt number "+strings.Repeat("x", i))
			h.waitIdle("alice", s.ID)
		}
		return firstSummaryAt
	}
	plain, doubled := run(1), run(2)
	require.Positive(t, plain)
	require.Positive(t, doubled)
	require.Less(t, doubled, plain, "a provider counting twice the estimate compacts earlier")
}

func TestCompactionThatDoesNotShrinkIsReported(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 4000)
	var summaries atomic.Int32
	be := llm.NewScripted(func(req llm.Request) llm.Step {
		if isSummaryRequest(req) {
			summaries.Add(1)
			return llm.Step{Events: []llm.Event{llm.Text(strings.Repeat("useless summary ", 20000))}}
		}
		return llm.Step{Events: []llm.Event{llm.Text(long)}}
	})
	h := newHarness(t, harnessOpts{backend: be, env: map[string]string{"OPENVIBE_CONFIG_CONTENT": windowConfig}})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	s := h.createSession("alice", dir)
	var errs []string
	for i := range 7 {
		var out map[string]any
		code := h.do("alice", "POST", "/agent/session/"+s.ID+"/message", map[string]any{"text": "go " + strings.Repeat("y", i), "wait": true}, &out)
		require.Equal(t, http.StatusOK, code, out)
		if e, ok := out["error"].(string); ok {
			errs = append(errs, e)
		}
	}
	require.NotEmpty(t, errs)
	require.Contains(t, errs[0], compaction.ErrNoProgress.Error())
	require.Empty(t, compactionParts(h.messages("alice", s.ID)), "nothing stored")
	require.LessOrEqual(t, int(summaries.Load()), len(errs), "one attempt per turn, no loop")

	// A manual compaction of a session that is too short is refused with a clear error.
	s2 := h.createSession("alice", dir)
	var out map[string]any
	require.Equal(t, http.StatusConflict, h.do("alice", "POST", "/agent/session/"+s2.ID+"/compact", nil, &out))
	require.Contains(t, out["error"], "nothing to compact")
}

func TestManualCompaction(t *testing.T) {
	t.Parallel()
	be := llm.NewScripted(func(req llm.Request) llm.Step {
		if isSummaryRequest(req) {
			return llm.Step{Events: []llm.Event{llm.Text("short summary")}}
		}
		return llm.Step{Events: []llm.Event{llm.Text(strings.Repeat("answer ", 200))}}
	})
	h := newHarness(t, harnessOpts{backend: be})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	s := h.createSession("alice", dir)
	for _, p := range []string{"one", "two", "three"} {
		h.prompt("alice", s.ID, p)
		h.waitIdle("alice", s.ID)
	}
	var m message.Message
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/compact", nil, &m))
	require.Len(t, compactionParts([]*message.Message{&m}), 1)
	require.Equal(t, http.StatusNotFound, h.do("bob", "POST", "/agent/session/"+s.ID+"/compact", nil, nil))
	h.prompt("alice", s.ID, "four")
	h.waitIdle("alice", s.ID)
	reqs := be.Requests()
	last := reqs[len(reqs)-1]
	require.Equal(t, compaction.SummaryPrefix+"short summary", last.Messages[0].Parts[0].Text)
}
