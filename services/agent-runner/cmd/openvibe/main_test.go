package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

var binary string

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{"services/agent-runner/cmd/openvibe": &binary}))
}

type env struct {
	t    *testing.T
	home string
	work string
	vars []string
}

// newEnv makes a home, a project and a scripted provider playing script.
func newEnv(t *testing.T, script string) *env {
	home, work := t.TempDir(), t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(work, ".git"), 0o755))
	scriptPath := filepath.Join(home, "script.json")
	require.NoError(t, os.WriteFile(scriptPath, []byte(script), 0o644))
	cfg := fmt.Sprintf(`{"model": "demo/scripted", "provider": {"demo": {"type": "scripted", "options": {"script": %q}}}}`, scriptPath)
	return &env{t: t, home: home, work: work, vars: []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"),
		"OPENVIBE_CONFIG_CONTENT=" + cfg}}
}

func (e *env) run(args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir, cmd.Env = e.work, e.vars
	var o, er bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &er
	err := cmd.Run()
	require.NoError(e.t, ctx.Err(), "openvibe %v hung", args)
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(e.t, err)
	}
	return o.String(), er.String(), code
}

const bashScript = `[
 {"events": [{"type": "text_delta", "text": "Creating the file.\n"},
             {"type": "tool_call", "tool_call": {"id": "c1", "name": "bash", "input": {"command": "echo hi > made.txt"}}}]},
 {"events": [{"type": "text_delta", "text": "All "}, {"type": "text_delta", "text": "done."}]}
]`

// TestRunHeadlessDeniesAsks: a headless run answers the ask with deny at once, streams the
// text, and exits 3 because the only tool call the model made was denied.
func TestRunHeadlessDeniesAsks(t *testing.T) {
	e := newEnv(t, bashScript)
	out, errOut, code := e.run("run", "make a file")
	require.Equal(t, 3, code, errOut)
	require.Contains(t, errOut, "every tool call (1) was denied")
	require.Contains(t, out, "Creating the file.\nAll done.")
	require.Contains(t, errOut, "✗ bash")
	require.Contains(t, errOut, "nobody can approve in a headless run")
	_, err := os.Stat(filepath.Join(e.work, "made.txt"))
	require.True(t, os.IsNotExist(err))

	list, _, code := e.run("sessions", "list")
	require.Equal(t, 0, code)
	require.Contains(t, list, "make a file")
	require.Contains(t, list, e.work)
}

// TestRunYesAllows: --yes approves asks.
func TestRunYesAllows(t *testing.T) {
	e := newEnv(t, bashScript)
	_, errOut, code := e.run("run", "--yes", "make a file")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "✓ bash")
	b, err := os.ReadFile(filepath.Join(e.work, "made.txt"))
	require.NoError(t, err)
	require.Equal(t, "hi\n", string(b))
}

// TestRunFailureExitCode: a turn that cannot run exits non-zero with the reason.
func TestRunFailureExitCode(t *testing.T) {
	e := newEnv(t, `[]`)
	_, errOut, code := e.run("run", "--model", "nowhere/x", "hello")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "unknown provider \"nowhere\"")
	_, errOut, code = e.run("run")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "a prompt is required")
}

// TestSessionsResumeAndFork continues a session and forks it.
func TestSessionsResumeAndFork(t *testing.T) {
	e := newEnv(t, `[{"events": [{"type": "text_delta", "text": "first"}]}, {"events": [{"type": "text_delta", "text": "second"}]}]`)
	_, errOut, code := e.run("run", "one")
	require.Equal(t, 0, code, errOut)
	id := strings.Fields(errOut[strings.Index(errOut, "session ses_"):])[1]
	out, errOut, code := e.run("sessions", "resume", id, "two")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "second")
	out, errOut, code = e.run("sessions", "fork", id)
	require.Equal(t, 0, code, errOut)
	forkID := strings.TrimSpace(out)
	require.True(t, strings.HasPrefix(forkID, "ses_"))
	list, _, _ := e.run("sessions", "list")
	require.Contains(t, list, forkID)
	require.Contains(t, list, "(fork)")
	_, errOut, code = e.run("sessions", "fork", "ses_missing")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "not found")
}

