package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// maxToolOutput bounds what one tool result may add to the history.
const maxToolOutput = 64 << 10

// runTools runs the calls of one step in order. pre holds decisions already made for
// specific calls (a permission answered after a restart).
func (e *Engine) runTools(ctx context.Context, t *turn, am *message.Message, calls []*message.ToolPart, pre map[string]permission.Reply) error {
	for _, tp := range calls {
		if ctx.Err() != nil {
			if !errors.Is(cause(ctx), permission.ErrShutdown) {
				e.finishTool(ctx, t, tp, "", cause(ctx))
			} // on shutdown the call stays pending, to run when the turn resumes
			continue
		}
		var decided *permission.Reply
		if r, ok := pre[tp.CallID]; ok {
			decided = &r
		}
		e.runTool(ctx, t, am, tp, decided)
	}
	if ctx.Err() != nil {
		return cause(ctx)
	}
	return nil
}

func (e *Engine) findTool(t *turn, name string) (tool.Tool, error) {
	for _, tl := range t.tools {
		if tl.Name() == name {
			return tl, nil
		}
	}
	names := make([]string, 0, len(t.tools))
	for _, tl := range t.tools {
		names = append(names, tl.Name())
	}
	sort.Strings(names)
	return nil, fmt.Errorf("unknown tool %q; available tools: %s", name, strings.Join(names, ", "))
}

func (e *Engine) runTool(ctx context.Context, t *turn, am *message.Message, tp *message.ToolPart, decided *permission.Reply) {
	tl, err := e.findTool(t, tp.Tool)
	if err != nil {
		e.finishTool(ctx, t, tp, "", err)
		return
	}
	tp.State = message.ToolRunning
	tp.Time.Start = time.Now().UTC()
	tc := e.toolContext(t, am, tp)
	perm := tl.Permission(tc, tp.Input)
	tp.Title = perm.Title
	if err := e.putPart(ctx, t, tp); err != nil {
		e.log.ErrorContext(ctx, "store tool part", "error", err)
	}
	if decided != nil {
		if !decided.Allow {
			err = &permission.DeniedError{Tool: tp.Tool, Pattern: perm.Pattern, Reason: "the user rejected it"}
		}
	} else {
		err = tc.Ask(ctx, tool.AskInput{Tool: tp.Tool, Pattern: perm.Pattern, Kind: perm.Kind, Title: perm.Title, Always: perm.Always})
		if errors.Is(err, permission.ErrShutdown) {
			return // the request stays stored; the call runs once it is answered after a restart
		}
	}
	if err != nil {
		e.finishTool(ctx, t, tp, "", err)
		return
	}
	res, err := tl.Run(ctx, tc, tp.Input)
	if err == nil && ctx.Err() != nil {
		err = cause(ctx)
	}
	if res.Title != "" {
		tp.Title = res.Title
	}
	tp.Metadata = res.Metadata
	e.finishTool(ctx, t, tp, res.Output, err)
}

