package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

// AddRule implements store.Store. The rule returned is the one stored: with its ID, and
// its time as ListRules returns it.
func (s *Store) AddRule(ctx context.Context, r store.SavedRule) (store.SavedRule, error) {
	err := s.db.QueryRowContext(ctx, s.sql(`INSERT INTO {permission_rules} (project_id, owner_id, agent, tool, pattern, action, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, created_at`),
		r.ProjectID, r.OwnerID, r.Agent, r.Tool, r.Pattern, r.Action, s.timeArg(r.Created)).Scan(&r.ID, timeDest{&r.Created})
	if err != nil {
		return r, fmt.Errorf("add rule: %w", err)
	}
	return r, nil
}

// ListRules implements store.Store: newest first, so a later decision shadows an older one.
func (s *Store) ListRules(ctx context.Context, f store.RuleFilter) ([]store.SavedRule, error) {
	rows, err := s.db.QueryContext(ctx, s.sql(`SELECT id, project_id, owner_id, agent, tool, pattern, action, created_at
		FROM {permission_rules} WHERE owner_id = $1 AND ($2 = '' OR project_id = $2) AND ($3 = '' OR agent = $3)
		ORDER BY id DESC`), f.OwnerID, f.ProjectID, f.Agent)
	if err != nil {
		return nil, fmt.Errorf("list rules: %w", err)
	}
	defer rows.Close()
	out := []store.SavedRule{}
	for rows.Next() {
		var r store.SavedRule
		if err := rows.Scan(&r.ID, &r.ProjectID, &r.OwnerID, &r.Agent, &r.Tool, &r.Pattern, &r.Action, timeDest{&r.Created}); err != nil {
			return nil, fmt.Errorf("list rules: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteRule implements store.Store.
func (s *Store) DeleteRule(ctx context.Context, ownerID, id int64) error {
	res, err := s.db.ExecContext(ctx, s.sql(`DELETE FROM {permission_rules} WHERE id = $1 AND owner_id = $2`), id, ownerID)
	if err != nil {
		return fmt.Errorf("delete rule: %w", err)
	}
	return affected(res, "delete rule")
}

// PutPendingRequest implements store.Store. An update changes only the data.
func (s *Store) PutPendingRequest(ctx context.Context, r store.PendingRequest) error {
	_, err := s.db.ExecContext(ctx, s.sql(`INSERT INTO {permission_requests} (id, session_id, owner_id, data, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET data = excluded.data`),
		r.ID, r.SessionID, r.OwnerID, string(r.Data), s.timeArg(r.Created))
	if err != nil {
		return fmt.Errorf("put permission request: %w", err)
	}
	return nil
}

// DeletePendingRequest implements store.Store.
func (s *Store) DeletePendingRequest(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, s.sql(`DELETE FROM {permission_requests} WHERE id = $1`), id)
	if err != nil {
		return fmt.Errorf("delete permission request: %w", err)
	}
	return affected(res, "delete permission request")
}

// ListPendingRequests implements store.Store, oldest first.
func (s *Store) ListPendingRequests(ctx context.Context) ([]store.PendingRequest, error) {
	rows, err := s.db.QueryContext(ctx, s.sql(`SELECT id, session_id, owner_id, data, created_at FROM {permission_requests}
		ORDER BY created_at, id`))
	if err != nil {
		return nil, fmt.Errorf("list permission requests: %w", err)
	}
	defer rows.Close()
	var out []store.PendingRequest
	for rows.Next() {
		var r store.PendingRequest
		var data []byte
		if err := rows.Scan(&r.ID, &r.SessionID, &r.OwnerID, &data, timeDest{&r.Created}); err != nil {
			return nil, fmt.Errorf("list permission requests: %w", err)
		}
		r.Data = json.RawMessage(data)
		out = append(out, r)
	}
	return out, rows.Err()
}
