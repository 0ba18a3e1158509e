package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"openvibe.live/backend/shared/store"
)

// InsertChatMessage stores m (CreatedAt defaults to now) and returns it with ID and Username.
func (s *Store) InsertChatMessage(ctx context.Context, m store.ChatMessage) (store.ChatMessage, error) {
	m.CreatedAt = s.orNow(m.CreatedAt)
	err := s.pool.QueryRow(ctx, `
		INSERT INTO chat_messages (managed_stream_id, user_id, body, created_at) VALUES ($1, $2, $3, $4)
		RETURNING id, (SELECT username FROM users WHERE id = chat_messages.user_id)`,
		m.ManagedStreamID, m.UserID, m.Text, m.CreatedAt).Scan(&m.ID, &m.Username)
	if err != nil {
		return store.ChatMessage{}, mapErr(err, "insert chat message")
	}
	return m, nil
}

func scanChat(row pgx.Row) (store.ChatMessage, error) {
	var m store.ChatMessage
	if err := row.Scan(&m.ID, &m.ManagedStreamID, &m.UserID, &m.Username, &m.Text, &m.CreatedAt); err != nil {
		return store.ChatMessage{}, err
	}
	utc(&m.CreatedAt)
	return m, nil
}

func (s *Store) RecentChatMessages(ctx context.Context, managedStreamID int64, limit int) ([]store.ChatMessage, error) {
	if limit <= 0 {
		return []store.ChatMessage{}, nil
	}
	rows, err := s.pool.Query(ctx, `
		SELECT id, managed_stream_id, user_id, username, body, created_at FROM (
			SELECT c.id, c.managed_stream_id, c.user_id, u.username, c.body, c.created_at
			FROM chat_messages c JOIN users u ON u.id = c.user_id
			WHERE c.managed_stream_id = $1 ORDER BY c.id DESC LIMIT $2
		) recent ORDER BY id`, managedStreamID, limit)
	return collect(rows, err, scanChat, "recent chat messages")
}
