package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// UpsertProject implements store.Store.
func (s *Store) UpsertProject(ctx context.Context, p store.Project) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO projects (id, worktree, vcs, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET worktree = excluded.worktree, vcs = excluded.vcs`,
		p.ID, p.Worktree, p.VCS, ms(p.Created))
	if err != nil {
		return fmt.Errorf("upsert project: %w", err)
	}
	return nil
}

// GetProject implements store.Store.
func (s *Store) GetProject(ctx context.Context, id string) (store.Project, error) {
	var p store.Project
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT id, worktree, vcs, created_at FROM projects WHERE id = ?`, id).
		Scan(&p.ID, &p.Worktree, &p.VCS, &created)
	if err != nil {
		return p, notFound(err, "get project")
	}
	p.Created = fromMS(created)
	return p, nil
}

const sessionCols = `id, project_id, owner_id, parent_id, title, directory, agent, usage, created_at, updated_at`

func insertSession(ctx context.Context, q querier, ss store.Session) error {
	usage, err := json.Marshal(ss.Usage)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO sessions (`+sessionCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ss.ID, ss.ProjectID, ss.OwnerID, ss.ParentID, ss.Title, ss.Directory, ss.Agent, string(usage),
		ms(ss.Created), ms(ss.Updated))
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
	var usage string
	var created, updated int64
	if err := sc.Scan(&ss.ID, &ss.ProjectID, &ss.OwnerID, &ss.ParentID, &ss.Title, &ss.Directory, &ss.Agent,
		&usage, &created, &updated); err != nil {
		return ss, err
	}
	if err := json.Unmarshal([]byte(usage), &ss.Usage); err != nil {
		return ss, fmt.Errorf("decode usage: %w", err)
	}
	ss.Created, ss.Updated = fromMS(created), fromMS(updated)
	return ss, nil
}

// GetSession implements store.Store.
func (s *Store) GetSession(ctx context.Context, id string) (store.Session, error) {
	ss, err := scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id))
	if err != nil {
		return ss, notFound(err, "get session")
	}
	return ss, nil
}

// ListSessions implements store.Store: most recently updated first.
func (s *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]store.Session, error) {
	q := `SELECT ` + sessionCols + ` FROM sessions WHERE owner_id = ?`
	args := []any{f.OwnerID}
	if f.ProjectID != "" {
		q += ` AND project_id = ?`
		args = append(args, f.ProjectID)
	}
	q += ` ORDER BY updated_at DESC, id DESC`
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
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

// UpdateSession implements store.Store (title, agent, usage and updated time).
func (s *Store) UpdateSession(ctx context.Context, ss store.Session) error {
	usage, err := json.Marshal(ss.Usage)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE sessions SET title = ?, agent = ?, usage = ?, updated_at = ? WHERE id = ?`,
		ss.Title, ss.Agent, string(usage), ms(ss.Updated), ss.ID)
	if err != nil {
		return fmt.Errorf("update session: %w", err)
	}
	return affected(res, "update session")
}

func affected(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return nil
}

// DeleteSession implements store.Store. Child sessions are deleted with their parent.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		ids := []string{id}
		for i := 0; i < len(ids); i++ {
			rows, err := tx.QueryContext(ctx, `SELECT id FROM sessions WHERE parent_id = ?`, ids[i])
			if err != nil {
				return err
			}
			for rows.Next() {
				var c string
				if err := rows.Scan(&c); err != nil {
					rows.Close()
					return err
				}
				ids = append(ids, c)
			}
			rows.Close()
		}
		for i := len(ids) - 1; i >= 0; i-- {
			res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, ids[i])
			if err != nil {
				return fmt.Errorf("delete session: %w", err)
			}
			if i == 0 {
				if err := affected(res, "delete session"); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
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
	_, err = q.ExecContext(ctx, `INSERT INTO messages (id, session_id, seq, data)
		VALUES (?, ?, COALESCE((SELECT MAX(seq) FROM messages WHERE session_id = ?), 0) + 1, ?)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`, m.ID, m.SessionID, m.SessionID, string(data))
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
	_, err = q.ExecContext(ctx, `INSERT INTO parts (id, message_id, session_id, seq, data)
		VALUES (?, ?, ?, COALESCE((SELECT MAX(seq) FROM parts WHERE message_id = ?), 0) + 1, ?)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
		meta.ID, meta.MessageID, meta.SessionID, meta.MessageID, string(data))
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
	rows, err := q.QueryContext(ctx, `SELECT data FROM messages WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	var msgs []*message.Message
	byID := map[string]*message.Message{}
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list messages: %w", err)
		}
		m := &message.Message{}
		if err := json.NewDecoder(strings.NewReader(data)).Decode(m); err != nil {
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
	prows, err := q.QueryContext(ctx, `SELECT p.message_id, p.data FROM parts p JOIN messages m ON m.id = p.message_id
		WHERE p.session_id = ? ORDER BY m.seq, p.seq`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list parts: %w", err)
	}
	defer prows.Close()
	for prows.Next() {
		var mid, data string
		if err := prows.Scan(&mid, &data); err != nil {
			return nil, fmt.Errorf("list parts: %w", err)
		}
		p, err := message.DecodePart([]byte(data))
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
