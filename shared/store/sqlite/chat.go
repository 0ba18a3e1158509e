package sqlite

import (
	"context"

	"openvibe.live/backend/shared/store"
)

// InsertChatMessage stores m (CreatedAt defaults to now) and returns it with ID and Username.
func (s *Store) InsertChatMessage(ctx context.Context, m store.ChatMessage) (store.ChatMessage, error) {
	m.CreatedAt = s.orNow(m.CreatedAt)
	err := s.w.QueryRowContext(ctx, `
		INSERT INTO chat_messages (managed_stream_id, user_id, body, created_at) VALUES (?, ?, ?, ?)
		RETURNING id, (SELECT username FROM users WHERE id = chat_messages.user_id)`,
		m.ManagedStreamID, m.UserID, m.Text, micros(m.CreatedAt)).Scan(&m.ID, &m.Username)
	if err != nil {
		return store.ChatMessage{}, mapErr(err, "insert chat message")
	}
	return m, nil
}

func scanChat(row interface{ Scan(...any) error }) (store.ChatMessage, error) {
	var m store.ChatMessage
	var created int64
	if err := row.Scan(&m.ID, &m.ManagedStreamID, &m.UserID, &m.Username, &m.Text, &created); err != nil {
		return store.ChatMessage{}, err
	}
	m.CreatedAt = fromMicros(created)
	return m, nil
}

func (s *Store) RecentChatMessages(ctx context.Context, managedStreamID int64, limit int) ([]store.ChatMessage, error) {
	if limit <= 0 {
		return []store.ChatMessage{}, nil
	}
	rows, err := s.r.QueryContext(ctx, `
		SELECT id, managed_stream_id, user_id, username, body, created_at FROM (
			SELECT c.id, c.managed_stream_id, c.user_id, u.username, c.body, c.created_at
			FROM chat_messages c JOIN users u ON u.id = c.user_id
			WHERE c.managed_stream_id = ? ORDER BY c.id DESC LIMIT ?
		) ORDER BY id`, managedStreamID, limit)
	if err != nil {
		return nil, mapErr(err, "recent chat messages")
	}
	return collect(rows, scanChat, "recent chat messages")
}
