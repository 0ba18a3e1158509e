// Package e2e runs an agent session linked to a slot through the real publish gateway and
// chat-socket processes (PostgreSQL and Redis from testenv), with a viewer on the chat socket.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/viewerclient"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/runner"
)

const jwtSecret = "agent-e2e-secret-agent-e2e-secret-0123"

var chatBinary, gatewayBinary string

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{"services/chat-socket": &chatBinary, "services/publish-gateway": &gatewayBinary}))
}

// start runs a service against the test's database and Redis and waits until it is ready.
func start(t *testing.T, name, bin, dbURL, redisURL string) *testenv.Process {
	t.Helper()
	return testenv.StartProcess(t, name, bin, []string{"PATH=" + os.Getenv("PATH"), "OPENVIBE_DATABASE_URL=" + dbURL,
		"OPENVIBE_REDIS_URL=" + redisURL, "OPENVIBE_JWT_SECRET=" + jwtSecret, "OPENVIBE_LOG_LEVEL=info",
		"OPENVIBE_CHAT_ROOM_LINGER=0s", "OPENVIBE_SHUTDOWN_TIMEOUT=5s"})
}

// dialViewer joins user/slot's chat socket on addr and records every frame.
func dialViewer(t *testing.T, addr, user, slot string) *viewerclient.Recorder {
	c, err := viewerclient.Dial(t.Context(), addr, viewerclient.Options{Username: user, Slot: slot, ReadLimit: 1 << 20})
	require.NoError(t, err)
	v := viewerclient.Record(c)
	t.Cleanup(v.Close)
	return v
}

type viewed struct {
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	Tool      *struct {
		Phase string `json:"phase"`
	} `json:"tool"`
}

// collect reads vibe-coding frames until the predicate holds on everything read so far.
func collect(t *testing.T, v *viewerclient.Recorder, got []viewed, raws []string, done func([]viewed) bool) ([]viewed, []string) {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for !done(got) {
		f, err := v.NextOf(time.Until(deadline), vibe.FrameVibeCoding)
		if errors.Is(err, viewerclient.ErrTimeout) {
			t.Fatalf("viewer frames so far: %+v", got)
		}
		require.NoError(t, err, "viewer socket closed")
		var vf struct {
			Event viewed `json:"event"`
		}
		require.NoError(t, f.Decode(&vf))
		got = append(got, vf.Event)
		raws = append(raws, string(f.Raw))
	}
	return got, raws
}

func types(evs []viewed) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventType)
	}
	return out
}

func count(evs []viewed, typ string) int {
	n := 0
	for _, e := range evs {
		if e.EventType == typ {
			n++
		}
	}
	return n
}

func call(t *testing.T, srv, method, path string, body any, want int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, srv+path, rd)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer local-pw")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	require.Equal(t, want, res.StatusCode, "%s %s: %s", method, path, raw)
	if out != nil {
		require.NoError(t, json.Unmarshal(raw, out))
	}
}

const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"

