// Package testenv gives tests the real backing services they need: a fresh PostgreSQL
// database and a Redis server, both reached through environment variables set by
// scripts/test-services.sh (OPENVIBE_TEST_POSTGRES_URL, OPENVIBE_TEST_REDIS_URL).
//
// When a variable is unset the test is skipped, unless REQUIRE_SERVICES=1 (as in CI), where
// a missing service fails the test instead of hiding it.
package testenv

import (
	"os"
	"testing"
)

// RequireServices reports whether missing services must fail tests.
func RequireServices() bool { return os.Getenv("REQUIRE_SERVICES") == "1" }

// lookup returns the value of env or skips (or fails) the test.
func lookup(t testing.TB, env, what string) string {
	t.Helper()
	v := os.Getenv(env)
	if v != "" {
		return v
	}
	if RequireServices() {
		t.Fatalf("%s is required (REQUIRE_SERVICES=1) but %s is not set", what, env)
	}
	t.Skipf("%s not available: set %s (make test does)", what, env)
	return ""
}
