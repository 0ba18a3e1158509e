package serve

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// requireBwrap skips unless bubblewrap can run here (a failure under REQUIRE_SERVICES=1).
func requireBwrap(t *testing.T) {
	t.Helper()
	path, err := exec.LookPath("bwrap")
	if err == nil {
		err = exec.Command(path, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true").Run()
	}
	if err != nil {
		if os.Getenv("REQUIRE_SERVICES") == "1" {
			t.Fatalf("bubblewrap cannot run here: %v", err)
		}
		t.Skipf("bubblewrap cannot run here: %v", err)
	}
}

// TestSandboxShowsOnlyTheWorkspace: with the sandbox on, a command sees the system
// directories and its own project, nothing of the server's data directory (its JWT secret
// and databases), other users' workspaces, the server's home or environment, nor
// /etc/shadow — and still works in its project.
func TestSandboxShowsOnlyTheWorkspace(t *testing.T) {
	requireBwrap(t)
	p := newProvider(t)
	svc := startService(t, config(p, nil), "OPENVIBE_AGENT_SANDBOX=bwrap", "OPENAI_API_KEY=sk-server-secret-4711")
	aliceID, alice := svc.user("alice")
	bobID, _ := svc.user("bob")
	writeFile(t, filepath.Join(svc.workspace(bobID), "diary.txt"), "bob's secret diary")
	writeFile(t, filepath.Join(svc.data, "home", ".config", "openvibe", "openvibe.json"), `{"provider":{"x":{"api_key":"home-secret"}}}`)
	app := project(t, svc.workspace(aliceID), "app")
	writeJSON(t, filepath.Join(app, "openvibe.json"), map[string]any{"permission": allowAll})
	c := svc.client(t, alice)
	s := c.createSession("app")

	probes := []string{
		"cat " + filepath.Join(svc.data, "jwt-secret"),
		"ls " + svc.data,
		"head -c 100 " + filepath.Join(svc.data, "agent.db"),
		"cat " + filepath.Join(svc.workspace(bobID), "diary.txt"),
		"ls " + filepath.Join(svc.data, "workspaces"),
		"cat " + filepath.Join(svc.data, "home", ".config", "openvibe", "openvibe.json"),
		"cat /etc/shadow",
		"env",
		"echo made > made.txt && cat made.txt && ls /usr/bin/env && pwd",
	}
	var calls []call
	for _, cmd := range probes {
		calls = append(calls, bash(cmd))
	}
	p.script(reply{Calls: calls}, reply{Text: "probed"})
	require.Empty(t, c.turn(s.ID, "look around"))
	tps := c.toolParts(s.ID)
	require.Len(t, tps, len(probes))
	shadow := readFile(t, "/etc/shadow")
	for i, tp := range tps {
		require.Equal(t, message.ToolCompleted, tp.State, "%s: %s", probes[i], tp.Error)
		out := tp.Output
		require.NotContains(t, out, jwtSecret, probes[i])
		require.NotContains(t, out, "SQLite format", probes[i])
		require.NotContains(t, out, "bob's secret diary", probes[i])
		require.NotContains(t, out, "home-secret", probes[i])
		require.NotContains(t, out, "sk-server-secret-4711", probes[i])
		require.NotContains(t, out, "OPENVIBE_", probes[i])
		if shadow != "" {
			require.NotContains(t, out, strings.SplitN(shadow, "\n", 2)[0], probes[i])
		}
	}
	for _, i := range []int{0, 2, 3, 5, 6} {
		require.NotContains(t, tps[i].Output, "[exit code 0]", "%s must fail", probes[i])
	}
	// The directories above the project exist only as the mount points that hold it.
	for _, name := range []string{"jwt-secret", "agent.db", "openvibe.db", "home", "snapshots"} {
		require.NotContains(t, tps[1].Output, name)
	}
	require.NotContains(t, tps[4].Output, filepath.Base(svc.workspace(bobID)))
	last := tps[len(tps)-1].Output
	require.Contains(t, last, "made\n")
	require.Contains(t, last, "/usr/bin/env")
	require.Contains(t, last, app)
	require.Equal(t, "made\n", readFile(t, filepath.Join(app, "made.txt")))
}

// TestSessionLinkRefusesInternalAddresses: a user cannot make the runner connect to a
// loopback, private or link-local address through a session link; nothing reaches such a
// server, and the answer says why.
func TestSessionLinkRefusesInternalAddresses(t *testing.T) {
	var hits atomic.Int32
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(internal.Close)
	p := newProvider(t)
	svc := startService(t, config(p, nil), "OPENVIBE_AGENT_SANDBOX=none")
	aliceID, alice := svc.user("alice")
	project(t, svc.workspace(aliceID), "app")
	c := svc.client(t, alice)
	s := c.createSession("app")
	for _, server := range []string{internal.URL + "/admin?x=1", "http://10.1.2.3:8080", "http://169.254.169.254/latest",
		"http://[::1]:9", "http://localhost:" + strings.TrimPrefix(internal.URL, "http://127.0.0.1:")} {
		code, body := c.send(http.MethodPut, "/agent/session/"+s.ID+"/link",
			map[string]any{"server": server, "token": "hbt_x", "managed_stream_id": 1})
		require.Equal(t, http.StatusBadRequest, code, "%s: %s", server, body)
		require.Contains(t, apiError(t, body), "not a public address", server)
	}
	require.Zero(t, hits.Load(), "the internal server was never called")
}

// TestSessionLinkAllowList: the operator may allow the platform's own gateway on a
// private address.
func TestSessionLinkAllowList(t *testing.T) {
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(gateway.Close)
	p := newProvider(t)
	svc := startService(t, config(p, nil), "OPENVIBE_AGENT_SANDBOX=none", "OPENVIBE_AGENT_PUBLISH_ALLOWED_SERVERS="+gateway.URL)
	aliceID, alice := svc.user("alice")
	project(t, svc.workspace(aliceID), "app")
	c := svc.client(t, alice)
	s := c.createSession("app")
	code, body := c.send(http.MethodPut, "/agent/session/"+s.ID+"/link",
		map[string]any{"server": gateway.URL, "token": "hbt_x", "managed_stream_id": 1})
	require.Equal(t, http.StatusOK, code, string(body))
}

// TestCrossSiteCookieWritesRefused: a write carried by the session cookie from another site
// is refused with 403, as the api refuses it; the same request from the site itself, or with
// a bearer token, goes through.
func TestCrossSiteCookieWritesRefused(t *testing.T) {
	p := newProvider(t)
	svc := startService(t, config(p, nil), "OPENVIBE_AGENT_SANDBOX=none")
	_, alice := svc.user("alice")
	c := &client{t: t, base: svc.URL()}
	cookie := func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "ov_token", Value: alice}) }
	form := func(r *http.Request) {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Body = http.NoBody
	}
	crossSite := func(r *http.Request) {
		r.Header.Set("Origin", "https://evil.example")
		r.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	code, body := c.send(http.MethodPost, "/agent/session", nil, cookie, form, crossSite)
	require.Equal(t, http.StatusForbidden, code, string(body))
	code, _ = c.send(http.MethodPost, "/agent/session", nil, cookie, form,
		func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") })
	require.Equal(t, http.StatusForbidden, code, "no Origin, but the browser says cross-site")
	code, body = c.send(http.MethodGet, "/agent/session", nil, cookie, crossSite)
	require.Equal(t, http.StatusOK, code, "reads are not writes: %s", body)
	u, _ := url.Parse(svc.URL())
	code, body = c.send(http.MethodPost, "/agent/session", map[string]any{}, cookie,
		func(r *http.Request) { r.Header.Set("Origin", "http://"+u.Host) })
	require.Equal(t, http.StatusCreated, code, "same origin: %s", body)
	code, body = c.send(http.MethodPost, "/agent/session", map[string]any{}, bearer(alice), crossSite)
	require.Equal(t, http.StatusCreated, code, "a bearer token is not sent by a browser on its own: %s", body)
}

// TestCrossSiteBasicAuthRefusedLocally: a browser that once logged in to `openvibe serve`
// with Basic auth sends it to every request, a cross-site one too; those writes are
// refused.
func TestCrossSiteBasicAuthRefusedLocally(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, nil))
	c := &client{t: t, base: ov.URL()}
	basic := func(r *http.Request) { r.SetBasicAuth("openvibe", ov.password) }
	dir := project(t, t.TempDir(), "app")
	code, _ := c.send(http.MethodPost, "/agent/session", map[string]any{"directory": dir}, basic,
		func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") })
	require.Equal(t, http.StatusForbidden, code)
	code, _ = c.send(http.MethodPost, "/agent/session", map[string]any{"directory": dir}, basic)
	require.Equal(t, http.StatusCreated, code)
}

