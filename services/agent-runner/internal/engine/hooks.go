package engine

import (
	"context"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

// TurnHooks are told when a turn starts and ends (snapshots before and after it). They run
// synchronously on the turn's goroutine: TurnStarted before the first model call,
// TurnEnded after the last tool call. They must not fail the turn.
type TurnHooks interface {
	TurnStarted(ctx context.Context, s store.Session, userMessageID string)
	TurnEnded(ctx context.Context, s store.Session, userMessageID string)
}

func (e *Engine) turnStarted(ctx context.Context, s store.Session, userMessageID string) {
	if e.d.Turns != nil {
		e.d.Turns.TurnStarted(ctx, s, userMessageID)
	}
}

func (e *Engine) turnEnded(ctx context.Context, s store.Session, userMessageID string) {
	if e.d.Turns != nil && userMessageID != "" {
		e.d.Turns.TurnEnded(context.WithoutCancel(ctx), s, userMessageID)
	}
}
