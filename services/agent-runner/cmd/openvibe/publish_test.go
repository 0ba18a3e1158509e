package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestServePublishFlagsAreValidated(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	getenv := func(string) string { return "" }
	code := run(t.Context(), []string{"serve", "--publish-stream", "5", "--db", t.TempDir() + "/x.db"}, getenv, &out, &errOut)
	require.Equal(t, 2, code)
	require.Contains(t, errOut.String(), "server must be an http(s) or ws(s) URL")
	require.Contains(t, errOut.String(), "token is required")
}
