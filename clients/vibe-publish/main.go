// Command vibe-publish streams coding activity (Claude Code transcripts, file changes, or
// canonical events) to an OpenVibe.Live slot through the publish gateway.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"openvibe.live/backend/clients/vibe-publish/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Getenv, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vibe-publish:", err)
		if errors.Is(err, cli.ErrUsage) {
			fmt.Fprintln(os.Stderr, `run "vibe-publish --help" for usage`)
			os.Exit(2)
		}
		os.Exit(1)
	}
}
