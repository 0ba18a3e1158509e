// Package distributed checks the local distributed mode (scripts/up.sh, `make up`): two
// replicas of each service behind the development proxy, on PostgreSQL and Redis, used the
// way a streamer and viewers would.
package distributed

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
	"openvibe.live/backend/shared/testenv"
)

// up runs scripts/up.sh with its own state directory and proxy address.
type up struct {
	t    *testing.T
	root string
	env  []string
}

func (u *up) run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(u.root, "scripts", "up.sh")}, args...)...)
	cmd.Dir = u.root
	cmd.Env = append(os.Environ(), u.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// addresses parses `up.sh env`.
func addresses(out string) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "export ")
		if !ok {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		m[k] = strings.Trim(v, "'")
	}
	return m
}

// TestUp starts the distributed mode, then through the proxy registers a streamer, creates
// a slot and a token, goes live and publishes; viewers connected directly to each
// chat-socket replica receive every event, and the public feed shows them.
func TestUp(t *testing.T) {
	testenv.RequireServers(t)
	cluster.Exclusive(t)
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	dir, err := os.MkdirTemp("", "openvibe-e2e-up-")
	require.NoError(t, err)
	u := &up{t: t, root: root, env: []string{
		"OPENVIBE_UP_DIR=" + dir,
		fmt.Sprintf("OPENVIBE_UP_ADDR=127.0.0.1:%d", testenv.FreePort(t)),
	}}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if out, err := u.run(ctx, "stop"); err != nil {
			t.Errorf("up.sh stop: %v\n%s", err, out)
		}
		if t.Failed() {
			for _, name := range []string{"publish-gateway-1", "publish-gateway-2", "chat-socket-1", "chat-socket-2", "api-1", "api-2", "proxy"} {
				b, _ := os.ReadFile(filepath.Join(dir, name+".log"))
				t.Logf("--- %s.log:\n%s", name, lastLines(string(b), 30))
			}
		}
		_ = os.RemoveAll(dir)
	})
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	out, err := u.run(ctx, "start")
	require.NoError(t, err, out)
	out, err = u.run(ctx, "env")
	require.NoError(t, err, out)
	addrs := addresses(out)
	proxy := addrs["OPENVIBE_UP_URL"]
	require.NotEmpty(t, proxy, out)
	chats := []string{addrs["OPENVIBE_UP_CHAT_SOCKET_1"], addrs["OPENVIBE_UP_CHAT_SOCKET_2"]}
	require.NotContains(t, chats, "", out)
	require.NotEmpty(t, addrs["OPENVIBE_UP_PUBLISH_GATEWAY_2"], out)
	require.NotEmpty(t, addrs["OPENVIBE_UP_API_2"], out)

	api := cluster.NewAPI(t, proxy)
	user := api.Register("upstreamer", "correct horse battery staple")
	slot := api.CreateSlot("up-slot")
	token := api.CreateToken("up")
	api.GoLive(slot.ID)

	var viewers []*cluster.Viewer
	for _, addr := range chats {
		v := cluster.DialViewer(t, []string{addr}, user.Username, slot.Slug, cluster.ViewerOptions{})
		require.True(t, v.WaitWelcome(10*time.Second, 1), "viewer on %s welcomed", addr)
		viewers = append(viewers, v)
	}
	pub := cluster.NewPublisher(t, cluster.PublisherOptions{Server: proxy, Token: token, Slot: slot})
	want := map[string]bool{}
	for i := range 20 {
		id, err := pub.Send(fmt.Sprintf("distributed event %d", i))
		require.NoError(t, err)
		want[id] = true
	}
	fctx, fcancel := context.WithTimeout(ctx, 30*time.Second)
	defer fcancel()
	require.NoError(t, pub.Flush(fctx))
	for id := range want {
		a, _ := pub.Ack(id)
		require.True(t, a.Delivered, "ack for %s says delivered", id)
	}
	for i, v := range viewers {
		snap, ok := v.WaitEvents(15*time.Second, want)
		require.True(t, ok, "viewer on chat-socket-%d got every event (%d of %d)", i+1, len(snap.Events), len(want))
		require.Empty(t, snap.Duplicates)
		require.Zero(t, snap.OutOfOrder)
	}
	feed := api.MustFeed(user.Username, slot.Slug)
	got := map[string]bool{}
	for _, e := range feed {
		got[e.EventID] = true
	}
	require.Equal(t, want, got, "the public feed through the proxy shows every event")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
