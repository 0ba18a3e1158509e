// Command openvibe-live is the standalone server: the publish gateway, the chat socket, the
// api with its web pages and the agent runner in one process on one port, on SQLite and the
// in-process broker. It migrates its schema on start and keeps its data (and a generated JWT
// secret) in OPENVIBE_DATA_DIR.
package main

import (
	"context"
	"io"
	"slices"

	"openvibe.live/backend/shared/platform"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() { platform.Exec(run) }

// run strips the standalone's own --demo flag and hands the rest to the platform's command
// line (serve, migrate, healthcheck, config, version).
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	demo := slices.Contains(args, "--demo") || slices.Contains(args, "-demo")
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--demo" || a == "-demo" })
	return newApp(demo, getenv, stdout).main(ctx, args, getenv, stdout, stderr)
}
