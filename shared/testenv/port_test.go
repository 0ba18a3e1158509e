package testenv

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFreePortIsReservedUntilTheTestEnds(t *testing.T) {
	dir := filepath.Join(os.TempDir(), portLockDir)
	var port int
	t.Run("reserve", func(t *testing.T) {
		port = FreePort(t)
		require.GreaterOrEqual(t, port, portLow)
		require.Less(t, port, ephemeralLow(), "ports come from below the ephemeral range")

		_, ok := lockPort(dir, port)
		require.False(t, ok, "a reserved port is not handed out again")

		l, err := net.Listen("tcp", FreeAddr(t))
		require.NoError(t, err, "the port is free to listen on")
		require.NoError(t, l.Close())
	})
	release, ok := lockPort(dir, port)
	require.True(t, ok, "the reservation ends with the test")
	release()
}

func TestFreePortsAreDistinct(t *testing.T) {
	seen := map[int]bool{}
	for range 200 {
		p := FreePort(t)
		require.False(t, seen[p], "port %d handed out twice", p)
		seen[p] = true
	}
	require.Len(t, seen, 200)
}
