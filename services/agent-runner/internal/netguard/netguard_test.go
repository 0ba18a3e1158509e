package netguard

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPublic(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{"8.8.8.8": true, "2001:4860:4860::8888": true, "127.0.0.1": false, "::1": false,
		"10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false, "fe80::1": false,
		"0.0.0.0": false, "::": false, "fd00::1": false, "224.0.0.1": false} {
		require.Equal(t, want, Public(net.ParseIP(addr)), addr)
	}
}

// TestPolicy: a private server is refused before and at connection time, unless allowed.
func TestPolicy(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	ctx := t.Context()
	p := Policy{}
	require.ErrorContains(t, p.Check(ctx, srv.URL+"/x?y=1"), "127.0.0.1 is not a public address")
	require.ErrorContains(t, p.Check(ctx, "http://10.0.0.1"), "not a public address")
	_, err := p.Client().Get(srv.URL)
	require.ErrorContains(t, err, "refusing to connect to non-public address 127.0.0.1")

	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, allowed := range []string{srv.URL, "127.0.0.1:" + port, "http://localhost:" + port} {
		q := p.With(allowed)
		require.NoError(t, q.Check(ctx, srv.URL), allowed)
		require.NoError(t, q.Check(ctx, "ws://localhost:"+port+"/ws"), allowed)
		res, err := q.Client().Get(srv.URL)
		require.NoError(t, err, allowed)
		res.Body.Close()
		require.Error(t, q.Check(ctx, "http://127.0.0.1:1"), "another port is not allowed")
	}
	require.NoError(t, Policy{AllowPrivate: true}.Check(ctx, srv.URL))
}
