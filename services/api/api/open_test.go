package api_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
)

// openStore opens and migrates a store: a SQLite path or a postgres:// URL.
func openStore(t testing.TB, url string, log *slog.Logger) store.Store {
	t.Helper()
	st, err := stores.Open(context.Background(), url, stores.Options{Migrate: true, Logger: log})
	require.NoError(t, err)
	return st
}

// openBroker opens the in-process broker.
func openBroker(t testing.TB, log *slog.Logger) broker.Broker {
	t.Helper()
	br, err := brokers.Open(context.Background(), "", log)
	require.NoError(t, err)
	return br
}
