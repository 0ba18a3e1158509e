package storetest

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
)

func testUsers(t *testing.T, s store.Store) {
	ctx := t.Context()
	u, err := s.CreateUser(ctx, "Alice", "h1")
	require.NoError(t, err)
	require.Positive(t, u.ID)
	require.Equal(t, "Alice", u.Username)
	require.Equal(t, "h1", u.PasswordHash)
	requireRecent(t, u.CreatedAt)

	for _, name := range []string{"Alice", "alice", "ALICE"} {
		_, err = s.CreateUser(ctx, name, "h2")
		require.ErrorIs(t, err, store.ErrConflict, name)
	}
	bob := mkUser(t, s, "bob")
	require.NotEqual(t, u.ID, bob.ID)

	got, err := s.UserByID(ctx, u.ID)
	require.NoError(t, err)
	require.Equal(t, u.ID, got.ID)
	require.Equal(t, "Alice", got.Username, "the username is kept as registered")
	require.Equal(t, "h1", got.PasswordHash)
	requireTime(t, u.CreatedAt, got.CreatedAt)

	for _, name := range []string{"alice", "ALICE", "aLiCe"} {
		got, err = s.UserByUsername(ctx, name)
		require.NoError(t, err, name)
		require.Equal(t, u.ID, got.ID, name)
		require.Equal(t, "Alice", got.Username)
	}

	_, err = s.UserByID(ctx, u.ID+bob.ID+100)
	require.ErrorIs(t, err, store.ErrNotFound)
	_, err = s.UserByUsername(ctx, "carol")
	require.ErrorIs(t, err, store.ErrNotFound)
}

func testAPITokens(t *testing.T, s store.Store) {
	ctx := t.Context()
	alice, bob := mkUser(t, s, "alice"), mkUser(t, s, "bob")
	hash := func(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

	t1, err := s.CreateAPIToken(ctx, store.APIToken{
		UserID: alice.ID, Name: "publisher", Hash: hash("one"), Hint: "hbt_one",
		Scopes: []string{store.ScopeVibeCodingPublish, store.ScopeRead}, ExpiresAt: ptr(at(24 * time.Hour)),
	})
	require.NoError(t, err)
	require.Positive(t, t1.ID)
	requireRecent(t, t1.CreatedAt)
	t2, err := s.CreateAPIToken(ctx, store.APIToken{UserID: alice.ID, Name: "no scopes", Hash: hash("two"), Hint: "hbt_two"})
	require.NoError(t, err)
	_, err = s.CreateAPIToken(ctx, store.APIToken{UserID: bob.ID, Name: "bob's", Hash: hash("three"), Hint: "hbt_thr"})
	require.NoError(t, err)

	_, err = s.CreateAPIToken(ctx, store.APIToken{UserID: bob.ID, Name: "same hash", Hash: hash("one"), Hint: "x"})
	require.ErrorIs(t, err, store.ErrConflict, "token hashes are unique")
	_, err = s.CreateAPIToken(ctx, store.APIToken{UserID: alice.ID + bob.ID + 100, Name: "orphan", Hash: hash("four"), Hint: "x"})
	require.ErrorIs(t, err, store.ErrNotFound, "a token needs an existing user")

	got, err := s.APITokenByHash(ctx, hash("one"))
	require.NoError(t, err)
	require.Equal(t, t1.ID, got.ID)
	require.Equal(t, alice.ID, got.UserID)
	require.Equal(t, "publisher", got.Name)
	require.Equal(t, hash("one"), got.Hash)
	require.Equal(t, "hbt_one", got.Hint)
	require.Equal(t, []string{store.ScopeVibeCodingPublish, store.ScopeRead}, got.Scopes)
	requireTimePtr(t, ptr(at(24*time.Hour)), got.ExpiresAt)
	require.Nil(t, got.LastUsedAt)
	require.Nil(t, got.RevokedAt)
	requireTime(t, t1.CreatedAt, got.CreatedAt)

	got, err = s.APITokenByHash(ctx, hash("two"))
	require.NoError(t, err)
	require.Empty(t, got.Scopes)
	require.Nil(t, got.ExpiresAt)
	_, err = s.APITokenByHash(ctx, hash("unknown"))
	require.ErrorIs(t, err, store.ErrNotFound)

	list, err := s.ListAPITokens(ctx, alice.ID)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, []int64{t2.ID, t1.ID}, []int64{list[0].ID, list[1].ID}, "newest first")
	list, err = s.ListAPITokens(ctx, alice.ID+bob.ID+100)
	require.NoError(t, err)
	require.Empty(t, list)

	require.NoError(t, s.TouchAPIToken(ctx, t1.ID, at(time.Hour)))
	got, err = s.APITokenByHash(ctx, hash("one"))
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(time.Hour)), got.LastUsedAt)
	require.ErrorIs(t, s.TouchAPIToken(ctx, t1.ID+t2.ID+100, at(0)), store.ErrNotFound)

	require.ErrorIs(t, s.RevokeAPIToken(ctx, bob.ID, t1.ID, at(2*time.Hour)), store.ErrNotFound,
		"another user's token cannot be revoked")
	require.NoError(t, s.RevokeAPIToken(ctx, alice.ID, t1.ID, at(2*time.Hour)))
	require.ErrorIs(t, s.RevokeAPIToken(ctx, alice.ID, t1.ID, at(3*time.Hour)), store.ErrNotFound,
		"a revoked token cannot be revoked again")
	got, err = s.APITokenByHash(ctx, hash("one"))
	require.NoError(t, err, "revoked tokens are still found by hash")
	requireTimePtr(t, ptr(at(2*time.Hour)), got.RevokedAt)
}

