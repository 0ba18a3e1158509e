// Package faults is the fault suite: real processes of every service, their own PostgreSQL
// and Redis, and faults injected while publishers and viewers run — a gateway killed or
// stopped, Redis or PostgreSQL down, a chat-socket replica killed — each test checking
// that nothing acked is lost or duplicated and that viewers miss nothing.
package faults

import (
	"os"
	"testing"

	"openvibe.live/backend/e2e/internal/cluster"
)

var bins *cluster.Binaries

func TestMain(m *testing.M) { os.Exit(cluster.Main(m, &bins)) }

// gatewayEnv lifts the per-slot limits the fault tests' publishers would otherwise hit.
var gatewayEnv = []string{
	"OPENVIBE_GATEWAY_MAX_CONNS_PER_SLOT=64",
	"OPENVIBE_GATEWAY_SLOT_RATE=20000", "OPENVIBE_GATEWAY_SLOT_BURST=20000",
	"OPENVIBE_GATEWAY_CONN_RATE=2000", "OPENVIBE_GATEWAY_CONN_BURST=2000",
}

// chatEnv makes the rooms' safety-net refresh quick, so the tests stay short.
var chatEnv = []string{"OPENVIBE_CHAT_REFRESH_INTERVAL=1s", "OPENVIBE_CHAT_RETRY_INTERVAL=200ms"}
