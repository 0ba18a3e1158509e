package main

// End-to-end tests: the vibe-publish binary publishes into a real OpenVibe.Live server (the
// standalone binary: gateway, chat socket and api on one port, SQLite, in-process broker),
// and a viewer on the chat socket receives the frames.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
	"openvibe.live/backend/shared/viewerclient"
)

var bins struct {
	publish, server string
}

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{"clients/vibe-publish": &bins.publish, "services/standalone": &bins.server}))
}

// Secrets and paths planted in the fixtures; no viewer frame may contain them.
var planted = []string{
	"AKIAZ7QW3RT5YU8IOPLK", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp",
	"ghp_R7mK2xQ9vL4pW8nT1yH6bF3cJ5dG0sA8eU2i", "sk-ant-api03-Zq8vR2mK9xL4pW7nT1yH6bF3cJ5dG0sA8eU2i",
	"Hunter2Secret9", "/home/streamer",
}

// server is a running standalone OpenVibe.Live with one user, slot and tokens.
type server struct {
	base, jwt, token, readToken string
	slotID                      int64
	dataDir, addr               string
	cmd                         *exec.Cmd
}

func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{dataDir: t.TempDir(), addr: testenv.FreeAddr(t)}
	s.start(t)
	s.bootstrap(t)
	return s
}

// start runs the server process on s.addr, a port reserved for the test, so that a restart
// finds it free.
func (s *server) start(t *testing.T) {
	t.Helper()
	cmd := exec.Command(bins.server)
	cmd.Env = append(os.Environ(), "OPENVIBE_DATA_DIR="+s.dataDir, "OPENVIBE_ADDR="+s.addr,
		"OPENVIBE_LOG_LEVEL=warn", "OPENVIBE_REDIS_URL=", "OPENVIBE_DATABASE_URL=", "OPENVIBE_PUBLIC_URL=")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr testenv.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	s.cmd = cmd
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	baseCh := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`running at (http://(127\.0\.0\.1:\d+))`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				baseCh <- m[1]
			}
		}
	}()
	select {
	case s.base = <-baseCh:
		s.addr = strings.TrimPrefix(s.base, "http://")
	case <-time.After(30 * time.Second):
		t.Fatalf("server did not start: %s", stderr.String())
	}
}

// crash kills the server without letting it shut down.
func (s *server) crash(t *testing.T) {
	t.Helper()
	require.NoError(t, s.cmd.Process.Kill())
	_ = s.cmd.Wait()
}

func (s *server) bootstrap(t *testing.T) {
	t.Helper()
	var reg struct {
		Token string `json:"token"`
	}
	s.call(t, "POST", "/api/auth/register", "", `{"username":"ada","password":"correct horse battery"}`, 201, &reg)
	s.jwt = reg.Token
	var slot struct {
		ID int64 `json:"id"`
	}
	s.call(t, "POST", "/api/managed-streams", s.jwt, `{"slug":"camp-code","title":"Night Bus"}`, 201, &slot)
	s.slotID = slot.ID
	var tok struct {
		Token string `json:"token"`
	}
	s.call(t, "POST", "/api/tokens", s.jwt, `{"name":"laptop","scopes":["vibe_coding_publish"]}`, 201, &tok)
	s.token = tok.Token
	s.call(t, "POST", "/api/tokens", s.jwt, `{"name":"reader","scopes":["read"]}`, 201, &tok)
	s.readToken = tok.Token
	s.call(t, "POST", fmt.Sprintf("/api/managed-streams/%d/live", s.slotID), s.jwt, ``, 201, nil)
}

// newSlot makes another live slot of the same user and returns its id.
func (s *server) newSlot(t *testing.T, slug string) int64 {
	t.Helper()
	var slot struct {
		ID int64 `json:"id"`
	}
	s.call(t, "POST", "/api/managed-streams", s.jwt, `{"slug":"`+slug+`","title":"Night Bus"}`, 201, &slot)
	s.call(t, "POST", fmt.Sprintf("/api/managed-streams/%d/live", slot.ID), s.jwt, ``, 201, nil)
	return slot.ID
}

// history returns the slot's stored events (event id → sequence), all pages.
func (s *server) history(t *testing.T) map[string]int64 { return s.historyOf(t, s.slotID) }

func (s *server) historyOf(t *testing.T, slotID int64) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	before := ""
	for {
		var page struct {
			Events []struct {
				Seq     int64  `json:"seq"`
				EventID string `json:"event_id"`
			} `json:"events"`
			NextBefore *int64 `json:"next_before"`
		}
		s.call(t, "GET", fmt.Sprintf("/api/vibe-coding/managed/%d/events?limit=200%s", slotID, before), s.jwt, "", 200, &page)
		for _, e := range page.Events {
			_, dup := out[e.EventID]
			require.False(t, dup, "event %s stored twice", e.EventID)
			out[e.EventID] = e.Seq
		}
		if page.NextBefore == nil {
			return out
		}
		before = fmt.Sprintf("&before=%d", *page.NextBefore)
	}
}

