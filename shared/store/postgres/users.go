package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"openvibe.live/backend/shared/store"
)

func (s *Store) CreateUser(ctx context.Context, username, passwordHash string) (store.User, error) {
	u := store.User{Username: username, PasswordHash: passwordHash, CreatedAt: s.nowUTC()}
	err := s.pool.QueryRow(ctx,
		`INSERT INTO users (username, password_hash, created_at) VALUES ($1, $2, $3) RETURNING id`,
		username, passwordHash, u.CreatedAt).Scan(&u.ID)
	if err != nil {
		return store.User{}, mapErr(err, "create user")
	}
	return u, nil
}

const userCols = `id, username, password_hash, created_at`

func scanUser(row pgx.Row) (store.User, error) {
	var u store.User
	if err := row.Scan(&u.ID, &u.Username, &u.PasswordHash, &u.CreatedAt); err != nil {
		return store.User{}, err
	}
	utc(&u.CreatedAt)
	return u, nil
}

func (s *Store) UserByID(ctx context.Context, id int64) (store.User, error) {
	u, err := scanUser(s.pool.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = $1`, id))
	return u, mapErr(err, "user by id")
}

func (s *Store) UserByUsername(ctx context.Context, username string) (store.User, error) {
	u, err := scanUser(s.pool.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE lower(username) = lower($1)`, username))
	return u, mapErr(err, "user by username")
}

const tokenCols = `id, user_id, name, token_hash, hint, scopes, expires_at, last_used_at, revoked_at, created_at`

func scanToken(row pgx.Row) (store.APIToken, error) {
	var t store.APIToken
	if err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, &t.Hint, &t.Scopes,
		&t.ExpiresAt, &t.LastUsedAt, &t.RevokedAt, &t.CreatedAt); err != nil {
		return store.APIToken{}, err
	}
	if t.Scopes == nil {
		t.Scopes = []string{}
	}
	utc(&t.CreatedAt)
	utcPtr(&t.ExpiresAt, &t.LastUsedAt, &t.RevokedAt)
	return t, nil
}

func (s *Store) CreateAPIToken(ctx context.Context, t store.APIToken) (store.APIToken, error) {
	if t.Scopes == nil {
		t.Scopes = []string{}
	}
	t.CreatedAt = s.orNow(t.CreatedAt)
	t.ExpiresAt = truncPtr(t.ExpiresAt)
	t.LastUsedAt, t.RevokedAt = nil, nil
	err := s.pool.QueryRow(ctx, `
		INSERT INTO api_tokens (user_id, name, token_hash, hint, scopes, expires_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		t.UserID, t.Name, t.Hash, t.Hint, t.Scopes, t.ExpiresAt, t.CreatedAt).Scan(&t.ID)
	if err != nil {
		return store.APIToken{}, mapErr(err, "create api token")
	}
	return t, nil
}

func (s *Store) APITokenByHash(ctx context.Context, hash []byte) (store.APIToken, error) {
	t, err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenCols+` FROM api_tokens WHERE token_hash = $1`, hash))
	return t, mapErr(err, "api token by hash")
}

func (s *Store) ListAPITokens(ctx context.Context, userID int64) ([]store.APIToken, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+tokenCols+` FROM api_tokens WHERE user_id = $1 ORDER BY id DESC`, userID)
	return collect(rows, err, scanToken, "list api tokens")
}

func (s *Store) RevokeAPIToken(ctx context.Context, userID, tokenID int64, at time.Time) error {
	tag, err := s.pool.Exec(ctx,
		`UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL`,
		at, tokenID, userID)
	return affectedOne(tag, err, "revoke api token")
}

func (s *Store) TouchAPIToken(ctx context.Context, tokenID int64, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE id = $2`, at, tokenID)
	return affectedOne(tag, err, "touch api token")
}