// TestServeRequiresPassword starts `openvibe serve` on loopback and drives it over HTTP.
func TestServeRequiresPassword(t *testing.T) {
	e := newEnv(t, `[{"events": [{"type": "text_delta", "text": "served"}]}]`)
	addr := testenv.FreeAddr(t)

	_, errOut, code := e.run("serve", "--addr", "0.0.0.0:0")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "only listens on loopback")

	cmd := exec.Command(binary, "serve", "--addr", addr)
	cmd.Dir, cmd.Env = e.work, e.vars
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			require.NoError(t, err, "serve must exit cleanly on SIGINT")
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatal("serve did not stop")
		}
	}()
	sc := bufio.NewScanner(stdout)
	password := ""
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "password: "); ok {
			password = p
			break
		}
	}
	require.NotEmpty(t, password)
	go func() { // drain
		for sc.Scan() {
		}
	}()

	call := func(method, path, token string, body any, out any) int {
		var rd *bytes.Reader
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
		req, err := http.NewRequest(method, "http://"+addr+path, rd)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		if out != nil {
			_ = json.NewDecoder(resp.Body).Decode(out)
		}
		return resp.StatusCode
	}
	require.Equal(t, http.StatusUnauthorized, call("GET", "/agent/session", "", nil, nil))
	require.Equal(t, http.StatusUnauthorized, call("GET", "/agent/session", "wrong", nil, nil))
	var s map[string]any
	require.Equal(t, http.StatusCreated, call("POST", "/agent/session", password, map[string]any{"directory": e.work}, &s))
	var res map[string]any
	require.Equal(t, http.StatusOK, call("POST", "/agent/session/"+s["id"].(string)+"/message", password,
		map[string]any{"text": "hi", "wait": true}, &res))
	require.Contains(t, fmt.Sprint(res["message"]), "served")
	require.Equal(t, http.StatusOK, call("GET", "/healthz", "", nil, nil))
}

// TestRunFormatJSON: --format json prints one document with the turn's outcome, text,
// usage and messages; the exit code agrees with its status.
func TestRunFormatJSON(t *testing.T) {
	e := newEnv(t, bashScript)
	out, errOut, code := e.run("run", "--yes", "--format", "json", "make a file")
	require.Equal(t, 0, code, errOut)
	var res struct {
		SessionID string `json:"session_id"`
		Status    string `json:"status"`
		ExitCode  int    `json:"exit_code"`
		Text      string `json:"text"`
		ToolCalls int    `json:"tool_calls"`
		Messages  []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Equal(t, "completed", res.Status)
	require.Equal(t, "All done.", res.Text)
	require.Equal(t, 1, res.ToolCalls)
	require.Equal(t, "user", res.Messages[0].Role)
	require.True(t, strings.HasPrefix(res.SessionID, "ses_"))

	out, _, code = e.run("run", "--format", "json", "make a file")
	require.Equal(t, 3, code)
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Equal(t, "denied", res.Status)
	require.Equal(t, 3, res.ExitCode)

	out, _, code = e.run("run", "--format", "json", "--model", "nowhere/x", "hello")
	require.Equal(t, 1, code)
	require.Contains(t, out, `"status": "failed"`)
	_, errOut, code = e.run("run", "--format", "yaml", "hello")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "want text, json or ndjson")
}

// TestRunNDJSONIntoJQ: --format ndjson piped into jq shows each part while the turn is
// still running, ends with run.finished, and the pipeline's status is the run's.
func TestRunNDJSONIntoJQ(t *testing.T) {
	jq, err := exec.LookPath("jq")
	if err != nil {
		if os.Getenv("REQUIRE_SERVICES") == "1" {
			t.Fatal("jq is not installed")
		}
		t.Skip("jq is not installed")
	}
	e := newEnv(t, `[
 {"events": [{"type": "text_delta", "text": "Looking."},
             {"type": "tool_call", "tool_call": {"id": "c1", "name": "bash", "input": {"command": "echo hi"}}}]},
 {"delay_ms": 1500, "events": [{"type": "text_delta", "text": "Done."}]}
]`)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c",
		binary+` run --yes --format ndjson "look" | `+jq+` -c --unbuffered '[.type, .properties.type // .properties.status // ""]'`)
	cmd.Dir, cmd.Env = e.work, e.vars
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	var lines []string
	var toolSeen time.Time
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == `["part.updated","tool"]` && toolSeen.IsZero() {
			toolSeen = time.Now()
		}
	}
	require.NoError(t, cmd.Wait())
	require.False(t, toolSeen.IsZero(), "%v", lines)
	// The last step waits 1.5 s: the tool call was on the screen well before the end.
	require.Greater(t, time.Since(toolSeen), time.Second, "parts are printed as they happen")
	require.Contains(t, lines, `["part.updated","text"]`)
	require.Contains(t, lines, `["part.delta",""]`)
	require.Equal(t, `["run.finished","completed"]`, lines[len(lines)-1])

	failing := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", binary+` run --format ndjson --model nowhere/x "x" | `+jq+` -c .type`)
	failing.Dir, failing.Env = e.work, e.vars
	out, err := failing.Output()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 1, ee.ExitCode())
	require.Contains(t, string(out), `"run.finished"`)
}

