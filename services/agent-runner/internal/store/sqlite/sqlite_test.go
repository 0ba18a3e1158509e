package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/store/sqlite"
	"openvibe.live/backend/services/agent-runner/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "agent.db"), nil)
		require.NoError(t, err)
		return s
	})
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.db")
	s, err := sqlite.Open(t.Context(), path, nil)
	require.NoError(t, err)
	require.NoError(t, s.UpsertProject(t.Context(), store.Project{ID: "prj_1", Worktree: "/w"}))
	require.NoError(t, s.Close())
	s, err = sqlite.Open(t.Context(), "sqlite:"+path, nil)
	require.NoError(t, err)
	defer s.Close()
	p, err := s.GetProject(t.Context(), "prj_1")
	require.NoError(t, err)
	require.Equal(t, "/w", p.Worktree)
}
