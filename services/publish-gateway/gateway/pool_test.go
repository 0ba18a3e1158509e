package gateway

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDatabaseURL(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cases := []struct{ in, want string }{
		{"postgres://u:p@127.0.0.1:5432/db?sslmode=disable", "postgres://u:p@127.0.0.1:5432/db?pool_max_conns=12&sslmode=disable"},
		{"postgresql://h/db", "postgresql://h/db?pool_max_conns=12"},
		{"postgres://h/db?pool_max_conns=3", "postgres://h/db?pool_max_conns=3"},
		{"/var/lib/openvibe/openvibe.db", "/var/lib/openvibe/openvibe.db"},
		{"sqlite:/tmp/x.db", "sqlite:/tmp/x.db"},
		{"host=h dbname=db", "host=h dbname=db"},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, DatabaseURL(tc.in, cfg), tc.in)
	}
}