func testManagedStreams(t *testing.T, s store.Store) {
	ctx := t.Context()
	alice, bob := mkUser(t, s, "alice"), mkUser(t, s, "bob")

	m, err := s.CreateManagedStream(ctx, alice.ID, "Main-Show", "My show", nil)
	require.NoError(t, err)
	require.Positive(t, m.ID)
	require.Equal(t, alice.ID, m.UserID)
	require.Equal(t, "Main-Show", m.Slug)
	require.Equal(t, "My show", m.Title)
	require.JSONEq(t, `{}`, string(m.BroadcastSettings), "settings default to an empty object")
	require.Nil(t, m.LiveStreamID)
	require.Zero(t, m.LastSeq)
	requireRecent(t, m.CreatedAt)
	requireRecent(t, m.UpdatedAt)

	settings := `{"vibe_coding":{"enabled":true,"delay_seconds":5}}`
	m2, err := s.CreateManagedStream(ctx, alice.ID, "second", "Second", []byte(settings))
	require.NoError(t, err)
	require.JSONEq(t, settings, string(m2.BroadcastSettings))

	for _, slug := range []string{"Main-Show", "main-show", "MAIN-SHOW"} {
		_, err = s.CreateManagedStream(ctx, alice.ID, slug, "dup", nil)
		require.ErrorIs(t, err, store.ErrConflict, slug)
	}
	mb, err := s.CreateManagedStream(ctx, bob.ID, "main-show", "Bob's", nil)
	require.NoError(t, err, "slugs are unique per user only")
	_, err = s.CreateManagedStream(ctx, alice.ID+bob.ID+100, "x", "orphan", nil)
	require.ErrorIs(t, err, store.ErrNotFound, "a slot needs an existing user")
	_, err = s.CreateManagedStream(ctx, alice.ID, "bad", "bad", []byte(`[1,2]`))
	require.Error(t, err, "settings must be a JSON object")

	got, err := s.ManagedStreamByID(ctx, m2.ID)
	require.NoError(t, err)
	require.Equal(t, m2.ID, got.ID)
	require.Equal(t, "second", got.Slug)
	require.JSONEq(t, settings, string(got.BroadcastSettings))
	requireTime(t, m2.CreatedAt, got.CreatedAt)
	_, err = s.ManagedStreamByID(ctx, m.ID+m2.ID+mb.ID+100)
	require.ErrorIs(t, err, store.ErrNotFound)

	for _, slug := range []string{"main-show", "MAIN-show"} {
		got, err = s.ManagedStreamBySlug(ctx, alice.ID, slug)
		require.NoError(t, err)
		require.Equal(t, m.ID, got.ID, slug)
		got, err = s.ManagedStreamBySlug(ctx, bob.ID, slug)
		require.NoError(t, err)
		require.Equal(t, mb.ID, got.ID, slug)
	}
	_, err = s.ManagedStreamBySlug(ctx, bob.ID, "second")
	require.ErrorIs(t, err, store.ErrNotFound, "another user's slug is not found")

	list, err := s.ListManagedStreams(ctx, alice.ID)
	require.NoError(t, err)
	require.Equal(t, []int64{m.ID, m2.ID}, []int64{list[0].ID, list[1].ID})
	require.Len(t, list, 2)
	list, err = s.ListManagedStreams(ctx, alice.ID+bob.ID+100)
	require.NoError(t, err)
	require.Empty(t, list)
}
