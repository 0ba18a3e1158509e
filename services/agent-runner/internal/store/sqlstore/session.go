package sqlstore

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

// UpsertProject implements store.Store.
func (s *Store) UpsertProject(ctx context.Context, p store.Project) error {
	_, err := s.db.ExecContext(ctx, s.sql(`INSERT INTO {projects} (id, worktree, vcs, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET worktree = excluded.worktree, vcs = excluded.vcs`),
		p.ID, p.Worktree, p.VCS, s.timeArg(p.Created))
	if err != nil {
		return fmt.Errorf("upsert project: %w", err)
	}
	return nil
}

// GetProject implements store.Store.
func (s *Store) GetProject(ctx context.Context, id string) (store.Project, error) {
	var p store.Project
	err := s.db.QueryRowContext(ctx, s.sql(`SELECT id, worktree, vcs, created_at FROM {projects} WHERE id = $1`), id).
		Scan(&p.ID, &p.Worktree, &p.VCS, timeDest{&p.Created})
	if err != nil {
		return p, notFound(err, "get project")
	}
	return p, nil
}

const sessionCols = `id, project_id, owner_id, parent_id, title, directory, agent, usage, created_at, updated_at`

func (s *Store) insertSession(ctx context.Context, q querier, ss store.Session) error {
	usage, err := json.Marshal(ss.Usage)
	if err != nil {
		return fmt.Errorf("encode usage: %w", err)
	}
	_, err = q.ExecContext(ctx, s.sql(`INSERT INTO {sessions} (`+sessionCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`),
		ss.ID, ss.ProjectID, ss.OwnerID, ss.ParentID, ss.Title, ss.Directory, ss.Agent, string(usage),
		s.timeArg(ss.Created), s.timeArg(ss.Updated))
	if err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

// CreateSession implements store.Store.
func (s *Store) CreateSession(ctx context.Context, ss store.Session) error {
	return s.insertSession(ctx, s.db, ss)
}

// scanSession scans the sessionCols of a row. Its times are in UTC, to the millisecond.
func scanSession(sc interface{ Scan(...any) error }) (store.Session, error) {
	var ss store.Session
	var usage []byte
	if err := sc.Scan(&ss.ID, &ss.ProjectID, &ss.OwnerID, &ss.ParentID, &ss.Title, &ss.Directory, &ss.Agent,
		&usage, timeDest{&ss.Created}, timeDest{&ss.Updated}); err != nil {
		return ss, err
	}
	if err := json.Unmarshal(usage, &ss.Usage); err != nil {
		return ss, fmt.Errorf("decode usage: %w", err)
	}
	ss.Created, ss.Updated = ss.Created.Truncate(time.Millisecond), ss.Updated.Truncate(time.Millisecond)
	return ss, nil
}

// GetSession implements store.Store.
func (s *Store) GetSession(ctx context.Context, id string) (store.Session, error) {
	ss, err := scanSession(s.db.QueryRowContext(ctx, s.sql(`SELECT `+sessionCols+` FROM {sessions} WHERE id = $1`), id))
	if err != nil {
		return ss, notFound(err, "get session")
	}
	return ss, nil
}

// ListSessions implements store.Store: most recently updated first.
func (s *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]store.Session, error) {
	q := `SELECT ` + sessionCols + ` FROM {sessions} WHERE owner_id = $1 AND ($2 = '' OR project_id = $2)
		ORDER BY updated_at DESC, id DESC`
	args := []any{f.OwnerID, f.ProjectID}
	if f.Limit > 0 {
		q += ` LIMIT $3`
		args = append(args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, s.sql(q), args...)
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
		return fmt.Errorf("encode usage: %w", err)
	}
	res, err := s.db.ExecContext(ctx, s.sql(`UPDATE {sessions} SET title = $1, agent = $2, usage = $3, updated_at = $4 WHERE id = $5`),
		ss.Title, ss.Agent, string(usage), s.timeArg(ss.Updated), ss.ID)
	if err != nil {
		return fmt.Errorf("update session: %w", err)
	}
	return affected(res, "update session")
}

// DeleteSession implements store.Store. Child sessions are deleted with their parent; the
// schema's foreign keys delete the sessions' messages, parts, todos and pending requests.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, s.sql(`WITH RECURSIVE tree(id) AS (
			SELECT id FROM {sessions} WHERE id = $1
			UNION SELECT c.id FROM {sessions} c JOIN tree t ON c.parent_id = t.id)
		DELETE FROM {sessions} WHERE id IN (SELECT id FROM tree)`), id)
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return affected(res, "delete session")
}

// ForkSession implements store.Store.
func (s *Store) ForkSession(ctx context.Context, src, through string, dst store.Session, newID func(string) string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		msgs, err := s.listMessages(ctx, tx, src)
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
		for _, m := range msgs {
			m.ID, m.SessionID = newID("msg"), dst.ID
			for _, p := range m.Parts {
				meta := p.Meta()
				meta.ID, meta.MessageID, meta.SessionID = newID("prt"), m.ID, dst.ID
			}
		}
		return s.insertHistory(ctx, tx, dst, msgs)
	})
}

// ImportSession implements store.Store.
func (s *Store) ImportSession(ctx context.Context, dst store.Session, msgs []*message.Message, todos []store.Todo) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		// The writes below are upserts: an ID that exists would change another session.
		for _, m := range msgs {
			if err := s.absent(ctx, tx, "messages", m.ID); err != nil {
				return err
			}
			for _, p := range m.Parts {
				if err := s.absent(ctx, tx, "parts", p.Meta().ID); err != nil {
					return err
				}
			}
		}
		if err := s.insertHistory(ctx, tx, dst, msgs); err != nil {
			return err
		}
		if len(todos) == 0 {
			return nil
		}
		return s.setTodos(ctx, tx, dst.ID, todos)
	})
}

// absent fails when table holds a row with id.
func (s *Store) absent(ctx context.Context, q querier, table, id string) error {
	var n int
	if err := q.QueryRowContext(ctx, s.sql(`SELECT COUNT(*) FROM {`+table+`} WHERE id = $1`), id).Scan(&n); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("import: %s %s already exists", strings.TrimSuffix(table, "s"), id)
	}
	return nil
}

// insertHistory creates dst and stores msgs with their parts, in order.
func (s *Store) insertHistory(ctx context.Context, tx *sql.Tx, dst store.Session, msgs []*message.Message) error {
	if err := s.insertSession(ctx, tx, dst); err != nil {
		return err
	}
	for _, m := range msgs {
		if err := s.putMessage(ctx, tx, m); err != nil {
			return err
		}
		for _, p := range m.Parts {
			if err := s.putPart(ctx, tx, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// PutMessage implements store.Store.
func (s *Store) PutMessage(ctx context.Context, m *message.Message) error {
	return s.putMessage(ctx, s.db, m)
}

func (s *Store) putMessage(ctx context.Context, q querier, m *message.Message) error {
	parts := m.Parts
	m.Parts = nil
	data, err := json.Marshal(m)
	m.Parts = parts
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	if _, err := q.ExecContext(ctx, s.d.PutMessage, m.ID, m.SessionID, string(data)); err != nil {
		return fmt.Errorf("put message: %w", err)
	}
	return nil
}

// PutPart implements store.Store.
func (s *Store) PutPart(ctx context.Context, p message.Part) error { return s.putPart(ctx, s.db, p) }

func (s *Store) putPart(ctx context.Context, q querier, p message.Part) error {
	meta := p.Meta()
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode part: %w", err)
	}
	if _, err := q.ExecContext(ctx, s.d.PutPart, meta.ID, meta.MessageID, meta.SessionID, string(data)); err != nil {
		return fmt.Errorf("put part: %w", err)
	}
	return nil
}

// ListMessages implements store.Store.
func (s *Store) ListMessages(ctx context.Context, sessionID string) ([]*message.Message, error) {
	return s.listMessages(ctx, s.db, sessionID)
}

func (s *Store) listMessages(ctx context.Context, q querier, sessionID string) ([]*message.Message, error) {
	rows, err := q.QueryContext(ctx, s.sql(`SELECT data FROM {messages} WHERE session_id = $1 ORDER BY seq`), sessionID)
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
		return nil, fmt.Errorf("list messages: %w", err)
	}
	// seq orders the parts within each message, which is all that grouping them needs.
	prows, err := q.QueryContext(ctx, s.sql(`SELECT message_id, data FROM {parts} WHERE session_id = $1 ORDER BY seq`), sessionID)
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
