package e2e

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/sqlite"
)

func openStore(t *testing.T, url string, log *slog.Logger) store.Store {
	t.Helper()
	if strings.HasPrefix(url, "postgres") {
		t.Skip("postgres store not wired yet")
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, url, sqlite.Options{Logger: log})
	require.NoError(t, err)
	require.NoError(t, migrations.Up(ctx, st.DB(), migrations.SQLite))
	return st
}

func openBroker(t *testing.T, log *slog.Logger) broker.Broker {
	t.Helper()
	return memory.New(memory.Options{})
}
