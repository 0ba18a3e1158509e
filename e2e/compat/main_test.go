// Package compat drives a real deployment (PostgreSQL, Redis, a gateway, two chat-socket
// replicas and the api, each its own process) the way the original OpenVibe.Live platform's
// clients do: a publisher sending the value forms its publishers send, viewers that join the
// original chat socket and parse every WebSocket message as one JSON object, the original
// workspace's broadcast-settings save, and a headless Chromium page that runs the original
// browser chat client's flow.
package compat

import (
	"os"
	"testing"

	"openvibe.live/backend/e2e/internal/cluster"
)

var bins *cluster.Binaries

func TestMain(m *testing.M) { os.Exit(cluster.Main(m, &bins)) }
