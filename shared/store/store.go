// Package store defines the persistence contract of OpenVibe.Live: accounts, API tokens,
// managed stream slots, live streams, vibe-coding sessions and events, and chat.
//
// Two backends implement it, store/postgres (pgx) and store/sqlite (modernc.org/sqlite), and
// store/storetest runs one conformance suite against both. The contract below is what the
// services rely on; a backend that passes the suite honours it.
//
// Guarantees every backend gives:
//   - Errors: a missing row is ErrNotFound (never a nil value with a nil error); a unique
//     constraint violation is ErrConflict. Both are matched with errors.Is.
//   - InsertVibeEvents is atomic: the whole batch commits or nothing does. Every newly stored
//     event gets the slot's next sequence number; per slot the numbers are 1, 2, 3, … with no
//     gaps and no reuse, in commit order. An event whose (slot, event_id) already exists is not
//     stored again: the existing row is returned with Duplicate set.
//   - Reads see every committed write (read-your-writes on the same Store).
//   - Times are stored with at least millisecond precision and returned in UTC.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"openvibe.live/backend/shared/vibe"
)

// Sentinel errors. Backends wrap them; callers match with errors.Is.
var (
	// ErrNotFound: the row asked for does not exist (or does not belong to the given owner).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a unique constraint was violated (duplicate username, slug, …).
	ErrConflict = errors.New("store: conflict")
)

// Token scopes.
const (
	ScopeVibeCodingPublish = "vibe_coding_publish"
	ScopeRead              = "read"
	ScopeStream            = "stream" // legacy publish scope, still accepted by the gateway
	ScopeAgent             = "agent"  // drives agent-runner sessions
)

// Vibe-coding session statuses.
const (
	SessionActive = "active"
	SessionEnded  = "ended"
)

type User struct {
	ID           int64
	Username     string // as registered; lookups are case-insensitive
	PasswordHash string
	CreatedAt    time.Time
}

type APIToken struct {
	ID         int64
	UserID     int64
	Name       string
	Hash       []byte // SHA-256 of the full token text; the token itself is never stored
	Hint       string // the first characters of the token, for display ("hbt_AbCd…")
	Scopes     []string
	ExpiresAt  *time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
	CreatedAt  time.Time
}

