package main

import (
	"bytes"
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"openvibe.live/backend/shared/viewerclient"
)

// viewerStats are shared by every simulated viewer.
type viewerStats struct {
	latency    histogram     // publish → viewer
	fromStore  histogram     // stored → viewer (store mode)
	delivered  atomic.Uint64 // vibe-coding frames
	messages   atomic.Uint64 // WebSocket messages read
	missing    atomic.Uint64 // seqs skipped (every load event is visible, so a skip is a loss)
	outOfOrder atomic.Uint64 // seqs at or below one already seen
	connected  atomic.Int64
	dialErrors atomic.Uint64
	dropped    atomic.Uint64 // connections closed by the server or the network mid-run
	slow       atomic.Uint64 // closed with 4008
}

var (
	prefixVibe    = []byte(`{"type":"vibe-coding",`)
	prefixWelcome = []byte(`{"type":"welcome",`)
	keySeq        = []byte(`"seq":`)
	keySummary    = []byte(`"summary":"load `)
)

// runViewer connects one viewer and reads until ctx ends. welcomed is called once the
// welcome frame has arrived (or with the error that prevented it).
func runViewer(ctx context.Context, base string, join viewerclient.Options, stored *storedRing, st *viewerStats, welcomed func(error)) {
	conn, err := viewerclient.Dial(ctx, base, join)
	if err != nil {
		st.dialErrors.Add(1)
		welcomed(err)
		return
	}
	defer conn.CloseNow()
	st.connected.Add(1)
	defer st.connected.Add(-1)
	v := viewer{st: st, stored: stored, welcomed: welcomed}
	// Reads get a context without a deadline (a timer per read would cost more than the
	// read); ending the run closes the socket instead.
	stop := context.AfterFunc(ctx, func() { conn.CloseNow() })
	defer stop()
	for {
		err := conn.ReadMessage(context.Background(), v.frame)
		if err != nil {
			if ctx.Err() == nil {
				st.dropped.Add(1)
				if viewerclient.CloseStatus(err) == 4008 {
					st.slow.Add(1)
				}
			}
			if !v.welcome {
				welcomed(err)
			}
			return
		}
		st.messages.Add(1)
	}
}

type viewer struct {
	st       *viewerStats
	stored   *storedRing
	welcome  bool
	last     int64
	welcomed func(error)
}

func (v *viewer) frame(f []byte, now time.Time) {
	switch {
	case bytes.HasPrefix(f, prefixVibe):
		v.st.delivered.Add(1)
		seq := intAfter(f, keySeq)
		switch {
		case seq <= v.last:
			v.st.outOfOrder.Add(1)
		case seq > v.last+1:
			v.st.missing.Add(uint64(seq - v.last - 1))
		}
		v.last = max(v.last, seq)
		if t := intAfter(f, keySummary); t > 0 {
			v.st.latency.observe(now.Sub(time.Unix(0, t)))
		}
		if t, ok := v.stored.get(seq); ok {
			v.st.fromStore.observe(now.Sub(t))
		}
	case bytes.HasPrefix(f, prefixWelcome) && !v.welcome:
		v.welcome = true
		v.last = intAfter(f, keySeq)
		v.welcomed(nil)
	}
}

// intAfter parses the decimal number following key in f (0 when absent).
func intAfter(f, key []byte) int64 {
	i := bytes.Index(f, key)
	if i < 0 {
		return 0
	}
	rest := f[i+len(key):]
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	n, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
