package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRunThroughProvider: openvibe run --format json against an OpenAI-compatible provider:
// a turn whose only tool call is denied (headless, no --yes) exits 3, one that works exits
// 0 with the answer, one with an unknown model exits 1.
func TestRunThroughProvider(t *testing.T) {
	p := newProvider(t)
	home := t.TempDir()
	writeJSON(t, filepath.Join(home, ".config", "openvibe", "openvibe.json"), config(p, nil))
	dir := project(t, t.TempDir(), "app")
	run := func(args ...string) (map[string]any, int) {
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, openvibeBin, append([]string{"run", "--format", "json"}, args...)...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENVIBE_SNAPSHOT_DIR=" + filepath.Join(home, "snap")}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err, errOut.String())
		}
		var res map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &res), "%s\n%s", out.String(), errOut.String())
		return res, code
	}
	p.script(reply{Calls: []call{bash("touch x")}}, reply{Text: "could not"})
	res, code := run("make x")
	require.Equal(t, 3, code)
	require.Equal(t, "denied", res["status"])
	require.NoFileExists(t, filepath.Join(dir, "x"))

	p.script(reply{Calls: []call{bash("touch x")}}, reply{Text: "made x", In: 50, Out: 5})
	res, code = run("--yes", "make x")
	require.Equal(t, 0, code)
	require.Equal(t, "completed", res["status"])
	require.Equal(t, "made x", res["text"])
	require.FileExists(t, filepath.Join(dir, "x"))

	res, code = run("--model", "nowhere/m", "hi")
	require.Equal(t, 1, code)
	require.Equal(t, "failed", res["status"])
}