func (s *server) call(t *testing.T, method, path, bearer, body string, want int, out any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.base+path, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	require.Equal(t, want, resp.StatusCode, "%s %s: %s", method, path, data)
	if out != nil {
		require.NoError(t, json.Unmarshal(data, out), string(data))
	}
}

// viewer is a chat-socket connection collecting vibe-coding frames.
type viewer struct {
	slug string
	rec  *viewerclient.Recorder
}

func watch(t *testing.T, s *server) *viewer { return watchSlot(t, s, "camp-code") }

// watchSlot joins a slot's chat socket as a viewer.
func watchSlot(t *testing.T, s *server, slug string) *viewer {
	t.Helper()
	c, err := viewerclient.Dial(t.Context(), s.base, viewerclient.Options{Username: "ada", Slot: slug, ReadLimit: 1 << 20})
	require.NoError(t, err)
	v := &viewer{slug: slug, rec: viewerclient.Record(c)}
	t.Cleanup(v.rec.Close)
	return v
}

// snapshot returns the vibe-coding frames so far, and their raw text.
func (v *viewer) snapshot() ([]vibe.ViewerFrame, string) {
	var frames []vibe.ViewerFrame
	var raw []string
	for _, f := range v.rec.Frames() {
		if vf, err := f.Vibe(); err == nil {
			frames = append(frames, vf)
			raw = append(raw, string(f.Raw))
		}
	}
	return frames, strings.Join(raw, "\n")
}

