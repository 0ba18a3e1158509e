package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// PromptInput is a user prompt.
type PromptInput struct {
	Text   string
	Agent  string // empty: the session's agent
	Model  string // empty: the agent's or the default model
	Policy permission.Policy
	// queueID is the queued prompt the turn runs, whose waiter learns how it ended.
	queueID string
}

// turn is everything one turn needs.
type turn struct {
	sess   store.Session
	agent  agent.Agent
	model  Model
	mname  string
	tools  []tool.Tool
	rules  []permission.Rule
	system string
	policy permission.Policy
}

// DefaultRules come after every configured level: reading and searching the project, and
// managing todos, are allowed; everything else asks.
var DefaultRules = []permission.Rule{
	{Tool: "read", Action: permission.Allow},
	{Tool: "glob", Action: permission.Allow},
	{Tool: "grep", Action: permission.Allow},
	{Tool: "todo_*", Action: permission.Allow},
	{Tool: "task", Action: permission.Allow},
}

// Prompt runs a whole turn and returns the last assistant message.
func (e *Engine) Prompt(ctx context.Context, s store.Session, in PromptInput) (*message.Message, error) {
	ctx, claimed, err := e.claim(ctx, s)
	if err != nil {
		return nil, err
	}
	release := sync.OnceFunc(claimed)
	defer release()
	t, user, err := e.begin(ctx, s, in)
	if err != nil {
		release()
		e.idle(s, err)
		return nil, err
	}
	e.turnStarted(ctx, s, user.ID)
	last, err := e.loop(ctx, t)
	e.turnEnded(ctx, s, user.ID)
	release()
	e.idle(s, err)
	e.drain(s.ID)
	return last, err
}

// Start begins a turn in the background and returns the stored user message. The turn's
// progress is published on the bus.
func (e *Engine) Start(s store.Session, in PromptInput) (*message.Message, error) {
	ctx, release, err := e.claim(e.base, s)
	if err != nil {
		return nil, err
	}
	t, user, err := e.begin(ctx, s, in)
	if err != nil {
		release()
		e.idle(s, err)
		return nil, err
	}
	go func() {
		release := sync.OnceFunc(release)
		defer release()
		e.turnStarted(ctx, s, user.ID)
		last, err := e.loop(ctx, t)
		e.turnEnded(ctx, s, user.ID)
		release()
		e.idle(s, err)
		e.notify(in.queueID, TurnResult{Last: last, Err: err})
		e.drain(s.ID)
	}()
	return user, nil
}

// idle announces the end of a turn; it is published once the session is free, so a client
// that prompts again on "idle" is never told the session is busy.
func (e *Engine) idle(s store.Session, err error) {
	props := map[string]any{"status": "idle"}
	if err != nil {
		props["error"] = err.Error()
	}
	e.d.Bus.Publish(bus.Event{Type: bus.SessionStatus, SessionID: s.ID, OwnerID: s.OwnerID, Properties: props})
}

// prepare resolves the agent, model, tools and rules of a turn.
func (e *Engine) prepare(ctx context.Context, s store.Session, agentName, modelName string, policy permission.Policy) (*turn, error) {
	proj, err := e.d.Store.GetProject(ctx, s.ProjectID)
	if err != nil {
		return nil, err
	}
	st, err := e.d.Settings(ctx, proj.Worktree)
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	if agentName == "" {
		agentName = s.Agent
	}
	ag, ok := st.Agents[agentName]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownAgent, agentName)
	}
	if modelName == "" {
		modelName = ag.Model
	}
	if modelName == "" {
		modelName = st.Model
	}
	m, err := e.d.Models(proj.Worktree, modelName)
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	all, err := e.d.Tools(ctx, s, proj.Worktree)
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	rules := slices.Concat(ag.Permission, st.Rules, DefaultRules)
	system := ag.Prompt
	if st.Instructions != "" {
		system += "\n\n" + st.Instructions
	}
	system += fmt.Sprintf("\n\nWorking directory: %s\nProject root: %s\nToday: %s", s.Directory, proj.Worktree, time.Now().UTC().Format("2006-01-02"))
	return &turn{sess: s, agent: ag, model: m, mname: modelName, rules: rules, system: system, policy: policy,
		tools: ag.Tools(all)}, nil
}

