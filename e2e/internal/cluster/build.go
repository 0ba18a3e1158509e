// Package cluster runs a real OpenVibe.Live deployment on loopback for end-to-end and fault
// tests: its own PostgreSQL and Redis servers (so a test may stop, kill and restart them
// without disturbing anything else), the migrate step, and N replicas of the publish gateway,
// the chat socket and the api, each a real process built from this repository. Small typed
// clients drive it: the api over HTTP, publishers through shared/vibe/publisher, viewers over
// the chat WebSocket.
package cluster

import (
	"openvibe.live/backend/shared/testenv"
)

// Binaries are the service executables, built once per test binary.
type Binaries struct {
	Gateway string
	Chat    string
	API     string
}

// Main is a TestMain body: it builds the binaries into *bins (or takes them from
// testenv.BinariesEnv), runs the tests and removes the binaries.
func Main(m interface{ Run() int }, bins **Binaries) int {
	b := &Binaries{}
	*bins = b
	return testenv.RunWithBinaries(m, map[string]*string{"services/publish-gateway": &b.Gateway, "services/chat-socket": &b.Chat, "services/api": &b.API})
}
