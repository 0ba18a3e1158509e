// Package replicas checks the owner's controls across chat-socket replicas: a retracted
// event and the panic button take effect for viewers on every replica and in the public
// feed, with real processes behind real sockets.
package replicas

import (
	"os"
	"testing"

	"openvibe.live/backend/e2e/internal/cluster"
)

var bins *cluster.Binaries

func TestMain(m *testing.M) { os.Exit(cluster.Main(m, &bins)) }
