package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestResolvePrecedence(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cfgPath := filepath.Join(home, ".config", "vibe-publish", "config.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(cfgPath), 0o700))
	require.NoError(t, os.WriteFile(cfgPath, []byte(`{"server":"http://file:1","token":"hbt_file","slot":"from-file"}`), 0o644))
	tokenFile := filepath.Join(home, "token")
	require.NoError(t, os.WriteFile(tokenFile, []byte("hbt_tokenfile\n"), 0o600))

	// The file alone (and a warning: it holds a token and is world-readable).
	s, err := resolve(globalFlags{}, env(map[string]string{"HOME": home}))
	require.NoError(t, err)
	require.Equal(t, "http://file:1", s.Server)
	require.Equal(t, "hbt_file", s.Token)
	require.Equal(t, "from-file", s.SlotSlug)
	require.Zero(t, s.ManagedStreamID)
	require.Len(t, s.warnings, 1)

	// Environment over the file.
	s, err = resolve(globalFlags{}, env(map[string]string{"HOME": home, EnvServer: "http://env:2", EnvSlot: "42"}))
	require.NoError(t, err)
	require.Equal(t, "http://env:2", s.Server)
	require.Equal(t, int64(42), s.ManagedStreamID)
	require.Empty(t, s.SlotSlug)

	// Flags over everything; a token file when no token is given elsewhere.
	s, err = resolve(globalFlags{server: "http://flag:3", slot: "camp-code", managedStreamID: "7"},
		env(map[string]string{"XDG_CONFIG_HOME": t.TempDir(), EnvTokenFile: tokenFile}))
	require.NoError(t, err)
	require.Equal(t, "http://flag:3", s.Server)
	require.Equal(t, "hbt_tokenfile", s.Token)
	require.Equal(t, "camp-code", s.SlotSlug)
	require.Equal(t, int64(7), s.ManagedStreamID)

	_, err = resolve(globalFlags{slot: "8", managedStreamID: "7"}, env(map[string]string{"HOME": home}))
	require.ErrorContains(t, err, "disagree")
	_, err = resolve(globalFlags{managedStreamID: "x"}, env(map[string]string{"HOME": home}))
	require.ErrorContains(t, err, "positive number")
}
