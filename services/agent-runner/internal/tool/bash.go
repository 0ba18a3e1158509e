package tool

import (
	"context"
	"fmt"
	"strings"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

const (
	bashDefaultTimeout = 2 * time.Minute
	bashMaxTimeout     = 10 * time.Minute
)

// BashParams are the bash tool's parameters.
type BashParams struct {
	Command     string `json:"command" jsonschema_description:"The command to run with bash -c"`
	Timeout     int    `json:"timeout,omitempty" jsonschema_description:"Timeout in milliseconds (default 120000, at most 600000)" jsonschema:"minimum=0"`
	Description string `json:"description,omitempty" jsonschema_description:"Five to ten words saying what the command does"`
}

// Bash returns the bash tool.
func Bash() Tool {
	return New(Def[BashParams]{
		Name: "bash",
		Description: "Run a shell command in the working directory and return its exit code and combined output " +
			"(long output keeps its beginning and end). The command and everything it starts is killed on timeout " +
			"or abort, and background processes do not outlive the command: don't start servers expecting them to keep running.",
		Kind: KindExecute,
		Perm: func(tc *Context, p BashParams) Perm {
			return Perm{Pattern: strings.TrimSpace(p.Command), Kind: permission.KindCommand, Title: "Run: " + p.Command}
		},
		Run: runBash,
	})
}

func runBash(ctx context.Context, tc *Context, p BashParams) (Result, error) {
	if strings.TrimSpace(p.Command) == "" {
		return Result{}, Errorf("command is empty")
	}
	timeout := bashDefaultTimeout
	if p.Timeout > 0 {
		timeout = min(time.Duration(p.Timeout)*time.Millisecond, bashMaxTimeout)
	}
	res, err := tc.Shell.Run(ctx, tc.WorkDir, p.Command, timeout, tc.ProjectDir)
	if err != nil {
		return Result{}, err
	}
	title := p.Description
	if title == "" {
		title = p.Command
	}
	meta := map[string]any{"exit_code": res.ExitCode, "dropped_bytes": res.Dropped}
	if res.Aborted {
		return Result{}, fmt.Errorf("%w; output so far:\n%s", context.Cause(ctx), res.Output)
	}
	var b strings.Builder
	b.WriteString(res.Output)
	if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
		b.WriteString("\n")
	}
	if res.TimedOut {
		meta["timed_out"] = true
		fmt.Fprintf(&b, "[command timed out after %s and was killed with everything it started]\n", timeout)
	}
	fmt.Fprintf(&b, "[exit code %d]", res.ExitCode)
	return Result{Title: title, Output: b.String(), Metadata: meta}, nil
}
