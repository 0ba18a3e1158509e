// Package fantasyllm is the default LLM backend: charm.land/fantasy providers (OpenAI,
// Anthropic, Google, OpenRouter, Azure, Bedrock and any OpenAI-compatible server) behind the
// runner's llm.Backend interface, with retries and backoff on rate limits and transient
// failures that happen before any output was streamed.
package fantasyllm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"sync"
	"time"

	"charm.land/fantasy"

	"openvibe.live/backend/services/agent-runner/internal/llm"
)

// Options tune retries.
type Options struct {
	// MaxRetries after the first attempt (default 4; negative disables retries).
	MaxRetries int
	// BaseDelay doubles after each retry (default 1s), capped at MaxDelay (default 30s).
	BaseDelay, MaxDelay time.Duration
}

// Backend streams from one fantasy provider.
type Backend struct {
	provider fantasy.Provider
	opts     Options

	mu     sync.Mutex
	models map[string]fantasy.LanguageModel
}

// New wraps a provider.
func New(p fantasy.Provider, o Options) *Backend {
	if o.MaxRetries == 0 {
		o.MaxRetries = 4
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = time.Second
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 30 * time.Second
	}
	return &Backend{provider: p, opts: o, models: map[string]fantasy.LanguageModel{}}
}

func (b *Backend) model(ctx context.Context, id string) (fantasy.LanguageModel, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m, ok := b.models[id]; ok {
		return m, nil
	}
	m, err := b.provider.LanguageModel(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("model %s/%s: %w", b.provider.Name(), id, err)
	}
	b.models[id] = m
	return m, nil
}

// Stream implements llm.Backend.
func (b *Backend) Stream(ctx context.Context, req llm.Request) iter.Seq[llm.Event] {
	return func(yield func(llm.Event) bool) {
		m, err := b.model(ctx, req.Model)
		if err != nil {
			yield(llm.Event{Type: llm.Error, Err: err})
			return
		}
		call := fantasy.Call{Prompt: Prompt(req), Tools: Tools(req.Tools), Temperature: req.Temperature}
		if req.MaxTokens > 0 {
			call.MaxOutputTokens = &req.MaxTokens
		}
		for attempt := 0; ; attempt++ {
			emitted, err := b.once(ctx, m, call, yield)
			if err == nil || emitted || ctx.Err() != nil || attempt >= b.opts.MaxRetries || !retryable(err) {
				if err != nil && !emitted && ctx.Err() == nil {
					yield(llm.Event{Type: llm.Error, Err: err})
				} else if ctx.Err() != nil {
					yield(llm.Event{Type: llm.Error, Err: context.Cause(ctx)})
				}
				return
			}
			select {
			case <-ctx.Done():
				yield(llm.Event{Type: llm.Error, Err: context.Cause(ctx)})
				return
			case <-time.After(b.delay(err, attempt)):
			}
		}
	}
}

// errStop reports that the consumer stopped iterating.
var errStop = errors.New("consumer stopped")

