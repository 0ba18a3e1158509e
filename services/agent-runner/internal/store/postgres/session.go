package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// UpsertProject implements store.Store.
func (s *Store) UpsertProject(ctx context.Context, p store.Project) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO agent_projects (id, worktree, vcs, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET worktree = excluded.worktree, vcs = excluded.vcs`, p.ID, p.Worktree, p.VCS, p.Created.UTC())
	if err != nil {
		return fmt.Errorf("upsert project: %w", err)
	}
	return nil
}

// GetProject implements store.Store.
func (s *Store) GetProject(ctx context.Context, id string) (store.Project, error) {
	var p store.Project
	err := s.db.QueryRowContext(ctx, `SELECT id, worktree, vcs, created_at FROM agent_projects WHERE id = $1`, id).
		Scan(&p.ID, &p.Worktree, &p.VCS, &p.Created)
	if err != nil {
		return p, notFound(err, "get project")
	}
	p.Created = p.Created.UTC()
	return p, nil
}

const sessionCols = `id, project_id, owner_id, parent_id, title, directory, agent, usage, created_at, updated_at`

func insertSession(ctx context.Context, q querier, ss store.Session) error {
	usage, err := json.Marshal(ss.Usage)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO agent_sessions (`+sessionCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		ss.ID, ss.ProjectID, ss.OwnerID, ss.ParentID, ss.Title, ss.Directory, ss.Agent, usage, ss.Created.UTC(), ss.Updated.UTC())
	if err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

// CreateSession implements store.Store.
func (s *Store) CreateSession(ctx context.Context, ss store.Session) error {
	return insertSession(ctx, s.db, ss)
}

func scanSession(sc interface{ Scan(...any) error }) (store.Session, error) {
	var ss store.Session
	var usage []byte
	if err := sc.Scan(&ss.ID, &ss.ProjectID, &ss.OwnerID, &ss.ParentID, &ss.Title, &ss.Directory, &ss.Agent,
		&usage, &ss.Created, &ss.Updated); err != nil {
		return ss, err
	}
	if err := json.Unmarshal(usage, &ss.Usage); err != nil {
		return ss, fmt.Errorf("decode usage: %w", err)
	}
	ss.Created, ss.Updated = ss.Created.UTC().Truncate(time.Millisecond), ss.Updated.UTC().Truncate(time.Millisecond)
	return ss, nil
}

// GetSession implements store.Store.
func (s *Store) GetSession(ctx context.Context, id string) (store.Session, error) {
	ss, err := scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM agent_sessions WHERE id = $1`, id))
	if err != nil {
		return ss, notFound(err, "get session")
	}
	return ss, nil
}

// ListSessions implements store.Store.
func (s *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]store.Session, error) {
	q := `SELECT ` + sessionCols + ` FROM agent_sessions WHERE owner_id = $1 AND ($2 = '' OR project_id = $2)
		ORDER BY updated_at DESC, id DESC`
	args := []any{f.OwnerID, f.ProjectID}
	if f.Limit > 0 {
		q += ` LIMIT $3`
		args = append(args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []store.Session{}
	for rows.Next() {
		ss, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, ss)
	}
	return out, rows.Err()
}

// UpdateSession implements store.Store.
func (s *Store) UpdateSession(ctx context.Context, ss store.Session) error {
	usage, err := json.Marshal(ss.Usage)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE agent_sessions SET title = $1, agent = $2, usage = $3, updated_at = $4 WHERE id = $5`,
		ss.Title, ss.Agent, usage, ss.Updated.UTC(), ss.ID)
	if err != nil {
		return fmt.Errorf("update session: %w", err)
	}
	return affected(res, "update session")
}

// DeleteSession implements store.Store, children included.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `WITH RECURSIVE tree(id) AS (
			SELECT id FROM agent_sessions WHERE id = $1
			UNION ALL SELECT c.id FROM agent_sessions c JOIN tree t ON c.parent_id = t.id)
		DELETE FROM agent_sessions WHERE id IN (SELECT id FROM tree)`, id)
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return affected(res, "delete session")
}

// ForkSession implements store.Store.
func (s *Store) ForkSession(ctx context.Context, src, through string, dst store.Session, newID func(string) string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		msgs, err := listMessages(ctx, tx, src)
		if err != nil {
			return err
		}
		if through != "" {
			cut := -1
			for i, m := range msgs {
				if m.ID == through {
					cut = i
				}
			}
			if cut < 0 {
				return fmt.Errorf("fork: message %s: %w", through, store.ErrNotFound)
			}
			msgs = msgs[:cut+1]
		}
		if err := insertSession(ctx, tx, dst); err != nil {
			return err
		}
		for _, m := range msgs {
			m.ID, m.SessionID = newID("msg"), dst.ID
			if err := putMessage(ctx, tx, m); err != nil {
				return err
			}
			for _, p := range m.Parts {
				meta := p.Meta()
				meta.ID, meta.MessageID, meta.SessionID = newID("prt"), m.ID, dst.ID
				if err := putPart(ctx, tx, p); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// PutMessage implements store.Store.
func (s *Store) PutMessage(ctx context.Context, m *message.Message) error {
	return putMessage(ctx, s.db, m)
}

func putMessage(ctx context.Context, q querier, m *message.Message) error {
	parts := m.Parts
	m.Parts = nil
	data, err := json.Marshal(m)
	m.Parts = parts
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO agent_messages (id, session_id, data) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`, m.ID, m.SessionID, data)
	if err != nil {
		return fmt.Errorf("put message: %w", err)
	}
	return nil
}

// PutPart implements store.Store.
func (s *Store) PutPart(ctx context.Context, p message.Part) error { return putPart(ctx, s.db, p) }

func putPart(ctx context.Context, q querier, p message.Part) error {
	meta := p.Meta()
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode part: %w", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO agent_parts (id, message_id, session_id, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`, meta.ID, meta.MessageID, meta.SessionID, data)
	if err != nil {
		return fmt.Errorf("put part: %w", err)
	}
	return nil
}

// ListMessages implements store.Store.
func (s *Store) ListMessages(ctx context.Context, sessionID string) ([]*message.Message, error) {
	return listMessages(ctx, s.db, sessionID)
}

func listMessages(ctx context.Context, q querier, sessionID string) ([]*message.Message, error) {
	rows, err := q.QueryContext(ctx, `SELECT data FROM agent_messages WHERE session_id = $1 ORDER BY seq`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	var msgs []*message.Message
	byID := map[string]*message.Message{}
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list messages: %w", err)
		}
		m := &message.Message{}
		if err := json.Unmarshal(data, m); err != nil {
			rows.Close()
			return nil, fmt.Errorf("decode message: %w", err)
		}
		msgs = append(msgs, m)
		byID[m.ID] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	prows, err := q.QueryContext(ctx, `SELECT message_id, data FROM agent_parts WHERE session_id = $1 ORDER BY seq`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list parts: %w", err)
	}
	defer prows.Close()
	for prows.Next() {
		var mid string
		var data []byte
		if err := prows.Scan(&mid, &data); err != nil {
			return nil, fmt.Errorf("list parts: %w", err)
		}
		p, err := message.DecodePart(data)
		if err != nil {
			return nil, err
		}
		if m := byID[mid]; m != nil {
			m.Parts = append(m.Parts, p)
		}
	}
	for _, m := range msgs {
		if m.Parts == nil {
			m.Parts = []message.Part{}
		}
	}
	return msgs, prows.Err()
}
