package cli

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe/publisher"
)

func TestResolveSlot(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "/api/managed-streams", r.URL.Path)
		switch r.Header.Get("Authorization") {
		case "Bearer hbt_good":
			_, _ = w.Write([]byte(`{"managed_streams":[{"id":3,"slug":"night-bus","title":"x"},{"id":9,"slug":"camp-code","title":"y"}]}`))
		case "Bearer hbt_array":
			_, _ = w.Write([]byte(`[{"id":11,"slug":"camp-code"}]`))
		default:
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"Authentication required"}`))
		}
	}))
	defer srv.Close()

	id, err := resolveSlot(t.Context(), srv.Client(), srv.URL, "hbt_good", "camp-code")
	require.NoError(t, err)
	require.Equal(t, int64(9), id)
	id, err = resolveSlot(t.Context(), srv.Client(), srv.URL, "hbt_array", "camp-code")
	require.NoError(t, err)
	require.Equal(t, int64(11), id)

	_, err = resolveSlot(t.Context(), srv.Client(), srv.URL, "hbt_good", "nope")
	require.ErrorContains(t, err, `slot "nope" not found among your slots (night-bus, camp-code)`)
	_, err = resolveSlot(t.Context(), srv.Client(), srv.URL, "hbt_bad", "camp-code")
	require.ErrorIs(t, err, publisher.ErrUnauthorized)
	require.ErrorContains(t, err, "the token was rejected")
}
