package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

// GetTodos implements store.Store.
func (s *Store) GetTodos(ctx context.Context, sessionID string) ([]store.Todo, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM agent_todos WHERE session_id = $1`, sessionID).Scan(&data)
	if err != nil {
		if store.IsNotFound(notFound(err, "get todos")) {
			return []store.Todo{}, nil
		}
		return nil, fmt.Errorf("get todos: %w", err)
	}
	todos := []store.Todo{}
	if err := json.Unmarshal(data, &todos); err != nil {
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
	_, err = s.db.ExecContext(ctx, `INSERT INTO agent_todos (session_id, data) VALUES ($1, $2)
		ON CONFLICT (session_id) DO UPDATE SET data = excluded.data`, sessionID, data)
	if err != nil {
		return fmt.Errorf("set todos: %w", err)
	}
	return nil
}

// AddRule implements store.Store.
func (s *Store) AddRule(ctx context.Context, r store.SavedRule) (store.SavedRule, error) {
	r.Created = r.Created.UTC()
	err := s.db.QueryRowContext(ctx, `INSERT INTO agent_permission_rules (project_id, owner_id, agent, tool, pattern, action, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, r.ProjectID, r.OwnerID, r.Agent, r.Tool, r.Pattern, r.Action, r.Created).Scan(&r.ID)
	if err != nil {
		return r, fmt.Errorf("add rule: %w", err)
	}
	return r, nil
}

// ListRules implements store.Store, newest first.
func (s *Store) ListRules(ctx context.Context, f store.RuleFilter) ([]store.SavedRule, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, project_id, owner_id, agent, tool, pattern, action, created_at
		FROM agent_permission_rules WHERE owner_id = $1 AND ($2 = '' OR project_id = $2) AND ($3 = '' OR agent = $3)
		ORDER BY id DESC`, f.OwnerID, f.ProjectID, f.Agent)
	if err != nil {
		return nil, fmt.Errorf("list rules: %w", err)
	}
	defer rows.Close()
	out := []store.SavedRule{}
	for rows.Next() {
		var r store.SavedRule
		if err := rows.Scan(&r.ID, &r.ProjectID, &r.OwnerID, &r.Agent, &r.Tool, &r.Pattern, &r.Action, &r.Created); err != nil {
			return nil, fmt.Errorf("list rules: %w", err)
		}
		r.Created = r.Created.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteRule implements store.Store.
func (s *Store) DeleteRule(ctx context.Context, ownerID, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM agent_permission_rules WHERE id = $1 AND owner_id = $2`, id, ownerID)
	if err != nil {
		return fmt.Errorf("delete rule: %w", err)
	}
	return affected(res, "delete rule")
}

// PutPendingRequest implements store.Store.
func (s *Store) PutPendingRequest(ctx context.Context, r store.PendingRequest) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO agent_permission_requests (id, session_id, owner_id, data, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
		r.ID, r.SessionID, r.OwnerID, []byte(r.Data), r.Created.UTC())
	if err != nil {
		return fmt.Errorf("put permission request: %w", err)
	}
	return nil
}

// DeletePendingRequest implements store.Store.
func (s *Store) DeletePendingRequest(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM agent_permission_requests WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete permission request: %w", err)
	}
	return affected(res, "delete permission request")
}

// ListPendingRequests implements store.Store, oldest first.
func (s *Store) ListPendingRequests(ctx context.Context) ([]store.PendingRequest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, session_id, owner_id, data, created_at FROM agent_permission_requests ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("list permission requests: %w", err)
	}
	defer rows.Close()
	var out []store.PendingRequest
	for rows.Next() {
		var r store.PendingRequest
		var data []byte
		if err := rows.Scan(&r.ID, &r.SessionID, &r.OwnerID, &data, &r.Created); err != nil {
			return nil, fmt.Errorf("list permission requests: %w", err)
		}
		r.Data, r.Created = json.RawMessage(data), r.Created.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
