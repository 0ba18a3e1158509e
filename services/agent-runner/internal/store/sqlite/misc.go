package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

// GetTodos implements store.Store.
func (s *Store) GetTodos(ctx context.Context, sessionID string) ([]store.Todo, error) {
	var data string
	err := s.db.QueryRowContext(ctx, `SELECT data FROM todos WHERE session_id = ?`, sessionID).Scan(&data)
	if err != nil {
		if err := notFound(err, "get todos"); store.IsNotFound(err) {
			return []store.Todo{}, nil
		}
		return nil, fmt.Errorf("get todos: %w", err)
	}
	todos := []store.Todo{}
	if err := json.Unmarshal([]byte(data), &todos); err != nil {
		return nil, fmt.Errorf("decode todos: %w", err)
	}
	return todos, nil
}

// SetTodos implements store.Store.
func (s *Store) SetTodos(ctx context.Context, sessionID string, todos []store.Todo) error {
	data, err := json.Marshal(todos)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO todos (session_id, data) VALUES (?, ?)
		ON CONFLICT (session_id) DO UPDATE SET data = excluded.data`, sessionID, string(data))
	if err != nil {
		return fmt.Errorf("set todos: %w", err)
	}
	return nil
}

// AddRule implements store.Store.
func (s *Store) AddRule(ctx context.Context, r store.SavedRule) (store.SavedRule, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO permission_rules (project_id, owner_id, agent, tool, pattern, action, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, r.ProjectID, r.OwnerID, r.Agent, r.Tool, r.Pattern, r.Action, ms(r.Created))
	if err != nil {
		return r, fmt.Errorf("add rule: %w", err)
	}
	r.ID, err = res.LastInsertId()
	if err != nil {
		return r, fmt.Errorf("add rule: %w", err)
	}
	r.Created = fromMS(ms(r.Created))
	return r, nil
}

// ListRules implements store.Store: newest first, so a later decision shadows an older one.
func (s *Store) ListRules(ctx context.Context, f store.RuleFilter) ([]store.SavedRule, error) {
	q := `SELECT id, project_id, owner_id, agent, tool, pattern, action, created_at FROM permission_rules WHERE owner_id = ?`
	args := []any{f.OwnerID}
	if f.ProjectID != "" {
		q += ` AND project_id = ?`
		args = append(args, f.ProjectID)
	}
	if f.Agent != "" {
		q += ` AND agent = ?`
		args = append(args, f.Agent)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("list rules: %w", err)
	}
	defer rows.Close()
	out := []store.SavedRule{}
	for rows.Next() {
		var r store.SavedRule
		var created int64
		if err := rows.Scan(&r.ID, &r.ProjectID, &r.OwnerID, &r.Agent, &r.Tool, &r.Pattern, &r.Action, &created); err != nil {
			return nil, fmt.Errorf("list rules: %w", err)
		}
		r.Created = fromMS(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteRule implements store.Store.
func (s *Store) DeleteRule(ctx context.Context, ownerID, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM permission_rules WHERE id = ? AND owner_id = ?`, id, ownerID)
	if err != nil {
		return fmt.Errorf("delete rule: %w", err)
	}
	return affected(res, "delete rule")
}

// PutPendingRequest implements store.Store.
func (s *Store) PutPendingRequest(ctx context.Context, r store.PendingRequest) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO permission_requests (id, session_id, owner_id, data, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
		r.ID, r.SessionID, r.OwnerID, string(r.Data), ms(r.Created))
	if err != nil {
		return fmt.Errorf("put permission request: %w", err)
	}
	return nil
}

// DeletePendingRequest implements store.Store.
func (s *Store) DeletePendingRequest(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM permission_requests WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete permission request: %w", err)
	}
	return affected(res, "delete permission request")
}

// ListPendingRequests implements store.Store, oldest first.
func (s *Store) ListPendingRequests(ctx context.Context) ([]store.PendingRequest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, session_id, owner_id, data, created_at FROM permission_requests ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("list permission requests: %w", err)
	}
	defer rows.Close()
	var out []store.PendingRequest
	for rows.Next() {
		var r store.PendingRequest
		var data string
		var created int64
		if err := rows.Scan(&r.ID, &r.SessionID, &r.OwnerID, &data, &created); err != nil {
			return nil, fmt.Errorf("list permission requests: %w", err)
		}
		r.Data, r.Created = json.RawMessage(data), fromMS(created)
		out = append(out, r)
	}
	return out, rows.Err()
}
