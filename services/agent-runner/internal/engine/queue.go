package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// MaxQueued bounds the prompts waiting in one session.
const MaxQueued = 16

// Events of the prompt queue.
const (
	// SessionQueued: a prompt waits for the running turn (properties: the queued prompt and
	// its position, 1 for next).
	SessionQueued = "session.queued"
	// SessionDequeued: a queued prompt left the queue (properties: id, reason started,
	// cancelled or failed, message_id when started, error when failed).
	SessionDequeued = "session.dequeued"
)

var (
	// ErrSteered is the cause a turn stops with when a prompt sent with steer takes over.
	ErrSteered = fmt.Errorf("%w: a new prompt took over", ErrAborted)
	// ErrQueueFull: MaxQueued prompts wait already.
	ErrQueueFull = fmt.Errorf("the session already has %d prompts queued", MaxQueued)
)

// TurnResult is how a queued prompt's turn ended.
type TurnResult struct {
	Last *message.Message
	Err  error
}

// Submitted is what Submit did with a prompt: started it (User) or queued it (Queued, and
// Done reports its turn's end when the caller asked to wait).
type Submitted struct {
	User   *message.Message
	Queued *store.QueuedPrompt
	Done   <-chan TurnResult
}

// Submit starts a turn with the prompt when the session is free and nothing waits before
// it; otherwise the prompt is queued to run when the turns before it are done, and with
// steer it goes first and the running turn is cancelled (what it streamed is kept, pending
// calls fail). With await, Done reports the end of a queued prompt's turn.
func (e *Engine) Submit(ctx context.Context, s store.Session, in PromptInput, steer, await bool) (Submitted, error) {
	waiting, err := e.d.Store.ListQueued(ctx, s.ID)
	if err != nil {
		return Submitted{}, err
	}
	if len(waiting) == 0 {
		user, err := e.Start(s, in)
		if !errors.Is(err, ErrBusy) {
			return Submitted{User: user}, err
		}
	}
	if len(waiting) >= MaxQueued {
		return Submitted{}, ErrQueueFull
	}
	if _, err := e.prepare(ctx, s, in.Agent, in.Model, in.Policy); err != nil {
		return Submitted{}, err // refuse now what could not run later
	}
	q := store.QueuedPrompt{ID: id.New("que"), SessionID: s.ID, OwnerID: s.OwnerID, Text: in.Text, Agent: in.Agent,
		Model: in.Model, Steer: steer, Created: time.Now().UTC()}
	var done chan TurnResult
	if await {
		done = make(chan TurnResult, 1)
		e.mu.Lock()
		e.waiters[q.ID] = done
		e.mu.Unlock()
	}
	if err := e.d.Store.QueuePrompt(ctx, q, steer); err != nil {
		e.notify(q.ID, TurnResult{Err: err})
		return Submitted{}, err
	}
	position := len(waiting) + 1
	if steer {
		position = 1
	}
	e.d.Bus.Publish(bus.Event{Type: SessionQueued, SessionID: s.ID, OwnerID: s.OwnerID,
		Properties: map[string]any{"prompt": q, "position": position}})
	if steer {
		e.cancel(s.ID, ErrSteered)
	}
	e.drain(s.ID) // the turn may have ended in the meantime
	return Submitted{Queued: &q, Done: done}, nil
}

// Queued lists the session's waiting prompts, next first.
func (e *Engine) Queued(ctx context.Context, sessionID string) ([]store.QueuedPrompt, error) {
	return e.d.Store.ListQueued(ctx, sessionID)
}

// CancelQueued takes a waiting prompt out of the queue; ErrNotFound when it is not waiting.
func (e *Engine) CancelQueued(ctx context.Context, s store.Session, queueID string) error {
	if err := e.d.Store.DeleteQueued(ctx, queueID); err != nil {
		return err
	}
	e.dequeued(s, queueID, "cancelled", nil, nil)
	return nil
}

// clearQueue cancels every prompt waiting in the session (an abort stops them all).
func (e *Engine) clearQueue(ctx context.Context, s store.Session) {
	qs, err := e.d.Store.ListQueued(ctx, s.ID)
	if err != nil {
		e.log.WarnContext(ctx, "list queued prompts", "session_id", s.ID, "error", err)
		return
	}
	for _, q := range qs {
		if err := e.CancelQueued(ctx, s, q.ID); err != nil && !store.IsNotFound(err) {
			e.log.WarnContext(ctx, "cancel queued prompt", "queue_id", q.ID, "error", err)
		}
	}
}

func (e *Engine) dequeued(s store.Session, queueID, reason string, user *message.Message, err error) {
	props := map[string]any{"id": queueID, "reason": reason}
	if user != nil {
		props["message_id"] = user.ID
	}
	if err != nil {
		props["error"] = err.Error()
	}
	e.d.Bus.Publish(bus.Event{Type: SessionDequeued, SessionID: s.ID, OwnerID: s.OwnerID, Properties: props})
	if reason != "started" {
		e.notify(queueID, TurnResult{Err: fmt.Errorf("the prompt was %s: %w", reason, errors.Join(err, ErrAborted))})
	}
}

// notify hands a queued prompt's turn result to whoever waits for it.
func (e *Engine) notify(queueID string, r TurnResult) {
	if queueID == "" {
		return
	}
	e.mu.Lock()
	ch := e.waiters[queueID]
	delete(e.waiters, queueID)
	e.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

// drain starts the session's next queued prompt if the session is free. One drain runs per
// session at a time; a drain asked for meanwhile runs again after it, so a turn that ends
// while its own prompt is being taken off the queue does not leave the rest waiting.
func (e *Engine) drain(sessionID string) {
	e.mu.Lock()
	if e.draining[sessionID] {
		e.redrain[sessionID] = true
		e.mu.Unlock()
		return
	}
	e.draining[sessionID] = true
	e.mu.Unlock()
	for {
		e.drainOnce(sessionID)
		e.mu.Lock()
		if !e.redrain[sessionID] {
			delete(e.draining, sessionID)
			e.mu.Unlock()
			return
		}
		delete(e.redrain, sessionID)
		e.mu.Unlock()
	}
}

func (e *Engine) drainOnce(sessionID string) {
	ctx := context.WithoutCancel(e.base)
	for {
		qs, err := e.d.Store.ListQueued(ctx, sessionID)
		if err != nil || len(qs) == 0 {
			return
		}
		q := qs[0]
		s, err := e.d.Store.GetSession(ctx, sessionID)
		if err != nil {
			return
		}
		user, err := e.Start(s, PromptInput{Text: q.Text, Agent: q.Agent, Model: q.Model, queueID: q.ID})
		if errors.Is(err, ErrBusy) || errors.Is(err, ErrClosed) {
			return // the running turn drains the queue when it ends; a restart does
		}
		if derr := e.d.Store.DeleteQueued(ctx, q.ID); derr != nil && !store.IsNotFound(derr) {
			e.log.WarnContext(ctx, "dequeue prompt", "queue_id", q.ID, "error", derr)
		}
		if err == nil {
			e.dequeued(s, q.ID, "started", user, nil)
			return
		}
		e.dequeued(s, q.ID, "failed", nil, err) // it could not start: try the next one
	}
}

// cancel stops the session's running turn with cause.
func (e *Engine) cancel(sessionID string, cause error) bool {
	e.mu.Lock()
	r := e.running[sessionID]
	e.mu.Unlock()
	if r == nil {
		return false
	}
	r.cancel(cause)
	return true
}
