package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"sync"
	"time"
)

// Step is one scripted model response.
type Step struct {
	// Events are emitted in order; a StreamDone is appended when missing.
	Events []Event
	// Delay is waited before each event (to exercise streaming and abort).
	Delay time.Duration
	// Hang blocks after the events until the request is cancelled (an endless stream).
	Hang bool
}

// Responder picks the response for a request; it may inspect what the model was sent.
type Responder func(req Request) Step

// Scripted is a deterministic backend for tests and demos.
type Scripted struct {
	respond Responder
	mu      sync.Mutex
	reqs    []Request
	keep    int // requests kept for Requests; <0 keeps all
}

// NewScripted returns a backend answering with respond.
func NewScripted(respond Responder) *Scripted { return &Scripted{respond: respond, keep: -1} }

// KeepRequests bounds how many recent requests Requests returns (each holds a whole history).
func (s *Scripted) KeepRequests(n int) *Scripted {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keep = n
	return s
}

// Queue returns a Responder that plays steps in order (per backend, across sessions) and
// answers "(script finished)" once they run out.
func Queue(steps ...Step) Responder {
	var mu sync.Mutex
	i := 0
	return func(Request) Step {
		mu.Lock()
		defer mu.Unlock()
		if i >= len(steps) {
			return Step{Events: []Event{Text("(script finished)")}}
		}
		i++
		return steps[i-1]
	}
}

// ByHistory returns a Responder that plays the N-th step for a session's N-th model call,
// counting earlier calls from the assistant messages in the request. It is stateless, so a
// scripted session can be resumed by another process.
func ByHistory(steps ...Step) Responder {
	return func(req Request) Step {
		n := 0
		for _, m := range req.Messages {
			if m.Role == RoleAssistant {
				n++
			}
		}
		if n >= len(steps) {
			return Step{Events: []Event{Text("(script finished)")}}
		}
		return steps[n]
	}
}

// Requests returns copies of every request received so far.
func (s *Scripted) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Stream implements Backend.
func (s *Scripted) Stream(ctx context.Context, req Request) iter.Seq[Event] {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	if s.keep >= 0 && len(s.reqs) > s.keep {
		s.reqs = append(s.reqs[:0:0], s.reqs[len(s.reqs)-s.keep:]...)
	}
	s.mu.Unlock()
	step := s.respond(req)
	return func(yield func(Event) bool) {
		done := false
		for _, ev := range step.Events {
			if step.Delay > 0 {
				select {
				case <-ctx.Done():
					yield(Event{Type: Error, Err: context.Cause(ctx)})
					return
				case <-time.After(step.Delay):
				}
			}
			if ctx.Err() != nil {
				yield(Event{Type: Error, Err: context.Cause(ctx)})
				return
			}
			if ev.Type == StreamDone {
				done = true
			}
			if !yield(ev) {
				return
			}
		}
		if step.Hang {
			<-ctx.Done()
			yield(Event{Type: Error, Err: context.Cause(ctx)})
			return
		}
		if !done {
			finish := "stop"
			for _, ev := range step.Events {
				if ev.Type == ToolCallComplete {
					finish = "tool-calls"
				}
			}
			yield(Event{Type: StreamDone, Finish: finish, Usage: Usage{InputTokens: 10, OutputTokens: 5}})
		}
	}
}

// Text is a text delta event.
func Text(s string) Event { return Event{Type: TextDelta, Text: s} }

// Reasoning is a reasoning delta event.
func Reasoning(s string) Event { return Event{Type: ReasoningDelta, Text: s} }

// Call is a tool call event; input is marshalled to JSON.
func Call(id, name string, input any) Event {
	b, err := json.Marshal(input)
	if err != nil {
		panic(fmt.Sprintf("scripted call input: %v", err))
	}
	return Event{Type: ToolCallComplete, ToolCall: &ToolCall{ID: id, Name: name, Input: b}}
}

// Done is a StreamDone event with usage.
func Done(finish string, in, out int64) Event {
	return Event{Type: StreamDone, Finish: finish, Usage: Usage{InputTokens: in, OutputTokens: out}}
}
