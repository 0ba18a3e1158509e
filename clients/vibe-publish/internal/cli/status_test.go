package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

func TestStatusLine(t *testing.T) {
	t.Parallel()
	require.Equal(t, "○ connecting  slot camp-code  sent 0  acked 0", statusLine("slot camp-code", publisher.Stats{}))
	got := statusLine("slot 7", publisher.Stats{Connected: true, Sent: 12, Acked: 10, Queued: 1, InFlight: 2, Dropped: 4, Rejected: 1,
		LastError: strings.Repeat("e", 100)})
	require.True(t, strings.HasPrefix(got, "● live  slot 7  sent 12  acked 10  pending 3  dropped 4  rejected 1  last error: eee"), got)
	require.True(t, strings.HasSuffix(got, "..."), "long errors are cut")
}

func TestStatusLogsWithoutTerminal(t *testing.T) {
	t.Parallel()
	var b testenv.Buffer
	st := newStatus(&b, false)
	require.False(t, st.tty, "a buffer is not a terminal")
	st.attach("slot x", func() publisher.Stats { return publisher.Stats{} })
	st.logf("connected to %s", "http://h")
	st.finish()
	require.Equal(t, "vibe-publish: connected to http://h\n", b.String(), "no status line escapes in a log")
}

func TestReadyWarning(t *testing.T) {
	t.Parallel()
	live := int64(4)
	ok := vibe.Ready{ManagedStreamID: 3, LiveStreamID: &live, Settings: vibe.DefaultSettings()}
	require.Empty(t, readyWarning(ok, "http://h"))
	notLive := ok
	notLive.LiveStreamID = nil
	require.Equal(t, "this slot is not live: viewers see nothing until you go live (studio, or POST http://h/api/managed-streams/3/live)", readyWarning(notLive, "http://h/"))
	paused := ok
	paused.Settings.Paused = 1
	require.Contains(t, readyWarning(paused, "http://h"), "paused")
	off := ok
	off.Settings.Enabled = 0
	require.Contains(t, readyWarning(off, "http://h"), "switched off")
}