// begin stores the user message and prepares the turn.
func (e *Engine) begin(ctx context.Context, s store.Session, in PromptInput) (*turn, *message.Message, error) {
	if strings.TrimSpace(in.Text) == "" {
		return nil, nil, &ConfigError{Err: errors.New("prompt text is empty")}
	}
	t, err := e.prepare(ctx, s, in.Agent, in.Model, in.Policy)
	if err != nil {
		return nil, nil, err
	}
	if err := e.settleInterrupted(ctx, s); err != nil {
		return nil, nil, err
	}
	now := time.Now().UTC()
	user := &message.Message{ID: id.New(id.Message), SessionID: s.ID, Role: message.RoleUser, Agent: t.agent.Name,
		Model: t.mname, Created: now, Completed: &now}
	if err := e.putMessage(ctx, t, user); err != nil {
		return nil, nil, err
	}
	text := &message.TextPart{PartMeta: message.PartMeta{ID: id.New(id.Part), MessageID: user.ID, SessionID: s.ID,
		Type: message.TypeText}, Text: in.Text, Time: message.Span{Start: now, End: &now}}
	if err := e.putPart(ctx, t, text); err != nil {
		return nil, nil, err
	}
	user.Parts = []message.Part{text}
	if s.Title == "" || s.Title == "New session" {
		s.Title = titleFrom(in.Text)
		t.sess.Title = s.Title
	}
	t.sess.Updated = now
	if err := e.d.Store.UpdateSession(ctx, t.sess); err != nil {
		return nil, nil, err
	}
	e.d.Bus.Publish(bus.Event{Type: bus.SessionUpdated, SessionID: s.ID, OwnerID: s.OwnerID, Properties: t.sess})
	return t, user, nil
}

func titleFrom(text string) string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0])
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "…"
	}
	return line
}

// settleInterrupted marks tool calls left unfinished by an earlier crash or shutdown as
// failed, and drops permission requests they waited on: a new prompt supersedes them.
func (e *Engine) settleInterrupted(ctx context.Context, s store.Session) error {
	msgs, err := e.d.Store.ListMessages(ctx, s.ID)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		for _, tp := range m.ToolParts() {
			if tp.State.Done() {
				continue
			}
			now := time.Now().UTC()
			tp.State, tp.Error, tp.Time.End = message.ToolError, "interrupted before it finished", &now
			if err := e.d.Store.PutPart(ctx, tp); err != nil {
				return err
			}
		}
	}
	return e.perms.Cancel(ctx, s.OwnerID, s.ID)
}

// loop calls the model until it stops asking for tools, the agent's step limit is reached,
// or the turn is aborted.
func (e *Engine) loop(ctx context.Context, t *turn) (*message.Message, error) {
	var last *message.Message
	for step := 1; ; step++ {
		if step > t.agent.MaxSteps {
			return last, fmt.Errorf("stopped after %d steps (the agent's max_steps)", t.agent.MaxSteps)
		}
		am, calls, err := e.step(ctx, t, step)
		if am != nil {
			last = am
		}
		if err != nil {
			return last, err
		}
		if len(calls) == 0 {
			return last, nil
		}
		if err := e.runTools(ctx, t, am, calls, nil); err != nil {
			return last, err
		}
	}
}

// Cause returns why ctx ended, as the error a turn reports.
func cause(ctx context.Context) error {
	c := context.Cause(ctx)
	if c == nil {
		return ctx.Err()
	}
	return c
}

func (e *Engine) putMessage(ctx context.Context, t *turn, m *message.Message) error {
	if err := e.d.Store.PutMessage(context.WithoutCancel(ctx), m); err != nil {
		return err
	}
	c := *m
	c.Parts = nil
	e.d.Bus.Publish(bus.Event{Type: bus.MessageUpdated, SessionID: m.SessionID, OwnerID: t.sess.OwnerID, Properties: c})
	return nil
}

func (e *Engine) putPart(ctx context.Context, t *turn, p message.Part) error {
	if err := e.d.Store.PutPart(context.WithoutCancel(ctx), p); err != nil {
		return err
	}
	e.publishPart(t, p)
	return nil
}

// publishPart publishes a snapshot of p (the engine keeps mutating the original).
func (e *Engine) publishPart(t *turn, p message.Part) {
	var snap message.Part
	switch v := p.(type) {
	case *message.TextPart:
		c := *v
		snap = &c
	case *message.ReasoningPart:
		c := *v
		snap = &c
	case *message.ToolPart:
		c := *v
		snap = &c
	case *message.StepStartPart:
		c := *v
		snap = &c
	case *message.CompactionPart:
		c := *v
		snap = &c
	}
	e.d.Bus.Publish(bus.Event{Type: bus.PartUpdated, SessionID: p.Meta().SessionID, OwnerID: t.sess.OwnerID, Properties: snap})
}
