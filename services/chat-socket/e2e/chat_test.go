package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/viewerclient"
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

	sender := watch(t, a, w, viewerclient.Options{Header: http.Header{"Cookie": {auth.CookieName + "=" + tok}}})
	require.Equal(t, "bob", sender.must("welcome").m["user"].(map[string]any)["username"])
	other := dialViewer(t, b, w)
	other.must("welcome")

	require.NoError(t, sender.rec.Conn().SendChat(t.Context(), "hello from replica a"))
	for _, v := range []*viewer{sender, other} {
		m := v.must("chat.message")
		require.Equal(t, "hello from replica a", m.m["text"])
		require.Equal(t, "bob", m.m["user"].(map[string]any)["username"])
		v.none("chat.message", 300*time.Millisecond)
	}
	late := dialViewer(t, b, w)
	h := late.must("chat.history")
	require.Len(t, h.m["messages"], 1)
}
