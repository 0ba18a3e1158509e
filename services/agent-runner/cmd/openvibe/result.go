package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/runner"
)

// Run outcomes and their exit codes.
const (
	statusCompleted = "completed" // 0
	statusFailed    = "failed"    // 1: model or configuration error, step limit, abort
	statusDenied    = "denied"    // 3: the model called tools and every call was denied
)

// exitError carries a process exit code other than 1.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// runResult is what `run --format json` prints, and what decides the exit code.
type runResult struct {
	SessionID string             `json:"session_id"`
	Status    string             `json:"status"`
	ExitCode  int                `json:"exit_code"`
	Error     string             `json:"error,omitempty"`
	Text      string             `json:"text"`
	ToolCalls int                `json:"tool_calls"`
	Denied    int                `json:"denied"`
	Usage     message.Usage      `json:"usage"`
	Messages  []*message.Message `json:"messages"`
}

// result reads the turn just run back from the store: its messages from the prompt on.
func (c *cli) result(ctx context.Context, r *runner.Runner, sessionID string, turnErr error) (runResult, error) {
	msgs, err := r.Store().ListMessages(ctx, sessionID)
	if err != nil {
		return runResult{}, err
	}
	start := 0
	for i, m := range msgs {
		if m.Role == message.RoleUser {
			start = i
		}
	}
	res := runResult{SessionID: sessionID, Status: statusCompleted, Messages: msgs[start:]}
	if res.Messages == nil {
		res.Messages = []*message.Message{}
	}
	for _, m := range res.Messages {
		if m.Role != message.RoleAssistant {
			continue
		}
		res.Usage.Add(m.Usage)
		if t := m.Text(); t != "" {
			res.Text = t
		}
		for _, tp := range m.ToolParts() {
			res.ToolCalls++
			if tp.State == message.ToolError && strings.HasPrefix(tp.Error, "permission denied") {
				res.Denied++
			}
		}
	}
	switch {
	case turnErr != nil:
		res.Status, res.ExitCode, res.Error = statusFailed, 1, turnErr.Error()
	case res.ToolCalls > 0 && res.Denied == res.ToolCalls:
		res.Status, res.ExitCode = statusDenied, 3
		res.Error = fmt.Sprintf("every tool call (%d) was denied", res.ToolCalls)
	}
	return res, nil
}

// err is the error run returns for the result (nil when the turn completed).
func (r runResult) err() error {
	switch r.ExitCode {
	case 0:
		return nil
	case 1:
		return errors.New(r.Error)
	}
	return exitError{code: r.ExitCode, msg: r.Error}
}

// summary is the run.finished line of ndjson output: the result without its messages.
func (r runResult) summary() runResult {
	r.Messages = nil
	return r
}

// printEvents writes every event of the session and of its subagents' sessions as a JSON
// line, the moment it is published.
func (c *cli) printEvents(sub *bus.Subscription, sessionID string) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mine := map[string]bool{sessionID: true}
		for e := range sub.C() {
			if e.Type == bus.SessionCreated {
				if s, ok := e.Properties.(store.Session); ok && mine[s.ParentID] {
					mine[s.ID] = true
				}
			}
			if mine[e.SessionID] {
				fmt.Fprintf(c.stdout, "%s\n", e.Data)
			}
		}
	}()
	return &wg
}

// drain reads the subscription without printing (json output waits for the end).
func (c *cli) drain(sub *bus.Subscription) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range sub.C() {
		}
	}()
	return &wg
}
