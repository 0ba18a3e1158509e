package engine

import (
	"context"
	"sync"

	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// orphanReply resumes a turn interrupted by a restart while a tool call waited for
// permission: the answered call runs (or fails) as decided, the rest of that step's calls
// follow, and the agent loop continues.
func (e *Engine) orphanReply(req permission.Request, r permission.Reply) {
	ctx := context.WithoutCancel(e.base)
	s, err := e.d.Store.GetSession(ctx, req.SessionID)
	if err != nil {
		e.log.WarnContext(ctx, "resume after permission reply: session gone", "session_id", req.SessionID, "error", err)
		return
	}
	runCtx, release, err := e.claim(e.base, s)
	if err != nil {
		e.log.WarnContext(ctx, "resume after permission reply: session busy", "session_id", s.ID)
		return
	}
	go func() {
		release := sync.OnceFunc(release)
		defer release()
		err := e.resume(runCtx, s, req, r)
		release()
		e.idle(s, err)
		e.drain(s.ID)
	}()
}

func (e *Engine) resume(ctx context.Context, s store.Session, req permission.Request, r permission.Reply) error {
	msgs, err := e.d.Store.ListMessages(ctx, s.ID)
	if err != nil {
		return err
	}
	var am *message.Message
	userID := ""
	for _, m := range msgs {
		if m.ID == req.MessageID {
			am = m
		}
		if am == nil && m.Role == message.RoleUser {
			userID = m.ID
		}
	}
	if am == nil {
		return nil
	}
	t, err := e.prepare(ctx, s, am.Agent, am.Model, permission.Interactive)
	if err != nil {
		return err
	}
	var calls []*message.ToolPart
	for _, tp := range am.ToolParts() {
		if !tp.State.Done() {
			calls = append(calls, tp)
		}
	}
	if err := e.runTools(ctx, t, am, calls, map[string]permission.Reply{req.CallID: r}); err != nil {
		return err
	}
	_, err = e.loop(ctx, t)
	e.turnEnded(ctx, s, userID)
	return err
}
