package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/testenv"
)

// TestChatAcrossReplicas: a logged-in viewer on one replica sends a chat message; viewers on
// both replicas receive it once, and a viewer joining later gets it in the history.
func TestChatAcrossReplicas(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	a, b := startChat(t, w.dbURL, r.URL), startChat(t, w.dbURL, r.URL)
	bob, err := w.st.CreateUser(t.Context(), "bob", "x")
	require.NoError(t, err)
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(jwtSecret), Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	tok, _, err := jwt.Issue(bob.ID, bob.Username, time.Now())
	require.NoError(t, err)

	url := fmt.Sprintf("ws://%s/ws/chat/%s/%s", a.Addr, w.user.Username, w.slot.Slug)
	conn, _, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: http.Header{"Cookie": {auth.CookieName + "=" + tok}}})
	require.NoError(t, err)
	sender := &viewer{t: t, conn: conn, frames: make(chan frame, 100), closed: make(chan error, 1)}
	go sender.read()
	t.Cleanup(func() { conn.CloseNow() })
	require.Equal(t, "bob", sender.must("welcome").m["user"].(map[string]any)["username"])
	other := dialViewer(t, b, w, "")
	other.must("welcome")

	require.NoError(t, conn.Write(t.Context(), websocket.MessageText, []byte(`{"type":"chat.send","text":"hello from replica a"}`)))
	for _, v := range []*viewer{sender, other} {
		m := v.must("chat.message")
		require.Equal(t, "hello from replica a", m.m["text"])
		require.Equal(t, "bob", m.m["user"].(map[string]any)["username"])
		v.none("chat.message", 300*time.Millisecond)
	}
	late := dialViewer(t, b, w, "")
	h := late.must("chat.history")
	require.Len(t, h.m["messages"], 1)
}
