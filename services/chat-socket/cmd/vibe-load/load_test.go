package main

import (
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestOptionsRefuseNonLoopbackAndUnboundedRuns(t *testing.T) {
	t.Parallel()
	base := []string{"-database-url", "postgres://u:p@127.0.0.1:5432/db", "-redis-url", "redis://127.0.0.1:6379/0"}
	for _, tc := range []struct {
		name string
		args []string
		ok   bool
	}{
		{"defaults", nil, true},
		{"localhost", []string{"-chat", "ws://localhost:1"}, true},
		{"ipv6 loopback", []string{"-chat", "ws://[::1]:1"}, true},
		{"remote chat", []string{"-chat", "ws://10.0.0.1:8081"}, false},
		{"remote metrics", []string{"-metrics", "http://example.com/metrics"}, false},
		{"remote database", []string{"-database-url", "postgres://u:p@db.example.com/x"}, false},
		{"remote redis", []string{"-redis-url", "redis://cache.internal:6379"}, false},
		{"too many viewers", []string{"-viewers", "20001"}, false},
		{"too long", []string{"-duration", "11m"}, false},
		{"bad mode", []string{"-mode", "carrier-pigeon"}, false},
	} {
		_, err := parseOptions(append(append([]string{}, base...), tc.args...), io.Discard)
		if tc.ok {
			require.NoError(t, err, tc.name)
		} else {
			require.Error(t, err, tc.name)
		}
	}
	_, err := parseOptions([]string{"-database-url", "postgres://u:secret@db.example.com/x"}, io.Discard)
	require.NotContains(t, err.Error(), "secret", "errors never show passwords")
}

func TestViewerParsesFrames(t *testing.T) {
	t.Parallel()
	st := &viewerStats{}
	welcomed := 0
	v := viewer{st: st, welcomed: func(error) { welcomed++ }}
	now := time.Now()
	v.frame([]byte(`{"type":"welcome","managed_stream_id":1,"settings":{"delay_ms":0},"seq":4,"user":null}`), now)
	sent := now.Add(-3 * time.Millisecond).UnixNano()
	for _, seq := range []int{5, 7, 7} {
		v.frame([]byte(`{"type":"vibe-coding","managed_stream_id":1,"slot_slug":"s","delay_ms":0,"seq":`+itoa(seq)+
			`,"event":{"eventId":"x","eventType":"prompt","summary":"load `+itoa(int(sent))+`"}}`), now)
	}
	require.Equal(t, 1, welcomed)
	require.EqualValues(t, 3, st.delivered.Load())
	require.EqualValues(t, 1, st.missing.Load(), "seq 6 never came")
	require.EqualValues(t, 1, st.outOfOrder.Load(), "seq 7 twice")
	q := quantile(st.latency.snapshot(), 0.5)
	require.InDelta(t, 3*time.Millisecond, q, float64(100*time.Microsecond))
}

func itoa(n int) string { return strconv.Itoa(n) }