// once runs one attempt. emitted reports whether any event reached the consumer (after
// which a retry would duplicate output); a mid-stream error is yielded directly.
func (b *Backend) once(ctx context.Context, m fantasy.LanguageModel, call fantasy.Call, yield func(llm.Event) bool) (emitted bool, err error) {
	stream, err := m.Stream(ctx, call)
	if err != nil {
		return false, err
	}
	send := func(ev llm.Event) bool {
		emitted = true
		return yield(ev)
	}
	done := false
	for part := range stream {
		if ctx.Err() != nil {
			return emitted, ctx.Err()
		}
		var ok = true
		switch part.Type {
		case fantasy.StreamPartTypeTextDelta:
			if part.Delta != "" {
				ok = send(llm.Event{Type: llm.TextDelta, Text: part.Delta})
			}
		case fantasy.StreamPartTypeReasoningDelta:
			if part.Delta != "" {
				ok = send(llm.Event{Type: llm.ReasoningDelta, Text: part.Delta})
			}
		case fantasy.StreamPartTypeToolCall:
			input := json.RawMessage(part.ToolCallInput)
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			ok = send(llm.Event{Type: llm.ToolCallComplete, ToolCall: &llm.ToolCall{ID: part.ID, Name: part.ToolCallName, Input: input}})
		case fantasy.StreamPartTypeFinish:
			done = true
			ok = send(llm.Event{Type: llm.StreamDone, Finish: string(part.FinishReason), Usage: llm.Usage{
				InputTokens: part.Usage.InputTokens, OutputTokens: part.Usage.OutputTokens,
				ReasoningTokens: part.Usage.ReasoningTokens, CacheReadTokens: part.Usage.CacheReadTokens,
				CacheWriteTokens: part.Usage.CacheCreationTokens}})
		case fantasy.StreamPartTypeError:
			perr := part.Error
			if perr == nil {
				perr = errors.New("provider stream error")
			}
			if !emitted {
				return false, perr
			}
			send(llm.Event{Type: llm.Error, Err: perr})
			return true, nil
		}
		if !ok {
			return true, nil
		}
	}
	if !done {
		if ctx.Err() != nil {
			return emitted, ctx.Err()
		}
		if !emitted {
			return false, fantasy.NewIncompleteStreamError()
		}
		send(llm.Event{Type: llm.Error, Err: errors.New("the model stream ended without finishing")})
	}
	return true, nil
}

func retryable(err error) bool {
	var pe *fantasy.ProviderError
	if errors.As(err, &pe) {
		return pe.IsRetryable()
	}
	return false
}

// delay is the wait before retry attempt+1: the provider's Retry-After when given and
// reasonable, else exponential backoff.
func (b *Backend) delay(err error, attempt int) time.Duration {
	d := b.opts.BaseDelay << attempt
	if d > b.opts.MaxDelay || d <= 0 {
		d = b.opts.MaxDelay
	}
	var pe *fantasy.ProviderError
	if errors.As(err, &pe) {
		for k, v := range pe.ResponseHeaders {
			switch {
			case equalFold(k, "retry-after-ms"):
				if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 60000 {
					return time.Duration(ms) * time.Millisecond
				}
			case equalFold(k, "retry-after"):
				if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 60 {
					return time.Duration(s * float64(time.Second))
				}
			}
		}
	}
	return d
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return false
		}
	}
	return true
}

// Prompt converts a request to fantasy messages. Reasoning from earlier turns is not sent
// back: providers require their own signatures on it.
func Prompt(req llm.Request) fantasy.Prompt {
	var p fantasy.Prompt
	if req.System != "" {
		p = append(p, fantasy.Message{Role: fantasy.MessageRoleSystem, Content: []fantasy.MessagePart{fantasy.TextPart{Text: req.System}}})
	}
	for _, m := range req.Messages {
		var parts []fantasy.MessagePart
		for _, part := range m.Parts {
			switch part.Kind {
			case llm.PartText:
				parts = append(parts, fantasy.TextPart{Text: part.Text})
			case llm.PartToolCall:
				parts = append(parts, fantasy.ToolCallPart{ToolCallID: part.CallID, ToolName: part.Tool, Input: string(part.Input)})
			case llm.PartToolResult:
				var out fantasy.ToolResultOutputContent = fantasy.ToolResultOutputContentText{Text: part.Text}
				if part.IsError {
					out = fantasy.ToolResultOutputContentError{Error: errors.New(part.Text)}
				}
				parts = append(parts, fantasy.ToolResultPart{ToolCallID: part.CallID, Output: out})
			}
		}
		if len(parts) == 0 {
			continue
		}
		role := fantasy.MessageRoleUser
		switch m.Role {
		case llm.RoleAssistant:
			role = fantasy.MessageRoleAssistant
		case llm.RoleTool:
			role = fantasy.MessageRoleTool
		case llm.RoleSystem:
			role = fantasy.MessageRoleSystem
		}
		p = append(p, fantasy.Message{Role: role, Content: parts})
	}
	return p
}

// Tools converts tool definitions.
func Tools(defs []llm.ToolDef) []fantasy.Tool {
	out := make([]fantasy.Tool, 0, len(defs))
	for _, d := range defs {
		out = append(out, fantasy.FunctionTool{Name: d.Name, Description: d.Description, InputSchema: d.Schema})
	}
	return out
}