// TestSessionDirectoryOutsideWorkspace: a directory outside the caller's workspace is
// refused before the server looks at it, with the same answer whether it exists, is a
// file or is missing, and no server path in it.
func TestSessionDirectoryOutsideWorkspace(t *testing.T) {
	p := newProvider(t)
	svc := startService(t, config(p, nil), "OPENVIBE_AGENT_SANDBOX=none")
	aliceID, alice := svc.user("alice")
	bobID, _ := svc.user("bob")
	writeFile(t, filepath.Join(svc.workspace(bobID), "secret.txt"), "x")
	require.NoError(t, os.MkdirAll(filepath.Join(svc.workspace(bobID), "proj"), 0o755))
	require.NoError(t, os.MkdirAll(svc.workspace(aliceID), 0o755))
	c := svc.client(t, alice)
	bob := "../" + filepath.Base(svc.workspace(bobID))
	var answers []string
	for _, dir := range []string{bob + "/secret.txt", bob + "/proj", bob + "/missing", filepath.Join(svc.workspace(bobID), "proj"), "/etc"} {
		code, body := c.send(http.MethodPost, "/agent/session", map[string]any{"directory": dir})
		require.Equal(t, http.StatusBadRequest, code, "%s: %s", dir, body)
		msg := apiError(t, body)
		require.NotContains(t, msg, svc.data, "no server paths")
		require.Contains(t, msg, "outside your workspace")
		answers = append(answers, strings.ReplaceAll(msg, dir, "DIR"))
	}
	for _, a := range answers {
		require.Equal(t, answers[0], a, "one answer for every outside path")
	}
	// Inside the workspace, a missing directory is named relative to it.
	code, body := c.send(http.MethodPost, "/agent/session", map[string]any{"directory": "nope"})
	require.Equal(t, http.StatusBadRequest, code)
	require.NotContains(t, apiError(t, body), svc.data)
	require.Contains(t, apiError(t, body), "nope does not exist")
}
