package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// queuedData is what a queued prompt keeps beside its keys.
type queuedData struct {
	Text  string `json:"text"`
	Agent string `json:"agent,omitempty"`
	Model string `json:"model,omitempty"`
	Steer bool   `json:"steer,omitempty"`
}

// QueuePrompt implements store.Store: the prompt's seq is one past the session's last (or
// one before its first), so the queue runs in seq order.
func (s *Store) QueuePrompt(ctx context.Context, q store.QueuedPrompt, front bool) error {
	data, err := json.Marshal(queuedData{Text: q.Text, Agent: q.Agent, Model: q.Model, Steer: q.Steer})
	if err != nil {
		return fmt.Errorf("encode queued prompt: %w", err)
	}
	next := `SELECT COALESCE(MAX(seq), 0) + 1 FROM {queued_prompts} WHERE session_id = $1`
	if front {
		next = `SELECT COALESCE(MIN(seq), 0) - 1 FROM {queued_prompts} WHERE session_id = $1`
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var seq int64
		if err := tx.QueryRowContext(ctx, s.sql(next), q.SessionID).Scan(&seq); err != nil {
			return fmt.Errorf("queue prompt: %w", err)
		}
		_, err := tx.ExecContext(ctx, s.sql(`INSERT INTO {queued_prompts} (id, session_id, owner_id, seq, data, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`), q.ID, q.SessionID, q.OwnerID, seq, string(data), s.timeArg(q.Created))
		if err != nil {
			return fmt.Errorf("queue prompt: %w", err)
		}
		return nil
	})
}

// ListQueued implements store.Store.
func (s *Store) ListQueued(ctx context.Context, sessionID string) ([]store.QueuedPrompt, error) {
	rows, err := s.db.QueryContext(ctx, s.sql(`SELECT id, session_id, owner_id, data, created_at FROM {queued_prompts}
		WHERE $1 = '' OR session_id = $1 ORDER BY session_id, seq, created_at, id`), sessionID)
	if err != nil {
		return nil, fmt.Errorf("list queued prompts: %w", err)
	}
	defer rows.Close()
	out := []store.QueuedPrompt{}
	for rows.Next() {
		var q store.QueuedPrompt
		var data []byte
		if err := rows.Scan(&q.ID, &q.SessionID, &q.OwnerID, &data, timeDest{&q.Created}); err != nil {
			return nil, fmt.Errorf("list queued prompts: %w", err)
		}
		var d queuedData
		if err := json.Unmarshal(data, &d); err != nil {
			return nil, fmt.Errorf("decode queued prompt: %w", err)
		}
		q.Text, q.Agent, q.Model, q.Steer = d.Text, d.Agent, d.Model, d.Steer
		q.Created = q.Created.Truncate(time.Millisecond)
		out = append(out, q)
	}
	return out, rows.Err()
}

// DeleteQueued implements store.Store.
func (s *Store) DeleteQueued(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, s.sql(`DELETE FROM {queued_prompts} WHERE id = $1`), id)
	if err != nil {
		return fmt.Errorf("delete queued prompt: %w", err)
	}
	return affected(res, "delete queued prompt")
}

// ListUsage implements store.Store. The usage is read from the messages' JSON.
func (s *Store) ListUsage(ctx context.Context, ownerID int64) ([]store.UsageRecord, error) {
	rows, err := s.db.QueryContext(ctx, s.sql(`SELECT m.session_id, ss.project_id, m.data FROM {messages} m
		JOIN {sessions} ss ON ss.id = m.session_id WHERE ss.owner_id = $1 ORDER BY m.session_id, m.seq`), ownerID)
	if err != nil {
		return nil, fmt.Errorf("list usage: %w", err)
	}
	defer rows.Close()
	out := []store.UsageRecord{}
	for rows.Next() {
		var r store.UsageRecord
		var data []byte
		if err := rows.Scan(&r.SessionID, &r.ProjectID, &data); err != nil {
			return nil, fmt.Errorf("list usage: %w", err)
		}
		var m message.Message
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("decode message: %w", err)
		}
		if m.Role != message.RoleAssistant {
			continue
		}
		r.Model, r.Created, r.Usage = m.Model, m.Created.UTC(), m.Usage
		out = append(out, r)
	}
	return out, rows.Err()
}