// TestExportImport: a session exported to a file and imported again is a new session with
// the same history, in the directory given; a file that is not an export is refused.
func TestExportImport(t *testing.T) {
	e := newEnv(t, bashScript)
	_, errOut, code := e.run("run", "--yes", "make a file")
	require.Equal(t, 0, code, errOut)
	id := strings.Fields(errOut[strings.Index(errOut, "session ses_"):])[1]
	file := filepath.Join(t.TempDir(), "export.json")
	_, errOut, code = e.run("export", id, "--out", file)
	require.Equal(t, 0, code, errOut)
	var doc struct {
		Format   string `json:"format"`
		Messages []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"messages"`
	}
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Equal(t, "openvibe.session", doc.Format)
	require.Len(t, doc.Messages, 3)

	other := t.TempDir()
	out, errOut, code := e.run("import", file, "--dir", other)
	require.Equal(t, 0, code, errOut)
	newID := strings.TrimSpace(out)
	require.NotEqual(t, id, newID)
	list, _, _ := e.run("sessions", "list")
	require.Contains(t, list, newID)
	require.Contains(t, list, other)
	out, _, code = e.run("export", newID)
	require.Equal(t, 0, code)
	var again struct {
		Messages []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &again))
	require.Len(t, again.Messages, 3)
	for i := range again.Messages {
		require.Equal(t, doc.Messages[i].Role, again.Messages[i].Role)
		require.NotEqual(t, doc.Messages[i].ID, again.Messages[i].ID, "fresh IDs")
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"format": "something else", "version": 1}`), 0o644))
	_, errOut, code = e.run("import", bad)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "not an openvibe session export")
	_, errOut, code = e.run("export", "ses_missing")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "not found")
}

// TestStats: openvibe stats adds up the tokens and cost of every model call, by model and
// by day.
func TestStats(t *testing.T) {
	e := newEnv(t, `[{"events": [{"type": "text_delta", "text": "ok"},
		{"type": "done", "usage": {"input_tokens": 1000, "output_tokens": 100}}]}]`)
	script := filepath.Join(e.home, "script.json")
	for i, v := range e.vars {
		if strings.HasPrefix(v, "OPENVIBE_CONFIG_CONTENT=") {
			e.vars[i] = fmt.Sprintf(`OPENVIBE_CONFIG_CONTENT={"model": "demo/scripted", "provider": {"demo": {"type": "scripted",
				"options": {"script": %q}, "models": {"scripted": {"cost": {"input": 1, "output": 2}}}}}}`, script)
		}
	}
	for range 2 {
		_, errOut, code := e.run("run", "hello")
		require.Equal(t, 0, code, errOut)
	}
	out, errOut, code := e.run("stats", "--json")
	require.Equal(t, 0, code, errOut)
	var rep map[string]struct {
		Total struct {
			Calls        int     `json:"calls"`
			InputTokens  int64   `json:"input_tokens"`
			OutputTokens int64   `json:"output_tokens"`
			Cost         float64 `json:"cost"`
		} `json:"total"`
		Rows []struct {
			Key string `json:"key"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Equal(t, 2, rep["model"].Total.Calls)
	require.EqualValues(t, 2000, rep["model"].Total.InputTokens)
	require.EqualValues(t, 200, rep["model"].Total.OutputTokens)
	require.InDelta(t, 2000*1e-6+200*2e-6, rep["model"].Total.Cost, 1e-12)
	require.Equal(t, "demo/scripted", rep["model"].Rows[0].Key)
	today := time.Now().UTC().Format(time.DateOnly)
	require.Equal(t, today, rep["day"].Rows[0].Key)

	out, _, code = e.run("stats")
	require.Equal(t, 0, code)
	require.Contains(t, out, "demo/scripted")
	require.Contains(t, out, today)
	require.Contains(t, out, "$0.0024")
	_, errOut, code = e.run("stats", "--days", "-1")
	require.Equal(t, 2, code, errOut)
}
