package testenv

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisEnv names the variable holding the URL of a running Redis server.
const RedisEnv = "OPENVIBE_TEST_REDIS_URL"

const (
	redisLeaseTTL  = 30 * time.Minute
	redisLeaseWait = 30 * time.Second
)

// Redis returns the URL of a logical database of its own on the server named by
// OPENVIBE_TEST_REDIS_URL: the database is leased (a key in database 0 that other test
// processes respect), emptied, and emptied and released again when the test ends. Without
// the variable the test is skipped, or fails under REQUIRE_SERVICES=1.
//
// Pub/sub channels are not per database: every client of the server shares them, whatever
// database it selected. Tests that publish or subscribe must use channel names unique to the
// test (brokertest.Channel makes them).
func Redis(t testing.TB) string {
	t.Helper()
	raw := lookup(t, RedisEnv, "Redis")
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
		t.Fatalf("%s must be a redis:// URL, got %q", RedisEnv, redactURL(raw))
	}
	opts, err := redis.ParseURL(raw)
	if err != nil {
		t.Fatalf("%s: %v", RedisEnv, err)
	}
	opts.DB = 0
	admin := redis.NewClient(opts)
	defer admin.Close()

	ctx, cancel := context.WithTimeout(context.Background(), redisLeaseWait+5*time.Second)
	defer cancel()
	db, lease, err := leaseRedisDB(ctx, admin, t.Name())
	if err != nil {
		t.Fatalf("lease a Redis database on %s: %v", redactURL(raw), err)
	}
	if err := flushDB(ctx, opts, db); err != nil {
		t.Fatalf("empty Redis database %d: %v", db, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := flushDB(ctx, opts, db); err != nil {
			t.Errorf("empty Redis database %d: %v", db, err)
		}
		c := redis.NewClient(opts)
		defer c.Close()
		if err := c.Del(ctx, lease).Err(); err != nil {
			t.Errorf("release Redis database %d: %v", db, err)
		}
	})
	u.Path = "/" + strconv.Itoa(db)
	return u.String()
}

// leaseRedisDB claims a database other than 0 with SET NX, waiting for one to free up.
func leaseRedisDB(ctx context.Context, admin *redis.Client, owner string) (int, string, error) {
	n := 16
	if v, err := admin.ConfigGet(ctx, "databases").Result(); err == nil {
		if d, err := strconv.Atoi(v["databases"]); err == nil && d > 1 {
			n = d
		}
	}
	deadline := time.Now().Add(redisLeaseWait)
	for {
		start := rand.IntN(n - 1)
		for i := range n - 1 {
			db := 1 + (start+i)%(n-1)
			key := "openvibe:testenv:lease:" + strconv.Itoa(db)
			ok, err := admin.SetNX(ctx, key, owner, redisLeaseTTL).Result()
			if err != nil {
				return 0, "", err
			}
			if ok {
				return db, key, nil
			}
		}
		if time.Now().After(deadline) {
			return 0, "", fmt.Errorf("all %d databases stayed leased for %s", n-1, redisLeaseWait)
		}
		select {
		case <-ctx.Done():
			return 0, "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func flushDB(ctx context.Context, opts *redis.Options, db int) error {
	o := *opts
	o.DB = db
	c := redis.NewClient(&o)
	defer c.Close()
	return c.FlushDB(ctx).Err()
}
