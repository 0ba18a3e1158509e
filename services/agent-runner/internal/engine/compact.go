package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/compaction"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// ErrContextFull means the conversation does not fit the model's context window even after
// pruning and compaction.
var ErrContextFull = errors.New("the conversation does not fit the model's context window even after compaction")

// SessionCompacted is the bus event published after a compaction (properties: the
// compaction message without its parts, plus the summary's size).
const SessionCompacted = "session.compacted"

// activeHistory is History over the messages the model still sees after compactions.
func activeHistory(msgs []*message.Message) []llm.Message {
	active, summary := compaction.Active(msgs)
	var out []llm.Message
	if summary != "" {
		out = append(out, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText,
			Text: compaction.SummaryPrefix + summary}}})
	}
	return append(out, History(active)...)
}

// fitContext makes req fit cfg's limit: old tool outputs are pruned first; if that is not
// enough, the oldest turns are compacted into a summary (once), and the request is rebuilt.
// A compaction that does not shrink the request, or a request still too large afterwards,
// is an error rather than a loop.
func (e *Engine) fitContext(ctx context.Context, t *turn, cfg compaction.Config, req llm.Request) (llm.Request, error) {
	if !cfg.Over(req) {
		return req, nil
	}
	if n := cfg.Prune(&req); n > 0 {
		e.log.DebugContext(ctx, "pruned old tool outputs", "session_id", t.sess.ID, "pruned", n)
		if !cfg.Over(req) {
			return req, nil
		}
	}
	before := compaction.Estimate(req)
	msgs, err := e.d.Store.ListMessages(ctx, t.sess.ID)
	if err != nil {
		return req, err
	}
	if _, err := e.compact(ctx, t, cfg, msgs, false); err != nil {
		return req, err
	}
	msgs, err = e.d.Store.ListMessages(ctx, t.sess.ID)
	if err != nil {
		return req, err
	}
	req.Messages = activeHistory(msgs)
	cfg.Prune(&req)
	after := compaction.Estimate(req)
	if after >= before {
		return req, fmt.Errorf("%w (about %d tokens before, %d after)", compaction.ErrNoProgress, before, after)
	}
	if cfg.Over(req) {
		return req, fmt.Errorf("%w (about %d tokens; the limit is %d)", ErrContextFull, cfg.Tokens(req), cfg.Limit())
	}
	return req, nil
}

// compact summarises the oldest active turns of msgs into a new message holding one
// CompactionPart. manual compaction may summarise everything but the latest turn.
func (e *Engine) compact(ctx context.Context, t *turn, cfg compaction.Config, msgs []*message.Message, manual bool) (*message.Message, error) {
	active, prev := compaction.Active(msgs)
	old, through := cfg.Split(active)
	if manual {
		old, through = cfg.SplitAll(active)
	}
	if old == nil {
		return nil, compaction.ErrNothingToCompact
	}
	var hist []llm.Message
	if prev != "" {
		hist = append(hist, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: compaction.SummaryPrefix + prev}}})
	}
	hist = append(hist, History(old)...)
	summary, usage, err := compaction.Summarize(ctx, t.model.Backend, t.model.ID, t.model.MaxTokens, hist)
	if err != nil {
		return nil, err
	}
	replaced := compaction.Estimate(llm.Request{Messages: hist})
	if compaction.EstimateText(summary) >= replaced {
		return nil, fmt.Errorf("%w: the summary (about %d tokens) is not shorter than what it replaces (about %d)",
			compaction.ErrNoProgress, compaction.EstimateText(summary), replaced)
	}
	now := time.Now().UTC()
	cm := &message.Message{ID: id.New(id.Message), SessionID: t.sess.ID, Role: message.RoleAssistant, Agent: "compaction",
		Model: t.mname, Usage: e.price(t, usage), Finish: "stop", Created: now, Completed: &now}
	if err := e.putMessage(ctx, t, cm); err != nil {
		return nil, err
	}
	cp := &message.CompactionPart{PartMeta: e.meta(cm, message.TypeCompaction), Summary: summary, Through: through}
	if err := e.putPart(ctx, t, cp); err != nil {
		return nil, err
	}
	cm.Parts = []message.Part{cp}
	c := *cm
	c.Parts = nil
	e.d.Bus.Publish(bus.Event{Type: SessionCompacted, SessionID: t.sess.ID, OwnerID: t.sess.OwnerID,
		Properties: map[string]any{"message": c, "through": through, "replaced_messages": len(old),
			"replaced_tokens": replaced, "summary_tokens": compaction.EstimateText(summary), "manual": manual}})
	e.log.InfoContext(ctx, "session compacted", "session_id", t.sess.ID, "replaced_messages", len(old), "manual", manual)
	return cm, nil
}

// Compact summarises a session's older turns now (everything but the latest turn when the
// session is short). It fails with ErrBusy while a turn runs.
func (e *Engine) Compact(ctx context.Context, s store.Session, cfg compaction.Config) (*message.Message, error) {
	ctx, release, err := e.claim(ctx, s)
	if err != nil {
		return nil, err
	}
	defer release()
	defer e.idle(s, nil)
	t, err := e.prepare(ctx, s, "", "", 0)
	if err != nil {
		return nil, err
	}
	msgs, err := e.d.Store.ListMessages(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	return e.compact(ctx, t, cfg, msgs, true)
}

// failedStep records a step that could not call the model (the context does not fit) as an
// assistant message with the error, so the turn's failure is in the history.
func (e *Engine) failedStep(ctx context.Context, t *turn, err error) (*message.Message, []*message.ToolPart, error) {
	now := time.Now().UTC()
	am := &message.Message{ID: id.New(id.Message), SessionID: t.sess.ID, Role: message.RoleAssistant, Agent: t.agent.Name,
		Model: t.mname, Finish: "error", Error: err.Error(), Created: now, Completed: &now}
	if perr := e.putMessage(ctx, t, am); perr != nil {
		return nil, nil, errors.Join(err, perr)
	}
	return am, nil, err
}
