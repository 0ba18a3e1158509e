package main

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

func eventJSON(key, id string) []byte {
	return []byte(`{"type":"vibe-coding.event","protocolVersion":1,"sessionKey":"` + key + `","event":{"eventId":"` + id +
		`","eventType":"response","visibility":"public","summary":"step ` + id + `","response":{"text":"done","truncated":false}}}`)
}

func helloJSON(key string) []byte {
	return []byte(`{"type":"vibe-coding.hello","protocolVersion":1,"sessionKey":"` + key + `","publisher":{"clientType":"cli"}}`)
}

// closed reads to the end and requires the close code and reason, the last message before
// it being the vibe-coding.error with the same text.
func closed(t *testing.T, ctx context.Context, c *pubclient.Client, code websocket.StatusCode, reason string) []pubclient.Message {
	t.Helper()
	got, gotReason, msgs := c.CloseError(ctx)
	require.Equal(t, code, got, "reason %q", gotReason)
	require.Equal(t, reason, gotReason)
	require.NotEmpty(t, msgs)
	last := fields(t, msgs[len(msgs)-1])
	require.Equal(t, map[string]any{"type": "vibe-coding.error", "error": reason}, last)
	return msgs[:len(msgs)-1]
}

// TestCloseCodes: one real process, one connection per close code.
func TestCloseCodes(t *testing.T) {
	dbURL := sqliteURL(t)
	f := newFixture(t, dbURL, true)
	other := newFixtureUser(t, f, "someone-else")
	gw := startGateway(t, dbURL, "OPENVIBE_GATEWAY_CONN_RATE=1", "OPENVIBE_GATEWAY_CONN_BURST=5",
		"OPENVIBE_GATEWAY_ALLOW_LEGACY_STREAM_SCOPE=false")
	readOnly := f.token2(t, store.ScopeRead)
	legacy := f.token2(t, store.ScopeStream)
	url := func(tok string, id int64, slug string) string { return pubclient.URL(gw.url, tok, id, slug) }

	refusals := []struct {
		name   string
		url    string
		code   websocket.StatusCode
		reason string
	}{
		{"4401 no token", url("", f.slot.ID, ""), 4401, "Authentication required"},
		{"4401 unknown token", url("hbt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", f.slot.ID, ""), 4401, "Authentication required"},
		{"4403 missing scope", url(readOnly, f.slot.ID, ""), 4403, "API token requires vibe_coding_publish scope"},
		{"4403 legacy scope switched off", url(legacy, f.slot.ID, ""), 4403, "API token requires vibe_coding_publish scope"},
		{"4404 unknown slot", url(f.token, 999999, ""), 4404, "Managed stream not found"},
		{"4404 someone else's slot", url(other, f.slot.ID, "camp-code"), 4404, "Managed stream not found"},
		{"4400 slug mismatch", url(f.token, f.slot.ID, "not-camp-code"), 4400, "slotSlug does not match the managed stream"},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			ctx := timeout(t)
			c, err := pubclient.Dial(ctx, tc.url, nil)
			require.NoError(t, err)
			defer c.CloseNow()
			require.Empty(t, closed(t, ctx, c, tc.code, tc.reason))
		})
	}
	t.Run("4429 rate limit", func(t *testing.T) {
		ctx := timeout(t)
		c := readyClient(t, ctx, gw.url, f)
		for i := range 10 {
			_ = c.SendRaw(ctx, eventJSON("k", "rl-"+strconv.Itoa(i)))
		}
		before := closed(t, ctx, c, 4429, "Rate limit exceeded")
		require.Len(t, before, 4, "hello and 4 events fit the burst of 5: the 4 events are acked first")
	})
	t.Run("1009 message too large", func(t *testing.T) {
		ctx := timeout(t)
		c := readyClient(t, ctx, gw.url, f)
		require.NoError(t, c.SendRaw(ctx, []byte(`{"type":"vibe-coding.ping","pad":"`+strings.Repeat("x", 300<<10)+`"}`)))
		closed(t, ctx, c, 1009, "Message too large (limit 262144 bytes)")
	})
	t.Run("1001 shutdown", func(t *testing.T) {
		ctx := timeout(t)
		c := readyClient(t, ctx, gw.url, f)
		require.NoError(t, gw.cmd.Process.Signal(syscall.SIGTERM))
		closed(t, ctx, c, 1001, "Server shutting down")
		select {
		case err := <-gw.done:
			require.NoError(t, err, "exit status 0 after a graceful shutdown")
		case <-time.After(30 * time.Second):
			t.Fatal("gateway did not exit")
		}
	})
}

