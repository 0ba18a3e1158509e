package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

var urlRE = regexp.MustCompile(`running at (http://\S+)`)

// start runs the standalone server on a free port with the given data directory and returns
// its base URL and a stop function that waits for a clean exit.
func start(t *testing.T, dataDir string, args ...string) (string, *testenv.Buffer, func()) {
	t.Helper()
	env := map[string]string{"OPENVIBE_ADDR": "127.0.0.1:0", "OPENVIBE_DATA_DIR": dataDir, "OPENVIBE_LOG_LEVEL": "warn"}
	out := &testenv.Buffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve"}, args...), func(k string) string { return env[k] }, out, io.Discard)
	}()
	var base string
	require.Eventually(t, func() bool {
		m := urlRE.FindStringSubmatch(out.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	}, 60*time.Second, 20*time.Millisecond, "server did not start: %s", out.String())
	stop := func() {
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("server did not stop")
		}
	}
	return base, out, stop
}

func call(t *testing.T, method, url, bearer string, body any, into any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if into != nil && len(raw) > 0 {
		require.NoError(t, json.Unmarshal(raw, into), string(raw))
	}
	return resp.StatusCode
}

// The standalone server serves every service on one port, and everything it stored is there
// after a restart on the same data directory.
func TestServesAndSurvivesRestart(t *testing.T) {
	dataDir := t.TempDir()
	base, out, stop := start(t, dataDir)
	require.Contains(t, out.String(), base+"/studio")

	require.Equal(t, http.StatusOK, call(t, "GET", base+"/healthz", "", nil, nil))
	var reg struct {
		User  struct{ ID int64 } `json:"user"`
		Token string             `json:"token"`
	}
	require.Equal(t, http.StatusCreated, call(t, "POST", base+"/api/auth/register", "",
		map[string]string{"username": "ada", "password": "correct horse battery"}, &reg))
	var slot struct{ ID int64 }
	require.Equal(t, http.StatusCreated, call(t, "POST", base+"/api/managed-streams", reg.Token,
		map[string]string{"slug": "camp-code", "title": "Night Bus Refactor"}, &slot))
	var tok struct{ Token string }
	require.Equal(t, http.StatusCreated, call(t, "POST", base+"/api/tokens", reg.Token,
		map[string]any{"name": "laptop", "scopes": []string{"vibe_coding_publish"}}, &tok))
	require.True(t, strings.HasPrefix(tok.Token, "hbt_"))
	require.Equal(t, http.StatusOK, call(t, "PUT", fmt.Sprintf("%s/api/vibe-coding/managed/%d/settings", base, slot.ID), reg.Token,
		map[string]any{"settings": map[string]any{"delay_ms": 1500}}, nil))
	require.Equal(t, http.StatusUnauthorized, call(t, "GET", base+"/api/me", "", nil, nil))
	// The agent runner is mounted too, behind the same accounts: a session in the user's
	// confined workspace.
	var sess struct{ ID string }
	require.Equal(t, http.StatusCreated, call(t, "POST", base+"/agent/session", reg.Token,
		map[string]string{"directory": ".", "title": "first"}, &sess))
	require.NotEmpty(t, sess.ID)
	require.Equal(t, http.StatusUnauthorized, call(t, "GET", base+"/agent/session", "", nil, nil))
	stop()

	base, _, stop = start(t, dataDir)
	defer stop()
	// The session token from before the restart is still valid (the generated JWT secret is
	// kept in the data directory), and the slot, token and settings are all still there.
	var slots struct {
		ManagedStreams []struct{ Slug string } `json:"managed_streams"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", base+"/api/managed-streams", reg.Token, nil, &slots))
	require.Len(t, slots.ManagedStreams, 1)
	require.Equal(t, "camp-code", slots.ManagedStreams[0].Slug)
	var settings struct {
		Settings struct {
			DelayMs int `json:"delay_ms"`
		} `json:"settings"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", fmt.Sprintf("%s/api/vibe-coding/managed/%d/settings", base, slot.ID), reg.Token, nil, &settings))
	require.Equal(t, 1500, settings.Settings.DelayMs)
	var login struct{ Token string }
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/api/auth/login", "",
		map[string]string{"username": "ADA", "password": "correct horse battery"}, &login))
	require.Equal(t, http.StatusOK, call(t, "GET", base+"/api/me", tok.Token, nil, nil))
	var sessions []struct{ ID string }
	require.Equal(t, http.StatusOK, call(t, "GET", base+"/agent/session", reg.Token, nil, &sessions))
	require.Len(t, sessions, 1, "agent sessions survive the restart")
	require.Equal(t, sess.ID, sessions[0].ID)
}

// --demo seeds an account and slot and publishes through the real gateway, so the public
// feed fills within seconds, with the planted API key and home path removed by the server.
func TestDemo(t *testing.T) {
	base, out, stop := start(t, t.TempDir(), "--demo")
	defer stop()
	var password string
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`Demo studio login: demo / (\S+)`).FindStringSubmatch(out.String())
		if m != nil {
			password = m[1]
		}
		return m != nil
	}, 30*time.Second, 20*time.Millisecond)
	var login struct{ Token string }
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/api/auth/login", "",
		map[string]string{"username": "demo", "password": password}, &login))
	// Show tool arguments, so the feed carries the command with the planted key.
	require.Equal(t, http.StatusOK, call(t, "PUT", base+"/api/vibe-coding/managed/1/settings", login.Token,
		map[string]any{"settings": map[string]any{"show_tool_arguments": 1}}, nil))

	var feed struct {
		Events []struct {
			EventType string `json:"eventType"`
			Tool      *struct {
				Name             string `json:"name"`
				ArgumentsPreview string `json:"argumentsPreview"`
			} `json:"tool"`
		} `json:"events"`
	}
	var bashArgs string
	require.Eventually(t, func() bool {
		if call(t, "GET", base+"/api/vibe-coding/channel/demo/live-demo/events", "", nil, &feed) != http.StatusOK {
			return false
		}
		for _, ev := range feed.Events {
			if ev.Tool != nil && ev.Tool.Name == "bash" && ev.Tool.ArgumentsPreview != "" {
				bashArgs = ev.Tool.ArgumentsPreview
				return true
			}
		}
		return false
	}, 60*time.Second, 250*time.Millisecond, "no bash event with arguments in the demo feed: %s", out.String())
	require.Contains(t, bashArgs, "go test")
	require.Contains(t, bashArgs, "[redacted")
	require.NotContains(t, bashArgs, "sk-proj-Zx81")
	var history struct {
		Events []map[string]any `json:"events"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", base+"/api/vibe-coding/managed/1/events?limit=100", login.Token, nil, &history))
	raw, err := json.Marshal(history)
	require.NoError(t, err)
	require.NotContains(t, string(raw), "sk-proj-Zx81", "the stored events themselves are sanitized")
	require.NotContains(t, string(raw), "/home/ada")
}
