package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

// GetTodos implements store.Store.
func (s *Store) GetTodos(ctx context.Context, sessionID string) ([]store.Todo, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, s.sql(`SELECT data FROM {todos} WHERE session_id = $1`), sessionID).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return []store.Todo{}, nil
	}
	if err != nil {
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
	return s.setTodos(ctx, s.db, sessionID, todos)
}

func (s *Store) setTodos(ctx context.Context, q querier, sessionID string, todos []store.Todo) error {
	data, err := json.Marshal(todos)
	if err != nil {
		return fmt.Errorf("encode todos: %w", err)
	}
	_, err = q.ExecContext(ctx, s.sql(`INSERT INTO {todos} (session_id, data) VALUES ($1, $2)
		ON CONFLICT (session_id) DO UPDATE SET data = excluded.data`), sessionID, string(data))
	if err != nil {
		return fmt.Errorf("set todos: %w", err)
	}
	return nil
}
