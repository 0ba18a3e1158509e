package vibe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestResultTableSecrets: the cells of a query result's secret columns are masked, in psql's,
// mysql's and sqlite's layouts and in Markdown tables; columns about a secret (its count, when
// it changed) and the other columns are kept.
func TestResultTableSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tc := range []struct{ name, in string }{
		{"psql one column", "password\n--------\nTz4nB8cY1dF6Xk9m\n(1 row)"},
		{"psql", " id |    email    |     password\n----+-------------+------------------\n  1 | ada@corp.io | Tz4nB8cY1dF6Xk9m\n(1 row)"},
		{"mysql", "+----+----------+------------------+\n| id | username | api_token        |\n+----+----------+------------------+\n|  1 | admin    | Tz4nB8cY1dF6Xk9m |\n|  2 | bot      | NULL             |\n+----+----------+------------------+\n2 rows in set (0.00 sec)"},
		{"sqlite columns", "id  name  secret_key\n--  ----  ----------------\n1   ada   Tz4nB8cY1dF6Xk9m"},
		{"markdown", "| Service | Token |\n|---------|-------|\n| ci | Tz4nB8cY1dF6Xk9m |\n"},
		{"markdown aligned", "| Service | API key |\n|:--------|:-------:|\n| ci | Tz4nB8cY1dF6Xk9m |\n"},
		{"vault kv get, a key's value", "====== Data ======\nKey              Value\n---              -----\napi_token        Tz4nB8cY1dF6Xk9m\nusername         app\n"},
		{"markdown keys and values", "| Key | Value |\n|---|---|\n| SECRET_KEY | Tz4nB8cY1dF6Xk9m |\n| DEBUG | true |"},
		{"box-drawn table of variables", "╔═══════ Variables for app ═══════╗\n║ API_KEY      │ Tz4nB8cY1dF6Xk9m  ║\n║ NODE_ENV     │ production        ║\n╚═════════════════════════════════╝"},
		{"cli-table keys and values", "┌─────────────┬──────────────────┐\n│ Name        │ Value            │\n├─────────────┼──────────────────┤\n│ DB_PASSWORD │ Tz4nB8cY1dF6Xk9m │\n└─────────────┴──────────────────┘"},
		{"KEY VALUE without a rule", "KEY                 VALUE\naws:region          us-west-2\ndbPassword          Tz4nB8cY1dF6Xk9m"},
		{"psql in a JSON string", `{"content":" id |  email      | password\n----+-------------+------------------\n  1 | ada@corp.io | Tz4nB8cY1dF6Xk9m\n(1 row)\n"}`},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
		require.NotContains(t, out, "Tz4nB8cY", tc.name)
		require.Contains(t, out, "[redacted:", tc.name)
		require.Equal(t, strings.Count(tc.in, "\n"), strings.Count(out, "\n"), "%s: lines kept: %q", tc.name, out)
	}
	for _, in := range []string{
		"id  name   token_count  password_updated_at\n--  -----  -----------  -------------------\n1   ada    42           2026-12-01 10:00:00",
		"NAME         TYPE     DATA   AGE\n----         ----     ----   ---\ndb-secret    Opaque   2      3d",
		" id | password\n----+----------\n  1 | NULL\n  2 | ********\n(2 rows)",
		"| Setting | Password policy |\n|---|---|\n| min length | 12 |",
		"Key              Value\n---              -----\ntoken_ttl        3600\ntoken_type       service\nusername         app",
		"┌───────┬─────────────┐\n│ Token │ Description │\n├───────┼─────────────┤\n│ foo   │ bar         │\n└───────┴─────────────┘",
		"│ token_count │ 1234 │\n│ Password │ ******** │\n│ api_key │ string │\n│ secret │ Required │",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}

// FuzzResultTables plants a value in a secret column of fuzzed tables, and as a secret key's
// value in a table of keys and values and in a box-drawn row: it is never shown, and any table
// is read without a crash.
func FuzzResultTables(f *testing.F) {
	f.Add("password", 1, "Xk9mQ2vLp7wRTz4n", " | ")
	f.Add("api_token", 3, "Tz4nB8cY1dF6", "  ")
	f.Add("", 0, "", "|")
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, col string, pad int, value, sep string) {
		pad = (pad%8+8)%8 + 1
		// the separator psql prints under its header (-+- where the header has |), or
		// dashes and blanks as sqlite does
		head := "id" + strings.Repeat(" ", pad) + sep + col
		mid := strings.NewReplacer("|", "+", " ", "-").Replace(sep)
		if !strings.Contains(sep, "|") {
			mid = sep
		}
		dashes := strings.Repeat("-", 2+pad) + mid + strings.Repeat("-", max(len(col), len(value)))
		in := head + "\n" + dashes + "\n" + "1 " + strings.Repeat(" ", pad+1) + sep + value + "\n"
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", in)
		}
		secretCol := (col == "password" || col == "api_token" || col == "secret") && (sep == " | " || sep == "  ")
		if secretCol && len(value) >= 8 && randomValue(value) && !strings.ContainsAny(value, " |\n\r\t") && strings.Contains(out, value) {
			t.Fatalf("secret cell shown:\n in: %q\nout: %q", in, out)
		}
		// The same value as a key's in a table of keys and values (vault kv get).
		if col == "" || strings.ContainsAny(col, " \t\n\r|-") || len(col) > 40 {
			return
		}
		w := max(len(col), 4) + pad
		kv := "Key" + strings.Repeat(" ", w-1) + "Value\n---" + strings.Repeat(" ", w-1) + "-----\n" +
			col + strings.Repeat(" ", w+2-len(col)) + value + "\n"
		out = san.NewSession(SessionHints{}).SanitizeText(kv)
		if utf8.ValidString(kv) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", kv)
		}
		if (col == "password" || col == "api_token" || col == "secret") && len(value) >= 8 && randomValue(value) && !strings.ContainsAny(value, " |\n\r\t") && strings.Contains(out, value) {
			t.Fatalf("secret value shown:\n in: %q\nout: %q", kv, out)
		}
		// And as a box-drawn table's row.
		box := "║ " + col + " │ " + value + " ║\n"
		out = san.NewSession(SessionHints{}).SanitizeText(box)
		if utf8.ValidString(box) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", box)
		}
		if (col == "password" || col == "api_token" || col == "secret") && len(value) >= 8 && randomValue(value) && !strings.ContainsAny(value, " |│║┃\n\r\t") && strings.Contains(out, value) {
			t.Fatalf("secret value shown:\n in: %q\nout: %q", box, out)
		}
	})
}