// waitFrames waits for n frames, then makes sure no more arrive.
func (v *viewer) waitFrames(t *testing.T, n int) []vibe.ViewerFrame {
	t.Helper()
	require.Eventually(t, func() bool { f, _ := v.snapshot(); return len(f) >= n }, 20*time.Second, 20*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	frames, raw := v.snapshot()
	require.Len(t, frames, n, raw)
	require.Empty(t, v.rec.Malformed(), "every message is one JSON object")
	for _, p := range planted {
		require.NotContains(t, raw, p, "a planted secret or path reached a viewer")
	}
	for i, f := range frames {
		require.Equal(t, v.slug, f.SlotSlug)
		if i > 0 {
			require.Greater(t, f.Seq, frames[i-1].Seq, "frames in sequence order")
		}
	}
	return frames
}

func publish(t *testing.T, stdin io.Reader, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.publish, args...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = stdin
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func types(frames []vibe.ViewerFrame) []string {
	var out []string
	for _, f := range frames {
		out = append(out, f.Event.EventType)
	}
	return out
}

func TestClaudeCodeTranscriptReachesViewers(t *testing.T) {
	s := startServer(t)
	v := watch(t, s)
	fixture := filepath.Join("internal", "claudecode", "testdata", "session.jsonl")
	args := []string{"--server", s.base, "--token", s.token, "--slot", "camp-code", "claude-code", "--transcript", fixture, "--once"}
	out, err := publish(t, nil, args...)
	require.NoError(t, err, out)
	require.Contains(t, out, "17 events sent, 17 acked, 0 dropped, 0 rejected")

	// Default settings hide thinking: 16 of the 17 events reach viewers.
	frames := v.waitFrames(t, 16)
	want := []string{"prompt", "response", "tool.call", "tool.call", "file.change", "tool.call", "tool.call",
		"tool.call", "tool.call", "file.change", "tool.call", "tool.call", "file.change", "tool.call", "tool.call", "response"}
	require.Equal(t, want, types(frames))
	require.Contains(t, frames[0].Event.Prompt.Text, "midnight wraparound")
	require.Equal(t, "parse.go", frames[4].Event.File.Name)

	// Publishing the same transcript again stores nothing new and shows viewers nothing new.
	out, err = publish(t, nil, args...)
	require.NoError(t, err, out)
	require.Contains(t, out, "17 acked")
	v.waitFrames(t, 16)
	require.Len(t, s.history(t), 17, "each event stored once")
}

func TestJSONLReachesViewers(t *testing.T) {
	s := startServer(t)
	v := watch(t, s)
	f, err := os.Open(filepath.Join("testdata", "events.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	out, err := publish(t, f, "--server", s.base, "--token", s.token, "--managed-stream-id", fmt.Sprint(s.slotID), "jsonl", "-")
	require.NoError(t, err, out)
	require.Contains(t, out, "8 events sent, 8 acked")
	// Thinking and the streamer-only response stay hidden.
	frames := v.waitFrames(t, 6)
	require.Equal(t, []string{"session.status", "prompt", "tool.call", "tool.call", "file.change", "response"}, types(frames))
}

func TestGitWatchReachesViewers(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := startServer(t)
	v := watch(t, s)
	repo := t.TempDir()
	out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput()
	require.NoError(t, err, string(out))
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("*.secret\n"), 0o644))

	cmd := exec.Command(bins.publish, "--server", s.base, "--token", s.token, "--slot", "camp-code",
		"git-watch", "--dir", repo, "--debounce", "100ms")
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	var logs testenv.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	require.Eventually(t, func() bool {
		return strings.Contains(logs.String(), "connected") && strings.Contains(logs.String(), "watching")
	}, 20*time.Second, 20*time.Millisecond, logs.String())

	require.NoError(t, os.WriteFile(filepath.Join(repo, "keys.secret"), []byte("x\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "cmd"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "cmd", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	frames := v.waitFrames(t, 1)
	require.Equal(t, "file.change", frames[0].Event.EventType)
	require.Equal(t, "main.go", frames[0].Event.File.Name)
	require.Equal(t, 3, frames[0].Event.File.ChangeCount)
	_, raw := v.snapshot()
	require.NotContains(t, raw, repo)

	require.NoError(t, cmd.Process.Signal(os.Interrupt)) // Ctrl-C: flush, close, exit 0
	require.NoError(t, cmd.Wait(), logs.String())
	require.Contains(t, logs.String(), "1 events sent, 1 acked")
	require.NotContains(t, logs.String(), "reconnecting", "a clean shutdown is not a disconnection")
}

func TestRefusalsAreExplained(t *testing.T) {
	s := startServer(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown token", []string{"--token", "hbt_" + strings.Repeat("A", 43), "--managed-stream-id", fmt.Sprint(s.slotID)},
			"the token was rejected: check it is valid, not expired and not revoked"},
		{"token without the scope", []string{"--token", s.readToken, "--managed-stream-id", fmt.Sprint(s.slotID)},
			"the token lacks the vibe_coding_publish scope"},
		{"someone else's or no slot", []string{"--token", s.token, "--slot", "999"}, "slot not found or not yours"},
		{"unknown slug", []string{"--token", s.token, "--slot", "nope"}, `slot "nope" not found among your slots (camp-code)`},
		{"unknown token, nothing to send", []string{"--token", "hbt_" + strings.Repeat("B", 43), "--slot", "camp-code", "--managed-stream-id", fmt.Sprint(s.slotID), "--dry-run=false"},
			"the token was rejected"},
		{"slug and id disagree on the server", []string{"--token", s.token, "--slot", "other", "--managed-stream-id", fmt.Sprint(s.slotID)},
			"the slot slug does not match the managed stream id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--server", s.base}, tc.args...)
			args = append(args, "jsonl", "-")
			start := time.Now()
			in := `{"eventType":"prompt","prompt":{"text":"hi"}}` + "\n"
			if strings.Contains(tc.name, "nothing to send") {
				in = ""
			}
			out, err := publish(t, strings.NewReader(in), args...)
			require.Error(t, err, out)
			require.Contains(t, out, tc.want)
			require.Equal(t, 1, strings.Count(out, "\n"), "one clear line: %s", out)
			require.Less(t, time.Since(start), 20*time.Second, "fails fast instead of retrying")
		})
	}
}

// The Go client keeps every event it has not seen acked and sends it again after the
// server comes back: a crash in the middle of a stream loses nothing and stores nothing twice.
func TestLibraryResendsAcrossServerCrash(t *testing.T) {
	s := startServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	c, err := publisher.Dial(ctx, publisher.Config{
		Server: s.base, Token: s.token, ManagedStreamID: s.slotID, SlotSlug: "camp-code", DisableSanitize: true,
		Publisher:  vibe.Publisher{IntegrationID: "e2e", ClientType: "service"},
		BackoffMin: 50 * time.Millisecond, BackoffMax: 500 * time.Millisecond,
	})
	require.NoError(t, err)
	defer c.Close(context.WithoutCancel(ctx))

	const n = 150
	ids := map[string]bool{}
	for i := range n {
		ev := vibe.Event{EventID: fmt.Sprintf("crash-%03d", i), EventType: vibe.TypeResponse,
			Response: &vibe.ResponseBody{Text: fmt.Sprintf("step %d", i)}}
		ids[ev.EventID] = true
		require.NoError(t, c.PublishWait(ctx, ev))
		if i == 60 { // crash with some events acked and others in flight
			require.Eventually(t, func() bool { return c.Stats().Acked >= 30 }, 20*time.Second, time.Millisecond)
			s.crash(t)
			s.start(t) // same data, same port
		}
	}
	require.NoError(t, c.Flush(ctx))

	st := c.Stats()
	require.GreaterOrEqual(t, st.Connects, int64(2), "reconnected")
	require.Equal(t, int64(n), st.Acked, "every event acked once")
	stored := s.history(t)
	require.Len(t, stored, n, "nothing lost, nothing stored twice")
	seqs := map[int64]bool{}
	for id, seq := range stored {
		require.True(t, ids[id])
		seqs[seq] = true
	}
	for i := int64(1); i <= n; i++ {
		require.True(t, seqs[i], "sequence %d present: no gaps", i)
	}
	t.Logf("connects %d, sent %d, resent %d, duplicates %d", st.Connects, st.Sent, st.Resent, st.Duplicates)
}