// newFixtureUser adds another user with a publish token (but no slot of f's).
func newFixtureUser(t *testing.T, f *fixture, name string) string {
	t.Helper()
	u, err := f.st.CreateUser(t.Context(), name, "x")
	require.NoError(t, err)
	saved := f.user
	f.user = u
	tok := f.token2(t, store.ScopeVibeCodingPublish)
	f.user = saved
	return tok
}

// readyClient connects, reads ready and says hello with session key "k".
func readyClient(t *testing.T, ctx context.Context, base string, f *fixture) *pubclient.Client {
	t.Helper()
	c, err := pubclient.Dial(ctx, pubclient.URL(base, f.token, f.slot.ID, f.slot.Slug), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.CloseNow() })
	_, err = c.Ready(ctx)
	require.NoError(t, err)
	require.NoError(t, c.SendRaw(ctx, helloJSON("k")))
	_, err = c.Expect(ctx, vibe.MsgHelloAck, nil)
	require.NoError(t, err)
	return c
}

// TestStoreBeforeAckWithBrokerKilled: with Redis killed under a running gateway, every acked
// event is in the store (acked delivered:false); before that, a duplicate eventId gives one
// row and one broadcast.
func TestStoreBeforeAckWithBrokerKilled(t *testing.T) {
	databases(t, func(t *testing.T, dbURL string) {
		redis := testenv.StartRedisServer(t)
		f := newFixture(t, dbURL, true)
		gw := startGateway(t, dbURL, "OPENVIBE_REDIS_URL="+redis.URL, "OPENVIBE_GATEWAY_PUBLISH_TIMEOUT=200ms")
		ctx := timeout(t)

		br, err := brokers.Open(ctx, redis.URL, slog.New(slog.DiscardHandler))
		require.NoError(t, err)
		defer br.Close()
		sub, err := br.Subscribe(ctx, slotbus.Channel(f.slot.ID))
		require.NoError(t, err)
		defer sub.Close()

		c := readyClient(t, ctx, gw.url, f)
		for _, id := range []string{"dup", "dup", "after"} {
			require.NoError(t, c.SendRaw(ctx, eventJSON("k", id)))
			var a vibe.Ack
			_, err := c.Expect(ctx, vibe.MsgAck, &a)
			require.NoError(t, err)
			require.True(t, a.Delivered)
		}
		var broadcast []string
		for len(broadcast) < 2 {
			select {
			case m := <-sub.Messages():
				msg, err := slotbus.Decode(m.Payload)
				if err == nil && msg.Kind == slotbus.KindEvent {
					broadcast = append(broadcast, msg.Event.EventID)
				}
			case <-ctx.Done():
				t.Fatal("broadcasts did not arrive")
			}
		}
		require.Equal(t, []string{"dup", "after"}, broadcast, "one broadcast for the duplicate")

		t.Logf("redis killed at %s", time.Now().Format("15:04:05.000"))
		redis.Kill()
		const n = 50
		for i := range n {
			require.NoError(t, c.SendRaw(ctx, eventJSON("k", "dark-"+strconv.Itoa(i))))
		}
		for i := range n {
			m, err := c.Next(ctx)
			require.NoError(t, err)
			require.Equal(t, vibe.MsgAck, m.Type, "%s", m.Raw)
			var a vibe.Ack
			require.NoError(t, m.Decode(&a))
			require.Equal(t, "dark-"+strconv.Itoa(i), a.EventID)
			require.False(t, a.Delivered, "the broker is down")
			row, err := f.st.VibeEventByEventID(ctx, f.slot.ID, a.EventID)
			require.NoError(t, err, "acked event %s is stored", a.EventID)
			require.Equal(t, a.Sequence, row.Seq)
		}
		t.Logf("all acked at %s", time.Now().Format("15:04:05.000"))
		rows, err := f.st.VibeEventsAfter(ctx, f.slot.ID, 0, 1000)
		require.NoError(t, err)
		require.Len(t, rows, n+2)
		require.NoError(t, c.Close())
		gw.stop(t)
		t.Logf("stopped at %s", time.Now().Format("15:04:05.000"))
	})
}
