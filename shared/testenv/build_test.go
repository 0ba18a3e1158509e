package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRepoRoot(t *testing.T) {
	root, err := RepoRoot()
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.work"))
}

func TestBuildBinariesTakesPrebuiltOnes(t *testing.T) {
	dir := t.TempDir()
	prebuilt := filepath.Join(dir, "publish-gateway")
	require.NoError(t, os.WriteFile(prebuilt, []byte("#!/bin/sh\n"), 0o755))
	t.Setenv(BinariesEnv, dir)
	b, err := BuildBinaries(t.Context(), "services/publish-gateway")
	require.NoError(t, err)
	defer b.Remove()
	require.Equal(t, prebuilt, b.Path("services/publish-gateway"), "a prebuilt binary is used as it is")
	b.Remove()
	require.FileExists(t, prebuilt, "and never removed")
}

func TestBuildBinariesReportsABrokenModule(t *testing.T) {
	_, err := BuildBinaries(t.Context(), "no/such/module")
	require.ErrorContains(t, err, "build no/such/module")
}