// finishTool moves a tool part to completed (err == nil) or error, and stores it.
func (e *Engine) finishTool(ctx context.Context, t *turn, tp *message.ToolPart, output string, err error) {
	if tp.State.Done() {
		return
	}
	now := time.Now().UTC()
	tp.Time.End = &now
	if err != nil {
		tp.State = message.ToolError
		switch {
		case errors.Is(err, ErrAborted):
			tp.Error = "aborted by the user" + strings.TrimPrefix(err.Error(), ErrAborted.Error())
		case errors.Is(err, permission.ErrShutdown):
			tp.Error = "interrupted: the runner shut down"
		default:
			tp.Error = truncate(err.Error(), maxToolOutput)
		}
	} else {
		tp.State = message.ToolCompleted
		tp.Output = truncate(output, maxToolOutput)
	}
	if err := e.putPart(ctx, t, tp); err != nil {
		e.log.ErrorContext(ctx, "store tool part", "error", err)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	half := n / 2
	return strings.ToValidUTF8(s[:half], "") + fmt.Sprintf("\n... [%d bytes omitted] ...\n", len(s)-2*half) +
		strings.ToValidUTF8(s[len(s)-half:], "")
}

func (e *Engine) toolContext(t *turn, am *message.Message, tp *message.ToolPart) *tool.Context {
	proj, _ := e.d.Store.GetProject(context.Background(), t.sess.ProjectID)
	tc := &tool.Context{SessionID: t.sess.ID, MessageID: am.ID, CallID: tp.CallID, Agent: t.agent.Name,
		ProjectDir: proj.Worktree, WorkDir: t.sess.Directory, Root: e.d.Root(t.sess.OwnerID),
		Files: e.files, Todos: todoPublisher{e: e, owner: t.sess.OwnerID}, Shell: e.d.Shell}
	tc.Ask = func(ctx context.Context, in tool.AskInput) error {
		reqID := id.New(id.Permission)
		req := permission.Request{ID: reqID, SessionID: t.sess.ID, ProjectID: t.sess.ProjectID, OwnerID: t.sess.OwnerID,
			Agent: t.agent.Name, Tool: in.Tool, Pattern: in.Pattern, Kind: in.Kind, Title: in.Title,
			Metadata: in.Metadata, MessageID: am.ID, PartID: tp.ID, CallID: tp.CallID}
		if in.Always != "" {
			req.Always = permission.Patterns{in.Always}
		}
		return e.perms.Check(ctx, req, t.rules, t.policy)
	}
	tc.Task = func(ctx context.Context, agentName, description, prompt string) (string, error) {
		return e.task(ctx, t, agentName, description, prompt)
	}
	return tc
}

// task runs prompt in a child session with a subagent and returns its final text.
func (e *Engine) task(ctx context.Context, t *turn, agentName, description, prompt string) (string, error) {
	proj, err := e.d.Store.GetProject(ctx, t.sess.ProjectID)
	if err != nil {
		return "", err
	}
	st, err := e.d.Settings(ctx, proj.Worktree)
	if err != nil {
		return "", err
	}
	if a, ok := st.Agents[agentName]; !ok || a.Mode != agent.Subagent {
		var subs []string
		for n, a := range st.Agents {
			if a.Mode == agent.Subagent {
				subs = append(subs, n)
			}
		}
		sort.Strings(subs)
		return "", tool.Errorf("%q is not a subagent; available: %s", agentName, strings.Join(subs, ", "))
	}
	child, err := e.CreateSession(ctx, CreateInput{OwnerID: t.sess.OwnerID, Directory: t.sess.Directory,
		Title: description + " (@" + agentName + ")", Agent: agentName, ParentID: t.sess.ID})
	if err != nil {
		return "", err
	}
	last, err := e.Prompt(ctx, child, PromptInput{Text: prompt, Agent: agentName, Policy: t.policy})
	if err != nil {
		return "", fmt.Errorf("subagent %s failed: %w", agentName, err)
	}
	out := ""
	if last != nil {
		out = last.Text()
	}
	return fmt.Sprintf("%s\n\n(session %s)", out, child.ID), nil
}

// todoPublisher stores a session's todos and announces the change on the bus.
type todoPublisher struct {
	e     *Engine
	owner int64
}

func (p todoPublisher) GetTodos(ctx context.Context, sessionID string) ([]store.Todo, error) {
	return p.e.d.Store.GetTodos(ctx, sessionID)
}

func (p todoPublisher) SetTodos(ctx context.Context, sessionID string, todos []store.Todo) error {
	if err := p.e.d.Store.SetTodos(ctx, sessionID, todos); err != nil {
		return err
	}
	p.e.d.Bus.Publish(bus.Event{Type: bus.TodoUpdated, SessionID: sessionID, OwnerID: p.owner, Properties: todos})
	return nil
}
