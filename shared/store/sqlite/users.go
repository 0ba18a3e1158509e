package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"openvibe.live/backend/shared/store"
)

func (s *Store) CreateUser(ctx context.Context, username, passwordHash string) (store.User, error) {
	u := store.User{Username: username, PasswordHash: passwordHash, CreatedAt: s.nowUTC()}
	err := s.w.QueryRowContext(ctx,
		`INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?) RETURNING id`,
		username, passwordHash, micros(u.CreatedAt)).Scan(&u.ID)
	if err != nil {
		return store.User{}, mapErr(err, "create user")
	}
	return u, nil
}

const userCols = `id, username, password_hash, created_at`

func scanUser(row interface{ Scan(...any) error }) (store.User, error) {
	var u store.User
	var created int64
	if err := row.Scan(&u.ID, &u.Username, &u.PasswordHash, &created); err != nil {
		return store.User{}, err
	}
	u.CreatedAt = fromMicros(created)
	return u, nil
}

func (s *Store) UserByID(ctx context.Context, id int64) (store.User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, mapErr(err, "user by id")
}

func (s *Store) UserByUsername(ctx context.Context, username string) (store.User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx,
		`SELECT `+userCols+` FROM users WHERE lower(username) = lower(?)`, username))
	return u, mapErr(err, "user by username")
}

const tokenCols = `id, user_id, name, token_hash, hint, scopes, expires_at, last_used_at, revoked_at, created_at`

func scanToken(row interface{ Scan(...any) error }) (store.APIToken, error) {
	var t store.APIToken
	var scopes string
	var expires, used, revoked sql.NullInt64
	var created int64
	if err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, &t.Hint, &scopes, &expires, &used, &revoked, &created); err != nil {
		return store.APIToken{}, err
	}
	if err := json.Unmarshal([]byte(scopes), &t.Scopes); err != nil {
		return store.APIToken{}, fmt.Errorf("decode token scopes: %w", err)
	}
	if t.Scopes == nil {
		t.Scopes = []string{}
	}
	t.ExpiresAt, t.LastUsedAt, t.RevokedAt = timePtr(expires), timePtr(used), timePtr(revoked)
	t.CreatedAt = fromMicros(created)
	return t, nil
}

func (s *Store) CreateAPIToken(ctx context.Context, t store.APIToken) (store.APIToken, error) {
	if t.Scopes == nil {
		t.Scopes = []string{}
	}
	scopes, err := json.Marshal(t.Scopes)
	if err != nil {
		return store.APIToken{}, fmt.Errorf("encode token scopes: %w", err)
	}
	t.CreatedAt = s.orNow(t.CreatedAt)
	t.ExpiresAt = truncPtr(t.ExpiresAt)
	t.LastUsedAt, t.RevokedAt = nil, nil
	err = s.w.QueryRowContext(ctx, `
		INSERT INTO api_tokens (user_id, name, token_hash, hint, scopes, expires_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		t.UserID, t.Name, t.Hash, t.Hint, string(scopes), nullMicros(t.ExpiresAt), micros(t.CreatedAt),
	).Scan(&t.ID)
	if err != nil {
		return store.APIToken{}, mapErr(err, "create api token")
	}
	return t, nil
}

func (s *Store) APITokenByHash(ctx context.Context, hash []byte) (store.APIToken, error) {
	t, err := scanToken(s.r.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM api_tokens WHERE token_hash = ?`, hash))
	return t, mapErr(err, "api token by hash")
}

func (s *Store) ListAPITokens(ctx context.Context, userID int64) ([]store.APIToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+tokenCols+` FROM api_tokens WHERE user_id = ? ORDER BY id DESC`, userID)
	if err != nil {
		return nil, mapErr(err, "list api tokens")
	}
	return collect(rows, scanToken, "list api tokens")
}

func (s *Store) RevokeAPIToken(ctx context.Context, userID, tokenID int64, at time.Time) error {
	res, err := s.w.ExecContext(ctx,
		`UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL`,
		micros(at), tokenID, userID)
	return affectedOne(res, err, "revoke api token")
}

func (s *Store) TouchAPIToken(ctx context.Context, tokenID int64, at time.Time) error {
	res, err := s.w.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, micros(at), tokenID)
	return affectedOne(res, err, "touch api token")
}

// affectedOne maps "no row changed" to ErrNotFound.
func affectedOne(res sql.Result, err error, doing string) error {
	if err != nil {
		return mapErr(err, doing)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return mapErr(err, doing)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", doing, store.ErrNotFound)
	}
	return nil
}

// collect scans every row, closing rows.
func collect[T any](rows *sql.Rows, scan func(interface{ Scan(...any) error }) (T, error), doing string) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, mapErr(err, doing)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(err, doing)
	}
	return out, nil
}

func truncPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC().Truncate(time.Microsecond)
	return &v
}
