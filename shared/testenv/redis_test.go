package testenv_test

import (
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

func TestRedisLeasesSeparateEmptyDatabases(t *testing.T) {
	urlA, urlB := testenv.Redis(t), testenv.Redis(t)
	require.NotEqual(t, urlA, urlB)

	optsA, err := redis.ParseURL(urlA)
	require.NoError(t, err)
	optsB, err := redis.ParseURL(urlB)
	require.NoError(t, err)
	require.NotZero(t, optsA.DB, "database 0 holds the leases")
	a, b := redis.NewClient(optsA), redis.NewClient(optsB)
	defer a.Close()
	defer b.Close()

	n, err := a.DBSize(t.Context()).Result()
	require.NoError(t, err)
	require.Zero(t, n, "a leased database starts empty")
	require.NoError(t, a.Set(t.Context(), "k", "a", 0).Err())
	require.ErrorIs(t, b.Get(t.Context(), "k").Err(), redis.Nil, "databases are separate")
}

func TestRedisReleasesOnCleanup(t *testing.T) {
	var url string
	t.Run("lease", func(t *testing.T) {
		url = testenv.Redis(t)
		opts, err := redis.ParseURL(url)
		require.NoError(t, err)
		c := redis.NewClient(opts)
		defer c.Close()
		require.NoError(t, c.Set(t.Context(), "leftover", "x", 0).Err())
	})
	if url == "" {
		t.Skip("no Redis")
	}
	opts, err := redis.ParseURL(url)
	require.NoError(t, err)
	c := redis.NewClient(opts)
	defer c.Close()
	n, err := c.DBSize(t.Context()).Result()
	require.NoError(t, err)
	require.Zero(t, n, "emptied when the test ended")
}
