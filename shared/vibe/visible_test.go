package vibe_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/vibetest"
)

func TestWhyHidden(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 4, 21, 23, 10, 0, 0, time.UTC)
	seen := map[vibe.Hidden]bool{}
	for _, c := range vibetest.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			got := vibe.WhyHidden(c.At(now), c.Settings, now)
			require.Equal(t, c.Want, got)
			// Project, the part of the rule that reads only the event and the settings,
			// agrees wherever the stored state and the delay do not decide.
			ev := &vibe.Event{EventID: "e", EventType: c.Event.EventType, Visibility: c.Event.Visibility}
			bySettings := got != vibe.HiddenRetracted && got != vibe.HiddenWithheld && got != vibe.HiddenDelayed
			if bySettings {
				require.Equal(t, got == vibe.Shown, vibe.Project(ev, c.Settings) != nil)
			}
			require.Equal(t, got == vibe.HiddenRetracted || got == vibe.HiddenWithheld || got == vibe.HiddenStreamer, got.Final())
			require.Equal(t, got == vibe.Shown || got == vibe.HiddenDelayed, got.Coming())
		})
		seen[c.Want] = true
	}
	for _, h := range []vibe.Hidden{vibe.Shown, vibe.HiddenRetracted, vibe.HiddenWithheld, vibe.HiddenStreamer,
		vibe.HiddenPaused, vibe.HiddenType, vibe.HiddenDelayed} {
		require.True(t, seen[h], "no case for %q", h)
	}
}

// TestWhyHiddenDelayBorder: an event is shown from the instant its delay has passed.
func TestWhyHiddenDelayBorder(t *testing.T) {
	t.Parallel()
	s := vibe.DefaultSettings()
	s.DelayMs = 1500
	received := time.Date(2026, 4, 21, 23, 10, 0, 0, time.UTC)
	e := vibe.Stored{EventType: vibe.TypePrompt, Visibility: vibe.VisibilityPublic, ReceivedAt: received}
	require.Equal(t, vibe.HiddenDelayed, vibe.WhyHidden(e, s, received.Add(1499*time.Millisecond)))
	require.Equal(t, vibe.Shown, vibe.WhyHidden(e, s, received.Add(1500*time.Millisecond)))
	require.Equal(t, received.Add(1500*time.Millisecond), vibe.Due(received, s))
}

func TestWithholdOnReceipt(t *testing.T) {
	t.Parallel()
	s := vibe.DefaultSettings()
	require.Empty(t, vibe.WithholdOnReceipt(s, true))
	require.Equal(t, vibe.WithheldOffline, vibe.WithholdOnReceipt(s, false))
	s.Paused = 1
	require.Equal(t, vibe.WithheldPaused, vibe.WithholdOnReceipt(s, true))
	s.Enabled = 0
	require.Equal(t, vibe.WithheldDisabled, vibe.WithholdOnReceipt(s, false))
}