// ManagedStream is a stream slot owned by a user.
type ManagedStream struct {
	ID     int64
	UserID int64
	Slug   string // unique per user
	Title  string
	// BroadcastSettings is the slot's settings JSON object; the vibe-coding settings live
	// under its "vibe_coding" key (normalized by shared/vibe on every read and write).
	BroadcastSettings json.RawMessage
	// LiveStreamID is the slot's current live stream, nil when it is not live.
	LiveStreamID *int64
	// LastSeq is the sequence number of the slot's newest vibe-coding event (0 when none).
	LastSeq int64
	// PausedAt is when the slot's vibe-coding feed stopped being shown to viewers (paused or
	// disabled), nil while it is shown; kept by UpdateBroadcastSettings.
	PausedAt  *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// SettingsUpdate is what an UpdateBroadcastSettings callback decides.
type SettingsUpdate struct {
	// BroadcastSettings is the slot's new broadcast_settings object.
	BroadcastSettings json.RawMessage
	// PausedAt is the slot's PausedAt after the update: the current one to keep it.
	PausedAt *time.Time
	// Withhold, when set, withholds the events it selects in the same transaction (its
	// ManagedStreamID is the slot's): the events that came due while the feed was paused,
	// when it is shown again.
	Withhold *Withhold
}

// SettingsOnly adapts an update of the broadcast settings alone for UpdateBroadcastSettings:
// PausedAt stays as it is and nothing is withheld.
func SettingsOnly(update func(current json.RawMessage) (json.RawMessage, error)) func(ManagedStream) (SettingsUpdate, error) {
	return func(cur ManagedStream) (SettingsUpdate, error) {
		next, err := update(cur.BroadcastSettings)
		return SettingsUpdate{BroadcastSettings: next, PausedAt: cur.PausedAt}, err
	}
}

// Withhold selects events of one slot to withhold, so that no viewer ever sees them: the
// seqs listed, or, when Seqs is empty, every event received in [ReceivedFrom, ReceivedTo] (a
// zero ReceivedTo: no upper bound). An event already withheld keeps its reason.
type Withhold struct {
	ManagedStreamID int64
	Seqs            []int64
	ReceivedFrom    time.Time
	ReceivedTo      time.Time
	Reason          string // vibe.Withheld*
}

type LiveStream struct {
	ID              int64
	ManagedStreamID int64
	StartedAt       time.Time
	EndedAt         *time.Time
}

// VibeSession is one publisher session in a slot, keyed by (slot, session_key).
type VibeSession struct {
	ID              int64
	ManagedStreamID int64
	SessionKey      string
	LiveStreamID    *int64
	Publisher       json.RawMessage // normalized publisher object from hello
	Status          string          // SessionActive or SessionEnded
	StartedAt       time.Time
	LastSeenAt      time.Time // last hello or event
	LastEventAt     *time.Time
	EndedAt         *time.Time
}

// NewVibeEvent is an event to store. Payload is the sanitized canonical event JSON.
type NewVibeEvent struct {
	ManagedStreamID int64
	SessionID       int64 // VibeSession.ID
	EventID         string
	EventType       string
	Visibility      string
	LiveStreamID    *int64
	Payload         json.RawMessage
	OccurredAt      *time.Time
	ReceivedAt      time.Time
	// Withheld marks an event stored while the slot was offline, paused or disabled: it is
	// kept for the owner and never shown to viewers, even after the slot resumes.
	// WithheldReason says which (vibe.Withheld*).
	Withheld       bool
	WithheldReason string
	// Normalized is what the gateway mapped onto the canonical model, a JSON object from
	// field to the value sent (shared/vibe.Normalized); nil when the event was canonical as
	// sent.
	Normalized json.RawMessage
}

// VibeEvent is a stored event.
type VibeEvent struct {
	ID               int64
	ManagedStreamID  int64
	Seq              int64 // per-slot, gap-free, from 1
	SessionID        int64
	SessionKey       string
	EventID          string
	EventType        string
	Visibility       string
	LiveStreamID     *int64
	Payload          json.RawMessage
	Normalized       json.RawMessage // nil when nothing was normalised
	OccurredAt       *time.Time
	ReceivedAt       time.Time
	Withheld         bool
	WithheldReason   string // vibe.Withheld*; empty when not withheld, or withheld before reasons were kept
	RetractedAt      *time.Time
	RetractedBy      *int64
	FirstDeliveredAt *time.Time
}

// InsertedVibeEvent is the outcome of storing one NewVibeEvent.
type InsertedVibeEvent struct {
	Event     VibeEvent
	Duplicate bool // the event_id was already stored; Event is the row stored first
}

// Viewing is what the visibility rule (vibe.WhyHidden) reads of the event.
func (e VibeEvent) Viewing() vibe.Stored {
	return vibe.Stored{EventType: e.EventType, Visibility: e.Visibility, Withheld: e.Withheld,
		Retracted: e.RetractedAt != nil, ReceivedAt: e.ReceivedAt}
}

// FeedQuery selects the events a viewer may fetch: public, not withheld, not retracted,
// received at or before ReceivedBefore (the delay window), of one of Types (all types when
// empty) and none of ExcludeTypes, newest first. ViewerFeed builds it from the settings.
type FeedQuery struct {
	ManagedStreamID int64
	ReceivedBefore  time.Time
	Types           []string
	ExcludeTypes    []string
	BeforeSeq       int64 // 0: from the newest
	Limit           int
}

type ChatMessage struct {
	ID              int64
	ManagedStreamID int64
	UserID          int64
	Username        string // filled on reads
	Text            string
	CreatedAt       time.Time
}

// Store is the persistence contract. All methods are safe for concurrent use.
type Store interface {
	// Ping reports whether the backend answers.
	Ping(ctx context.Context) error
	Close() error

	CreateUser(ctx context.Context, username, passwordHash string) (User, error) // ErrConflict on a duplicate (case-insensitive) username
	UserByID(ctx context.Context, id int64) (User, error)
	UserByUsername(ctx context.Context, username string) (User, error) // case-insensitive

	CreateAPIToken(ctx context.Context, t APIToken) (APIToken, error)
	APITokenByHash(ctx context.Context, hash []byte) (APIToken, error)             // includes revoked and expired tokens; callers check
	ListAPITokens(ctx context.Context, userID int64) ([]APIToken, error)           // newest first
	RevokeAPIToken(ctx context.Context, userID, tokenID int64, at time.Time) error // ErrNotFound unless the user's own, unrevoked token
	TouchAPIToken(ctx context.Context, tokenID int64, at time.Time) error          // sets last_used_at

	CreateManagedStream(ctx context.Context, userID int64, slug, title string, broadcastSettings json.RawMessage) (ManagedStream, error) // ErrConflict on a duplicate slug for the user
	ManagedStreamByID(ctx context.Context, id int64) (ManagedStream, error)
	ManagedStreamBySlug(ctx context.Context, userID int64, slug string) (ManagedStream, error) // case-insensitive slug
	ListManagedStreams(ctx context.Context, userID int64) ([]ManagedStream, error)             // by id
	// UpdateBroadcastSettings replaces the slot's broadcast_settings and PausedAt under a row
	// lock, and applies the update's Withhold in the same transaction: update receives the
	// slot as stored and returns the change; an error from update aborts.
	UpdateBroadcastSettings(ctx context.Context, id int64, update func(current ManagedStream) (SettingsUpdate, error)) (ManagedStream, error)

	// StartLiveStream makes the slot live. If it is already live, the current live stream is
	// returned with started=false.
	StartLiveStream(ctx context.Context, managedStreamID int64, at time.Time) (ls LiveStream, started bool, err error)
	// EndLiveStream ends the slot's live stream; ErrNotFound when it is not live.
	EndLiveStream(ctx context.Context, managedStreamID int64, at time.Time) (LiveStream, error)
	// LiveStreamByID returns a live stream, ended or not; ErrNotFound when there is none.
	LiveStreamByID(ctx context.Context, id int64) (LiveStream, error)

	// UpsertVibeSession creates the (slot, session_key) session or refreshes it: publisher,
	// live stream, status active, last_seen_at, ended_at cleared.
	UpsertVibeSession(ctx context.Context, s VibeSession) (VibeSession, error)
	VibeSessionByKey(ctx context.Context, managedStreamID int64, sessionKey string) (VibeSession, error)
	LatestVibeSession(ctx context.Context, managedStreamID int64) (VibeSession, error) // by last_seen_at
	EndVibeSession(ctx context.Context, sessionID int64, at time.Time) error
	// EndIdleVibeSessions ends active sessions last seen before idleSince; returns how many.
	EndIdleVibeSessions(ctx context.Context, idleSince, at time.Time) (int64, error)

	// InsertVibeEvents stores a batch atomically (see the package doc) and bumps each
	// session's last_event_at and last_seen_at. Results are in input order. The batch may mix slots.
	InsertVibeEvents(ctx context.Context, events []NewVibeEvent) ([]InsertedVibeEvent, error)
	VibeEventByEventID(ctx context.Context, managedStreamID int64, eventID string) (VibeEvent, error)
	// VibeEventsAfter returns up to limit events with seq > afterSeq, oldest first, all of
	// them (withheld and retracted included; consumers filter).
	VibeEventsAfter(ctx context.Context, managedStreamID, afterSeq int64, limit int) ([]VibeEvent, error)
	// VibeEventsBefore returns up to limit events with seq < beforeSeq (0: from the newest),
	// newest first, all of them: the owner's history.
	VibeEventsBefore(ctx context.Context, managedStreamID, beforeSeq int64, limit int) ([]VibeEvent, error)
	// VibeFeed returns the events viewers may see (see FeedQuery), newest first.
	VibeFeed(ctx context.Context, q FeedQuery) ([]VibeEvent, error)
	// RetractVibeEvent marks the event retracted (idempotent: a second call keeps the first
	// time and author) and returns it.
	RetractVibeEvent(ctx context.Context, managedStreamID int64, eventID string, by int64, at time.Time) (VibeEvent, error)
	// WithholdVibeEvents marks the events w selects withheld, so none of them is ever shown to
	// viewers (the panic button; events that came due while the slot was paused); returns how
	// many changed. Idempotent: an event already withheld is left as it is.
	WithholdVibeEvents(ctx context.Context, w Withhold) (int64, error)
	// MarkVibeEventsDelivered records the first delivery time of the given events (kept if
	// already set).
	MarkVibeEventsDelivered(ctx context.Context, managedStreamID int64, seqs []int64, at time.Time) error
	// PruneVibeEvents deletes events received before `before`; returns how many.
	PruneVibeEvents(ctx context.Context, before time.Time) (int64, error)

	InsertChatMessage(ctx context.Context, m ChatMessage) (ChatMessage, error)
	// RecentChatMessages returns the slot's newest limit messages, oldest first, with Username.
	RecentChatMessages(ctx context.Context, managedStreamID int64, limit int) ([]ChatMessage, error)
}
