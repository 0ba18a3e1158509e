// Package store is the runner's persistence contract: projects, sessions, messages and
// their parts, todos, saved permission rules and pending permission requests.
//
// Guarantees every backend gives:
//   - A missing row (or one owned by someone else, where an owner is given) is ErrNotFound.
//   - Messages list in insertion order, parts in insertion order within their message.
//   - PutMessage and PutPart are upserts keyed by ID; an update keeps the original position.
//   - ForkSession copies the history in one transaction: all of it or nothing.
//   - DeleteSession removes the session's messages, parts, todos, pending requests and queued
//     prompts.
//   - ImportSession stores a session with its history in one transaction: all or nothing.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// ErrNotFound is returned (wrapped) for a missing row.
var ErrNotFound = errors.New("store: not found")

// Project is a directory the runner works in.
type Project struct {
	ID       string    `json:"id"`
	Worktree string    `json:"worktree"`
	VCS      string    `json:"vcs,omitempty"` // "git" or ""
	Created  time.Time `json:"created"`
}

// Session is one conversation thread within a project.
type Session struct {
	ID        string        `json:"id"`
	ProjectID string        `json:"project_id"`
	OwnerID   int64         `json:"owner_id"`
	ParentID  string        `json:"parent_id,omitempty"`
	Title     string        `json:"title"`
	Directory string        `json:"directory"`
	Agent     string        `json:"agent"`
	Usage     message.Usage `json:"usage"`
	Created   time.Time     `json:"created"`
	Updated   time.Time     `json:"updated"`
}

// SessionFilter selects sessions to list.
type SessionFilter struct {
	OwnerID   int64
	ProjectID string // empty: any project
	Limit     int    // 0: no limit
}

// Todo is one entry of a session's todo list.
type Todo struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	Status   string `json:"status"`             // pending, in_progress, completed, cancelled
	Priority string `json:"priority,omitempty"` // high, medium, low
}

// SavedRule is a permission rule remembered for a project and agent.
type SavedRule struct {
	ID        int64     `json:"id"`
	ProjectID string    `json:"project_id"`
	OwnerID   int64     `json:"owner_id"`
	Agent     string    `json:"agent"`
	Tool      string    `json:"tool"`
	Pattern   string    `json:"pattern"`
	Action    string    `json:"action"`
	Created   time.Time `json:"created"`
}

// RuleFilter selects saved rules.
type RuleFilter struct {
	OwnerID   int64
	ProjectID string // empty: any
	Agent     string // empty: any
}

// PendingRequest is a permission request that waits for a human.
type PendingRequest struct {
	ID        string          `json:"id"`
	SessionID string          `json:"session_id"`
	OwnerID   int64           `json:"owner_id"`
	Data      json.RawMessage `json:"data"`
	Created   time.Time       `json:"created"`
}

// QueuedPrompt is a prompt sent while its session was busy, waiting for its turn.
type QueuedPrompt struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session_id"`
	OwnerID   int64     `json:"-"`
	Text      string    `json:"text"`
	Agent     string    `json:"agent,omitempty"`
	Model     string    `json:"model,omitempty"`
	Steer     bool      `json:"steer,omitempty"` // it cut the turn before it short
	Created   time.Time `json:"created"`
}

// UsageRecord is one assistant message's usage, for the usage reports.
type UsageRecord struct {
	SessionID string
	ProjectID string
	Model     string
	Created   time.Time
	Usage     message.Usage
}

// Store is what the runner keeps: implemented once over database/sql (store/sqlstore) for
// SQLite and PostgreSQL.
type Store interface {
	UpsertProject(ctx context.Context, p Project) error
	GetProject(ctx context.Context, id string) (Project, error)

	CreateSession(ctx context.Context, s Session) error
	GetSession(ctx context.Context, id string) (Session, error)
	ListSessions(ctx context.Context, f SessionFilter) ([]Session, error)
	UpdateSession(ctx context.Context, s Session) error
	DeleteSession(ctx context.Context, id string) error
	// ForkSession creates dst holding a copy of src's messages up to and including the
	// message through (all messages when through is empty), with fresh IDs made by newID.
	ForkSession(ctx context.Context, src string, through string, dst Session, newID func(prefix string) string) error

	// PutMessage inserts or updates a message (its Parts are ignored).
	PutMessage(ctx context.Context, m *message.Message) error
	// PutPart inserts or updates a part.
	PutPart(ctx context.Context, p message.Part) error
	// ListMessages returns the session's messages with their parts.
	ListMessages(ctx context.Context, sessionID string) ([]*message.Message, error)

	GetTodos(ctx context.Context, sessionID string) ([]Todo, error)
	SetTodos(ctx context.Context, sessionID string, todos []Todo) error

	AddRule(ctx context.Context, r SavedRule) (SavedRule, error)
	ListRules(ctx context.Context, f RuleFilter) ([]SavedRule, error)
	DeleteRule(ctx context.Context, ownerID, id int64) error

	// ImportSession creates s with msgs (their parts included, IDs as given) and todos.
	ImportSession(ctx context.Context, s Session, msgs []*message.Message, todos []Todo) error

	// QueuePrompt adds q at the end of its session's queue, or at the front with front.
	QueuePrompt(ctx context.Context, q QueuedPrompt, front bool) error
	// ListQueued returns a session's queued prompts in the order they run (every session's,
	// session by session, when sessionID is empty).
	ListQueued(ctx context.Context, sessionID string) ([]QueuedPrompt, error)
	// DeleteQueued removes a queued prompt; ErrNotFound when it is not queued.
	DeleteQueued(ctx context.Context, id string) error

	// ListUsage returns the usage of every assistant message of the owner's sessions.
	ListUsage(ctx context.Context, ownerID int64) ([]UsageRecord, error)

	PutPendingRequest(ctx context.Context, r PendingRequest) error
	DeletePendingRequest(ctx context.Context, id string) error
	ListPendingRequests(ctx context.Context) ([]PendingRequest, error)

	// Ping checks the database answers.
	Ping(ctx context.Context) error
	Close() error
}

// IsNotFound reports whether err is (or wraps) ErrNotFound.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
