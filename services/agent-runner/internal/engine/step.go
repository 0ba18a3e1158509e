package engine

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/compaction"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// flushEvery bounds how often a streaming text part is written to the store; deltas in
// between go only to the bus.
const flushEvery = 500 * time.Millisecond

// step makes one model call and stores its parts. It returns the assistant message and the
// tool parts the model asked for.
func (e *Engine) step(ctx context.Context, t *turn, n int) (*message.Message, []*message.ToolPart, error) {
	msgs, err := e.d.Store.ListMessages(ctx, t.sess.ID)
	if err != nil {
		return nil, nil, err
	}
	req := llm.Request{Model: t.model.ID, System: t.system, Messages: activeHistory(msgs), Tools: toolDefs(t.tools),
		MaxTokens: t.model.MaxTokens, Temperature: t.agent.Temperature, SessionID: t.sess.ID}
	cfg := compaction.Config{Window: t.model.ContextWindow, Scale: e.scales.get(t.sess.ID)}
	if req, err = e.fitContext(ctx, t, cfg, req); err != nil {
		return e.failedStep(ctx, t, err)
	}
	estimate := compaction.Estimate(req)
	now := time.Now().UTC()
	am := &message.Message{ID: id.New(id.Message), SessionID: t.sess.ID, Role: message.RoleAssistant,
		Agent: t.agent.Name, Model: t.mname, Created: now}
	if err := e.putMessage(ctx, t, am); err != nil {
		return nil, nil, err
	}
	ss := &message.StepStartPart{PartMeta: e.meta(am, message.TypeStepStart), Step: n}
	if err := e.putPart(ctx, t, ss); err != nil {
		return am, nil, err
	}
	am.Parts = append(am.Parts, ss)

	sp := &streamParts{e: e, t: t, am: am}
	var streamErr error
	var usage llm.Usage
	finish := ""
	for ev := range t.model.Backend.Stream(ctx, req) {
		switch ev.Type {
		case llm.TextDelta:
			sp.text(ctx, ev.Text)
		case llm.ReasoningDelta:
			sp.reasoning(ctx, ev.Text)
		case llm.ToolCallComplete:
			sp.toolCall(ctx, ev.ToolCall)
		case llm.StreamDone:
			usage, finish = ev.Usage, ev.Finish
		case llm.Error:
			streamErr = ev.Err
			if streamErr == nil {
				streamErr = errors.New("model stream failed")
			}
		}
		if streamErr != nil {
			break
		}
	}
	sp.closeOpen(ctx)
	if ctx.Err() != nil {
		streamErr = cause(ctx)
	}
	if streamErr == nil {
		e.scales.set(t.sess.ID, compaction.Calibrate(usage, estimate))
	}
	am.Usage = e.price(t, usage)
	am.Finish = finish
	end := time.Now().UTC()
	am.Completed = &end
	if streamErr != nil {
		am.Finish, am.Error = "error", streamErr.Error()
		if errors.Is(streamErr, ErrAborted) || errors.Is(streamErr, permission.ErrShutdown) {
			am.Finish = "aborted"
		}
		for _, tp := range sp.calls {
			e.finishTool(ctx, t, tp, "", streamErr)
		}
	}
	if err := e.putMessage(ctx, t, am); err != nil {
		return am, nil, err
	}
	if err := e.addUsage(ctx, t, am.Usage); err != nil {
		return am, nil, err
	}
	if streamErr != nil {
		return am, nil, streamErr
	}
	return am, sp.calls, nil
}

func (e *Engine) meta(am *message.Message, typ message.PartType) message.PartMeta {
	return message.PartMeta{ID: id.New(id.Part), MessageID: am.ID, SessionID: am.SessionID, Type: typ}
}

func (e *Engine) price(t *turn, u llm.Usage) message.Usage {
	m := t.model
	cost := (float64(u.InputTokens)*m.InputPrice + float64(u.OutputTokens)*m.OutputPrice +
		float64(u.CacheReadTokens)*m.CacheReadPrice + float64(u.CacheWriteTokens)*m.CacheWritePrice) / 1e6
	return message.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, ReasoningTokens: u.ReasoningTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens, Cost: cost}
}

