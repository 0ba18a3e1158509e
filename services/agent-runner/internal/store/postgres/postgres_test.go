package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"

	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/store/postgres"
	"openvibe.live/backend/services/agent-runner/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := postgres.Open(t.Context(), testenv.Postgres(t), nil)
		require.NoError(t, err)
		return s
	})
}
