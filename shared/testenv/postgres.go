package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresEnv names the variable holding an admin URL of a running PostgreSQL server.
const PostgresEnv = "OPENVIBE_TEST_POSTGRES_URL"

// Postgres creates a fresh, empty, uniquely named database on the server named by
// OPENVIBE_TEST_POSTGRES_URL and returns its URL. The database is dropped (WITH (FORCE), so
// leftover connections do not block it) when the test ends. Without the variable the test is
// skipped, or fails under REQUIRE_SERVICES=1.
func Postgres(t testing.TB) string {
	t.Helper()
	admin := lookup(t, PostgresEnv, "PostgreSQL")
	u, err := url.Parse(admin)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("%s must be a postgres:// URL, got %q", PostgresEnv, redactURL(admin))
	}
	name := "openvibe_test_" + randomHex(t, 8)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := adminExec(ctx, admin, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		stmt := "DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)"
		if err := adminExec(ctx, admin, stmt); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})

	u.Path = "/" + name
	return u.String()
}

func adminExec(ctx context.Context, admin, stmt string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redactURL(admin), err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, stmt)
	return err
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("random database name: %v", err)
	}
	return hex.EncodeToString(b)
}

// redactURL hides the password of a URL for messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if strings.Contains(s, "@") {
			return "(unparsable URL)"
		}
		return s
	}
	return u.Redacted()
}
