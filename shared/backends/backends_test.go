package backends_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/testenv"
)

// TestConfigDefaults: the settings every service shares default as docs/operations.md says,
// and the defaults are valid except for the two variables that have none.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	type shared struct {
		platform.Common
		Backends backends.Config
	}
	c := platform.Defaults[shared]()
	require.NoError(t, c.Common.Validate())
	err := c.Backends.Validate()
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 2, err.Error())
	require.Contains(t, lines[0], "OPENVIBE_DATABASE_URL: required")
	require.Contains(t, lines[1], "OPENVIBE_JWT_SECRET: required")

	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	undocumented := testenv.RequireDocumentedDefaults(t, &c, filepath.Join(root, "docs", "operations.md"))
	require.Empty(t, undocumented, "variables missing from docs/operations.md")
}