// TestLinkedSessionReachesViewers is the whole path: a scripted agent session that edits
// files, linked to a slot, published through the real gateway to a viewer on the real chat
// socket; the gateway is killed mid-session and restarted.
func TestLinkedSessionReachesViewers(t *testing.T) {
	dbURL, redisURL := testenv.Postgres(t), testenv.Redis(t)
	migrate := exec.Command(chatBinary, "migrate")
	migrate.Env = []string{"OPENVIBE_DATABASE_URL=" + dbURL, "OPENVIBE_JWT_SECRET=" + jwtSecret}
	out, err := migrate.CombinedOutput()
	require.NoError(t, err, string(out))
	ctx := t.Context()
	st, err := stores.Open(ctx, dbURL, stores.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	u, err := st.CreateUser(ctx, "ada", "x")
	require.NoError(t, err)
	slot, err := st.CreateManagedStream(ctx, u.ID, "agent-live", "Agent live", nil)
	require.NoError(t, err)
	_, _, err = st.StartLiveStream(ctx, slot.ID, time.Now())
	require.NoError(t, err)
	tok, hash, hint, err := auth.NewAPIToken()
	require.NoError(t, err)
	_, err = st.CreateAPIToken(ctx, store.APIToken{UserID: u.ID, Name: "agent", Hash: hash, Hint: hint,
		Scopes: []string{store.ScopeVibeCodingPublish}, CreatedAt: time.Now()})
	require.NoError(t, err)

	gw := start(t, "publish-gateway", gatewayBinary, dbURL, redisURL)
	chat := start(t, "chat-socket", chatBinary, dbURL, redisURL)
	v := dialViewer(t, chat.Addr, u.Username, slot.Slug)

	// The project the agent works in.
	proj := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(proj, "greet.go"), []byte("package main\n\nfunc greet() string { return \"hi\" }\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(proj, "old.txt"), []byte("obsolete\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(proj, "openvibe.json"), []byte(`{"permission":[{"tool":"*","action":"allow"}]}`), 0o644))
	greet := filepath.Join(proj, "greet.go")
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Reasoning("The greeting should be friendlier."),
			llm.Call("c1", "read", map[string]any{"file_path": greet})}},
		llm.Step{Events: []llm.Event{llm.Call("c2", "edit", map[string]any{"file_path": greet, "old_string": `"hi"`, "new_string": `"hello"`}),
			llm.Call("c3", "write", map[string]any{"file_path": filepath.Join(proj, "notes/NEW.md"), "content": "# Notes\nfriendly\n"}),
			llm.Call("c4", "bash", map[string]any{"command": "rm old.txt"})}},
		llm.Step{Events: []llm.Event{llm.Text("Done: greet() now says hello (" + secret + ").")}},
		// Second turn, published while the gateway is down.
		llm.Step{Delay: 300 * time.Millisecond, Events: []llm.Event{llm.Reasoning("One more file."),
			llm.Call("c5", "write", map[string]any{"file_path": filepath.Join(proj, "second.txt"), "content": "2\n"})}},
		llm.Step{Delay: 300 * time.Millisecond, Events: []llm.Event{llm.Text("Second turn done.")}},
	))
	r, err := runner.New(ctx, runner.Deps{Database: filepath.Join(t.TempDir(), "agent.db"), LocalPassword: "local-pw",
		PublishAllowed: []string{gw.URL()},
		Backend:        backend, DefaultModel: "scripted/test", SnapshotDir: t.TempDir(), Getenv: func(string) string { return "" }})
	require.NoError(t, err)
	e := echo.New()
	r.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(func() {
		srv.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.Shutdown(sctx)
		_ = r.Close()
	})

	var sess struct {
		ID string `json:"id"`
	}
	call(t, srv.URL, http.MethodPost, "/agent/session", map[string]any{"directory": proj}, http.StatusCreated, &sess)
	var link map[string]any
	call(t, srv.URL, http.MethodPut, "/agent/session/"+sess.ID+"/link", map[string]any{"server": gw.URL(),
		"token": tok, "managed_stream_id": slot.ID, "slot_slug": slot.Slug}, http.StatusOK, &link)
	require.NotContains(t, fmt.Sprint(link), tok, "the token is never shown back")

	call(t, srv.URL, http.MethodPost, "/agent/session/"+sess.ID+"/message",
		map[string]any{"text": "Make greet friendlier. Token for CI: " + secret, "wait": true}, http.StatusOK, nil)

	got, raws := collect(t, v, nil, nil, func(evs []viewed) bool { return count(evs, "file.change") >= 3 && count(evs, "session.status") >= 2 })
	ts := types(got)
	idx := func(typ string) int {
		for i, x := range ts {
			if x == typ {
				return i
			}
		}
		t.Fatalf("no %s in %v", typ, ts)
		return -1
	}
	require.Less(t, idx("prompt"), idx("tool.call"), "order: %v", ts)
	require.Less(t, idx("tool.call"), idx("response"), "order: %v", ts)
	require.Less(t, idx("response"), idx("file.change"), "order: %v", ts)
	for _, raw := range raws {
		require.NotContains(t, raw, secret, "sanitized")
		require.NotContains(t, raw, proj, "no absolute workspace paths")
	}
	var changes []string
	for _, raw := range raws {
		var f struct {
			Event struct {
				EventType string `json:"eventType"`
				File      struct {
					RelativePath string `json:"relativePath"`
					Operation    string `json:"operation"`
				} `json:"file"`
			} `json:"event"`
		}
		require.NoError(t, json.Unmarshal([]byte(raw), &f))
		if f.Event.EventType == "file.change" {
			changes = append(changes, f.Event.File.Operation+" "+f.Event.File.RelativePath)
		}
	}
	// Viewers see the projection (under the default settings, file names without directories).
	require.ElementsMatch(t, []string{"edit greet.go", "create NEW.md", "delete old.txt"}, changes)

	// Kill the gateway while the session goes on; restart it on the same address.
	var before struct {
		Acked int64 `json:"acked"`
	}
	call(t, srv.URL, http.MethodGet, "/agent/session/"+sess.ID+"/link", nil, http.StatusOK, &before)
	call(t, srv.URL, http.MethodPost, "/agent/session/"+sess.ID+"/message",
		map[string]any{"text": "Add a second file"}, http.StatusAccepted, nil)
	time.Sleep(400 * time.Millisecond) // the prompt and the first events are out; the turn goes on
	gw.Kill()                          // no graceful close for the publisher to see
	require.Eventually(t, func() bool {
		var s struct {
			Busy bool `json:"busy"`
		}
		call(t, srv.URL, http.MethodGet, "/agent/session/"+sess.ID, nil, http.StatusOK, &s)
		return !s.Busy
	}, 20*time.Second, 50*time.Millisecond)
	gw.StartReady(30 * time.Second) // on the same address
	var after struct {
		Published int64 `json:"published"`
		Queued    int   `json:"queued"`
		InFlight  int   `json:"in_flight"`
		Connected bool  `json:"connected"`
		Resent    int64 `json:"resent"`
		Connects  int64 `json:"connects"`
	}
	require.Eventually(t, func() bool {
		call(t, srv.URL, http.MethodGet, "/agent/session/"+sess.ID+"/link", nil, http.StatusOK, &after)
		return after.Connected && after.Queued == 0 && after.InFlight == 0 && after.Connects >= 2
	}, 40*time.Second, 100*time.Millisecond, "link caught up: %+v", after)

	got, _ = collect(t, v, got, raws, func(evs []viewed) bool { return count(evs, "file.change") >= 4 })
	seen := map[string]int{}
	for _, ev := range got {
		seen[ev.EventID]++
	}
	for id, n := range seen {
		require.Equal(t, 1, n, "viewer got %s once", id)
	}
	// Every event the link published is stored exactly once.
	stored, err := st.VibeFeed(ctx, store.FeedQuery{ManagedStreamID: slot.ID, ReceivedBefore: time.Now().Add(time.Minute), Limit: 1000})
	require.NoError(t, err)
	ids := map[string]bool{}
	for _, ev := range stored {
		require.False(t, ids[ev.EventID], "stored twice: %s", ev.EventID)
		ids[ev.EventID] = true
	}
	require.EqualValues(t, after.Published, len(ids), "published events all stored once")
	var storedPaths []string
	for _, ev := range stored {
		if ev.EventType == "file.change" {
			var p struct {
				File struct {
					RelativePath string `json:"relativePath"`
					ChangeCount  int    `json:"changeCount"`
				} `json:"file"`
			}
			require.NoError(t, json.Unmarshal(ev.Payload, &p))
			require.Positive(t, p.File.ChangeCount)
			storedPaths = append(storedPaths, p.File.RelativePath)
		}
		require.NotContains(t, string(ev.Payload), secret)
	}
	require.ElementsMatch(t, []string{"greet.go", "notes/NEW.md", "old.txt", "second.txt"}, storedPaths)
	t.Logf("published %d events, %d resent after the gateway restart, %d connects", after.Published, after.Resent, after.Connects)
}
