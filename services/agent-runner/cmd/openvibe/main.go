// Command openvibe is the openvibe coding agent for one person at a terminal:
//
//	openvibe serve                 run the agent server on loopback, protected by a random password
//	openvibe run "prompt"          run one headless turn in the current directory, streaming to stdout
//	openvibe sessions list         list sessions
//	openvibe sessions resume ID "prompt"
//	openvibe sessions fork ID [--message MSG]
//	openvibe models [--refresh] [--json]
//	openvibe stats [--days N] [--json]
//	openvibe export ID [--out FILE]
//	openvibe import FILE [--dir DIR]
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `openvibe — a coding agent

Usage:
  openvibe serve [--addr 127.0.0.1:4096] [--password PW] [--db PATH] [--model provider/model]
                 [--publish-server URL --publish-token hbt_… --publish-stream ID [--publish-slot SLUG]]
  openvibe run [--agent NAME] [--model provider/model] [--session ID] [--dir DIR] [--yes]
               [--format text|json|ndjson] "prompt"
  openvibe sessions list [--dir DIR] [--limit N]
  openvibe sessions resume ID [--yes] "prompt"
  openvibe sessions fork ID [--message MESSAGE_ID]
  openvibe models [--refresh] [--json]    models of the configured providers (* the default)
  openvibe stats [--days N] [--json]      tokens and cost by model and by day
  openvibe export ID [--out FILE]         one JSON document: session, messages, parts, todos
  openvibe import FILE|- [--dir DIR]      a new session from an export (in DIR, or its own directory)

Configuration: ~/.config/openvibe/openvibe.json, then openvibe.json in the project, then
OPENVIBE_CONFIG (a file), OPENVIBE_CONFIG_CONTENT (inline JSON) and OPENVIBE_MODEL.
State: $XDG_DATA_HOME/openvibe/openvibe.db (override with --db or OPENVIBE_DB); turn
snapshots in ~/.openvibe/snapshots (OPENVIBE_SNAPSHOT_DIR).
`

// run executes the command and returns the process exit code: 0 on success, 1 when the
// turn or command failed, 2 for usage errors, 3 when a turn's every tool call was denied.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	c := &cli{getenv: getenv, stdout: stdout, stderr: stderr}
	var err error
	switch args[0] {
	case "serve":
		err = c.serve(ctx, args[1:])
	case "run":
		err = c.runPrompt(ctx, args[1:], "")
	case "sessions":
		err = c.sessions(ctx, args[1:])
	case "models":
		err = c.models(ctx, args[1:])
	case "stats":
		err = c.stats(ctx, args[1:])
	case "export":
		err = c.export(ctx, args[1:])
	case "import":
		err = c.importSession(ctx, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = usageErrorf("unknown command %q", args[0])
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "openvibe:", err)
	var ee exitError
	switch {
	case errors.As(err, new(usageError)):
		return 2
	case errors.As(err, &ee):
		return ee.code
	}
	return 1
}

type usageError string

func (u usageError) Error() string { return string(u) }

func usageErrorf(format string, args ...any) error { return usageError(fmt.Sprintf(format, args...)) }
