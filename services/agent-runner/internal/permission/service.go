package permission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// ErrShutdown is the cancellation cause the runner uses when it stops: a request waiting
// when its context ends with this cause stays stored, to be answered after a restart.
var ErrShutdown = errors.New("runner shutting down")

// ErrNotFound: no pending request with that ID belongs to the caller.
var ErrNotFound = errors.New("permission request not found")

// Policy says who answers an "ask".
type Policy int

const (
	// Interactive asks a human over the bus and waits for a reply.
	Interactive Policy = iota
	// HeadlessDeny answers every ask with deny at once (nobody is there to answer).
	HeadlessDeny
	// HeadlessAllow answers every ask with allow at once (an explicit --yes).
	HeadlessAllow
)

// Request is one tool call's question to the user.
type Request struct {
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	ProjectID string `json:"project_id"`
	OwnerID   int64  `json:"-"`
	Agent     string `json:"agent"`
	Tool      string `json:"tool"`
	// Pattern is what the call acts on: a path, a URL, the whole command line.
	Pattern string `json:"pattern"`
	// Kind says how rules match Pattern: "path", "text" or "command".
	Kind Kind `json:"kind"`
	// Commands are, for a command line, the simple commands no rule or remembered decision
	// covers: what the user is asked about.
	Commands []string `json:"commands,omitempty"`
	Title    string   `json:"title"`
	// Always are the patterns "remember" saves: each command exactly, or the tool's pattern.
	Always Patterns `json:"always"`
	// Prefixes are broader patterns a client may offer to remember instead (git status *).
	Prefixes  []string       `json:"prefixes,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	MessageID string         `json:"message_id,omitempty"`
	PartID    string         `json:"part_id,omitempty"`
	CallID    string         `json:"call_id,omitempty"`
	Created   time.Time      `json:"created"`
}

// Patterns is a list of rule patterns; it also reads the single string requests were stored
// with before.
type Patterns []string

// UnmarshalJSON accepts a list or one string.
func (p *Patterns) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*p = Patterns{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("permission patterns: %w", err)
	}
	*p = many
	return nil
}

// subjects are what rules are matched against: each simple command of a command line, or
// the pattern.
func (r Request) subjects() []Subject {
	if r.Kind == KindCommand {
		subs, _ := SplitCommands(r.Pattern)
		return subs
	}
	return []Subject{{Text: r.Pattern}}
}

// need records on the request what is left to ask about, and what remembering it saves.
func (r *Request) need(subs []Subject) {
	if r.Kind != KindCommand {
		if len(r.Always) == 0 || r.Always[0] == "" {
			r.Always = Patterns{"*"}
		}
		return
	}
	r.Commands, r.Always, r.Prefixes = nil, Patterns{}, nil
	for _, s := range subs {
		r.Commands = append(r.Commands, s.Text)
		if s.Opaque {
			continue // what it runs is not known from its text: asked every time
		}
		r.Always = append(r.Always, Literal(s.Text))
		if p := commandPrefix(s.Text); p != "" && !slices.Contains(r.Prefixes, p) {
			r.Prefixes = append(r.Prefixes, p)
		}
	}
}

// DeniedError is returned by Check when the call may not run. Its message is what the model
// is told.
type DeniedError struct {
	Tool, Pattern, Reason string
}

func (e *DeniedError) Error() string {
	what := e.Tool
	if e.Pattern != "" {
		what += " " + e.Pattern
	}
	return fmt.Sprintf("permission denied: %s (%s). Do not retry the same call; choose another approach or ask the user.", what, e.Reason)
}

// Reply is a human's answer.
type Reply struct {
	Allow    bool
	Remember bool
	// Always, with Remember, replaces the request's Always: patterns of the user's choosing
	// (a prefix such as "git status *"). Each must match something the request asked about;
	// for commands, none may cover every command.
	Always []string
}

// ReplyError is a reply that cannot be accepted as given; the request still waits.
type ReplyError struct{ Msg string }

func (e *ReplyError) Error() string { return e.Msg }

// check validates the patterns a reply chose against the request.
func (r Reply) check(req Request) error {
	if !r.Remember || len(r.Always) == 0 {
		return nil
	}
	subs := []Subject{{Text: req.Pattern}}
	if req.Kind == KindCommand {
		subs = nil
		for _, c := range req.Commands {
			subs = append(subs, Subject{Text: c})
		}
	}
	for _, p := range r.Always {
		rule := Rule{Tool: req.Tool, Pattern: p, Action: Allow}
		if err := rule.Validate(); err != nil {
			return &ReplyError{Msg: "always: " + err.Error()}
		}
		if req.Kind == KindCommand && AllPatterns(p) {
			return &ReplyError{Msg: fmt.Sprintf("always %q would allow every command; add a rule to openvibe.json if that is meant", p)}
		}
		if !slices.ContainsFunc(subs, func(s Subject) bool { return rule.Match(req.Tool, s, req.Kind) }) {
			return &ReplyError{Msg: fmt.Sprintf("always %q does not match what was asked (%s)", p, req.Pattern)}
		}
	}
	return nil
}

type waiter struct {
	req Request
	ch  chan Reply // nil for a request restored after a restart
}

// Service evaluates rules and runs the ask/reply exchange.
type Service struct {
	store store.Store
	bus   *bus.Bus
	log   *slog.Logger
	now   func() time.Time

	mu      sync.Mutex
	pending map[string]*waiter
	// orphan is called for a reply to a request restored after a restart.
	orphan func(req Request, r Reply)
}

// NewService returns a permission service. orphan handles replies to requests restored by Load.
func NewService(st store.Store, b *bus.Bus, log *slog.Logger, orphan func(Request, Reply)) *Service {
	return &Service{store: st, bus: b, log: log, now: time.Now, pending: map[string]*waiter{}, orphan: orphan}
}

// Load restores the pending requests stored before a restart.
func (s *Service) Load(ctx context.Context) error {
	reqs, err := s.store.ListPendingRequests(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pr := range reqs {
		var req Request
		if err := json.Unmarshal(pr.Data, &req); err != nil {
			s.log.WarnContext(ctx, "skipping unreadable permission request", "request_id", pr.ID, "error", err)
			continue
		}
		req.OwnerID = pr.OwnerID
		s.pending[req.ID] = &waiter{req: req}
	}
	return nil
}

// SavedRules returns the remembered decisions for the scope, newest first: they answer what
// the configured rules leave open.
func (s *Service) SavedRules(ctx context.Context, ownerID int64, projectID, agent string) ([]Rule, error) {
	saved, err := s.store.ListRules(ctx, store.RuleFilter{OwnerID: ownerID, ProjectID: projectID, Agent: agent})
	if err != nil {
		return nil, err
	}
	out := make([]Rule, 0, len(saved))
	for _, r := range saved {
		out = append(out, Rule{Tool: r.Tool, Pattern: r.Pattern, Action: Action(r.Action)})
	}
	return out, nil
}

// Check decides the call described by req against rules (agent, project, global levels
// and the defaults, in that order; the first match wins) and the remembered decisions of its
// project and agent. A deny rule always denies, an allow rule allows; what no rule decides
// (no match, or an "ask" rule) is answered by a remembered decision if one matches, else the
// user is asked (or the policy answers). A command line is split into its simple commands,
// each decided on its own: one denied command denies the call, and the user is asked about
// the ones left open. Check returns nil when the call may run and a *DeniedError when not.
func (s *Service) Check(ctx context.Context, req Request, rules []Rule, policy Policy) error {
	saved, err := s.SavedRules(ctx, req.OwnerID, req.ProjectID, req.Agent)
	if err != nil {
		return fmt.Errorf("load saved rules: %w", err)
	}
	var open []Subject
	for _, sub := range req.subjects() {
		switch action, _ := Evaluate(rules, req.Tool, sub, req.Kind); action {
		case Deny:
			return &DeniedError{Tool: req.Tool, Pattern: sub.Text, Reason: "a rule denies it"}
		case Allow:
			continue
		}
		switch action, _ := Evaluate(saved, req.Tool, sub, req.Kind); action {
		case Deny:
			return &DeniedError{Tool: req.Tool, Pattern: sub.Text, Reason: "the user denied it before and asked to remember that"}
		case Allow:
			continue
		}
		open = append(open, sub)
	}
	if len(open) == 0 {
		return nil
	}
	req.need(open)
	switch policy {
	case HeadlessAllow:
		return nil
	case HeadlessDeny:
		return &DeniedError{Tool: req.Tool, Pattern: req.Pattern,
			Reason: "it needs approval and nobody can approve in a headless run; add an allow rule to openvibe.json or rerun with --yes"}
	}
	r, err := s.ask(ctx, req)
	if err != nil {
		return err
	}
	if !r.Allow {
		return &DeniedError{Tool: req.Tool, Pattern: req.Pattern, Reason: "the user rejected it"}
	}
	return nil
}

func (s *Service) ask(ctx context.Context, req Request) (Reply, error) {
	if req.ID == "" {
		req.ID = id.New(id.Permission)
	}
	req.Created = s.now().UTC()
	data, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	if err := s.store.PutPendingRequest(ctx, store.PendingRequest{ID: req.ID, SessionID: req.SessionID,
		OwnerID: req.OwnerID, Data: data, Created: req.Created}); err != nil {
		return Reply{}, fmt.Errorf("store permission request: %w", err)
	}
	w := &waiter{req: req, ch: make(chan Reply, 1)}
	s.mu.Lock()
	s.pending[req.ID] = w
	s.mu.Unlock()
	s.bus.Publish(bus.Event{Type: bus.PermissionAsked, SessionID: req.SessionID, OwnerID: req.OwnerID, Properties: req})

	select {
	case r := <-w.ch:
		return r, nil
	case <-ctx.Done():
		s.mu.Lock()
		delete(s.pending, req.ID)
		s.mu.Unlock()
		if !errors.Is(context.Cause(ctx), ErrShutdown) {
			// Aborted: the question is moot. On shutdown it stays stored for after the restart.
			if err := s.store.DeletePendingRequest(context.WithoutCancel(ctx), req.ID); err != nil && !store.IsNotFound(err) {
				s.log.WarnContext(ctx, "delete aborted permission request", "request_id", req.ID, "error", err)
			}
			s.bus.Publish(bus.Event{Type: bus.PermissionReplied, SessionID: req.SessionID, OwnerID: req.OwnerID,
				Properties: map[string]any{"request_id": req.ID, "decision": "cancelled"}})
		}
		return Reply{}, context.Cause(ctx)
	}
}

// Reply answers a pending request owned by ownerID. With Remember, the decision is saved as
// a rule for the request's project and agent (newest saved rules are evaluated first).
func (s *Service) Reply(ctx context.Context, ownerID int64, requestID string, r Reply) (Request, error) {
	s.mu.Lock()
	w, ok := s.pending[requestID]
	if !ok || w.req.OwnerID != ownerID {
		s.mu.Unlock()
		return Request{}, ErrNotFound
	}
	if err := r.check(w.req); err != nil {
		s.mu.Unlock()
		return Request{}, err
	}
	delete(s.pending, requestID)
	s.mu.Unlock()
	req := w.req

	if err := s.store.DeletePendingRequest(ctx, requestID); err != nil && !store.IsNotFound(err) {
		s.log.WarnContext(ctx, "delete answered permission request", "request_id", requestID, "error", err)
	}
	if r.Remember {
		action := Deny
		if r.Allow {
			action = Allow
		}
		patterns := []string(req.Always)
		if len(r.Always) > 0 {
			patterns = r.Always
		}
		for _, p := range patterns {
			if _, err := s.store.AddRule(ctx, store.SavedRule{ProjectID: req.ProjectID, OwnerID: req.OwnerID, Agent: req.Agent,
				Tool: req.Tool, Pattern: p, Action: string(action), Created: s.now().UTC()}); err != nil {
				s.log.ErrorContext(ctx, "save remembered rule", "request_id", requestID, "error", err)
			}
		}
	}
	decision := "deny"
	if r.Allow {
		decision = "allow"
	}
	s.bus.Publish(bus.Event{Type: bus.PermissionReplied, SessionID: req.SessionID, OwnerID: req.OwnerID,
		Properties: map[string]any{"request_id": requestID, "decision": decision, "remember": r.Remember}})
	if w.ch != nil {
		w.ch <- r
	} else if s.orphan != nil {
		s.orphan(req, r)
	}
	return req, nil
}

// Pending lists the requests waiting for ownerID (all sessions when sessionID is empty).
func (s *Service) Pending(ownerID int64, sessionID string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Request{}
	for _, w := range s.pending {
		if w.req.OwnerID == ownerID && (sessionID == "" || w.req.SessionID == sessionID) {
			out = append(out, w.req)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Cancel drops the restored (orphan) requests of a session from memory and the store: a
// new prompt supersedes the calls that waited on them.
func (s *Service) Cancel(ctx context.Context, ownerID int64, sessionID string) error {
	s.mu.Lock()
	var drop []Request
	for k, w := range s.pending {
		if w.req.SessionID == sessionID && w.ch == nil {
			drop = append(drop, w.req)
			delete(s.pending, k)
		}
	}
	s.mu.Unlock()
	for _, req := range drop {
		if err := s.store.DeletePendingRequest(ctx, req.ID); err != nil && !store.IsNotFound(err) {
			return err
		}
		s.bus.Publish(bus.Event{Type: bus.PermissionReplied, SessionID: req.SessionID, OwnerID: ownerID,
			Properties: map[string]any{"request_id": req.ID, "decision": "cancelled"}})
	}
	return nil
}

// Forget drops restored (orphan) requests of a session, e.g. when it is deleted.
func (s *Service) Forget(sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, w := range s.pending {
		if w.req.SessionID == sessionID && w.ch == nil {
			delete(s.pending, k)
		}
	}
}