func (e *Engine) addUsage(ctx context.Context, t *turn, u message.Usage) error {
	s, err := e.d.Store.GetSession(context.WithoutCancel(ctx), t.sess.ID)
	if err != nil {
		return err
	}
	s.Usage.Add(u)
	s.Updated = time.Now().UTC()
	if err := e.d.Store.UpdateSession(context.WithoutCancel(ctx), s); err != nil {
		return err
	}
	t.sess = s
	e.d.Bus.Publish(bus.Event{Type: bus.SessionUpdated, SessionID: s.ID, OwnerID: s.OwnerID, Properties: s})
	return nil
}

// streamParts builds the parts of one streamed response.
type streamParts struct {
	e       *Engine
	t       *turn
	am      *message.Message
	open    message.Part // the text or reasoning part receiving deltas
	flushed time.Time
	calls   []*message.ToolPart
}

func (sp *streamParts) text(ctx context.Context, delta string) {
	p, ok := sp.open.(*message.TextPart)
	if !ok {
		sp.closeOpen(ctx)
		p = &message.TextPart{PartMeta: sp.e.meta(sp.am, message.TypeText), Time: message.Span{Start: time.Now().UTC()}}
		sp.start(ctx, p)
	}
	p.Text += delta
	sp.delta(ctx, p, delta)
}

func (sp *streamParts) reasoning(ctx context.Context, delta string) {
	p, ok := sp.open.(*message.ReasoningPart)
	if !ok {
		sp.closeOpen(ctx)
		p = &message.ReasoningPart{PartMeta: sp.e.meta(sp.am, message.TypeReasoning), Time: message.Span{Start: time.Now().UTC()}}
		sp.start(ctx, p)
	}
	p.Text += delta
	sp.delta(ctx, p, delta)
}

func (sp *streamParts) start(ctx context.Context, p message.Part) {
	sp.open = p
	sp.am.Parts = append(sp.am.Parts, p)
	sp.flushed = time.Now()
	if err := sp.e.putPart(ctx, sp.t, p); err != nil {
		sp.e.log.ErrorContext(ctx, "store part", "part_id", p.Meta().ID, "error", err)
	}
}

func (sp *streamParts) delta(ctx context.Context, p message.Part, delta string) {
	m := p.Meta()
	sp.e.d.Bus.Publish(bus.Event{Type: bus.PartDelta, SessionID: m.SessionID, OwnerID: sp.t.sess.OwnerID,
		Properties: map[string]any{"message_id": m.MessageID, "part_id": m.ID, "part_type": m.Type, "field": "text", "delta": delta}})
	if time.Since(sp.flushed) >= flushEvery {
		sp.flushed = time.Now()
		sp.store(ctx, p)
	}
}

func (sp *streamParts) store(ctx context.Context, p message.Part) {
	if err := sp.e.d.Store.PutPart(context.WithoutCancel(ctx), p); err != nil {
		sp.e.log.ErrorContext(ctx, "store part", "part_id", p.Meta().ID, "error", err)
	}
}

// closeOpen ends the streaming part, storing and publishing its final state.
func (sp *streamParts) closeOpen(ctx context.Context) {
	if sp.open == nil {
		return
	}
	now := time.Now().UTC()
	switch p := sp.open.(type) {
	case *message.TextPart:
		p.Time.End = &now
	case *message.ReasoningPart:
		p.Time.End = &now
	}
	if err := sp.e.putPart(ctx, sp.t, sp.open); err != nil {
		sp.e.log.ErrorContext(ctx, "store part", "error", err)
	}
	sp.open = nil
}

func (sp *streamParts) toolCall(ctx context.Context, c *llm.ToolCall) {
	sp.closeOpen(ctx)
	if c == nil {
		return
	}
	input := c.Input
	if !json.Valid(input) {
		b, _ := json.Marshal(string(input))
		input = b
	}
	callID := c.ID
	if callID == "" {
		callID = id.New(id.Call)
	}
	tp := &message.ToolPart{PartMeta: sp.e.meta(sp.am, message.TypeTool), CallID: callID, Tool: c.Name,
		State: message.ToolPending, Input: input, Time: message.Span{Start: time.Now().UTC()}}
	sp.am.Parts = append(sp.am.Parts, tp)
	sp.calls = append(sp.calls, tp)
	if err := sp.e.putPart(ctx, sp.t, tp); err != nil {
		sp.e.log.ErrorContext(ctx, "store tool part", "error", err)
	}
}

func toolDefs(tools []tool.Tool) []llm.ToolDef {
	out := make([]llm.ToolDef, 0, len(tools))
	for _, t := range tools {
		out = append(out, llm.ToolDef{Name: t.Name(), Description: t.Description(), Schema: t.Schema()})
	}
	return out
}
