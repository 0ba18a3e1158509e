// Package vibetest holds the cases of the visibility rule, vibe.WhyHidden, that every path
// to a viewer is tested against: the rule itself, the store's feed query, the publisher's
// ack, the chat socket and the public feed. Each path builds the case its own way (a stored
// row, a published event, a settings change) and checks that it decides as the rule does.
package vibetest

import (
	"time"

	"openvibe.live/backend/shared/vibe"
)

// CustomType is the custom event type the cases use.
const CustomType = "deploy.started"

// Case is one event under one set of settings, looked at Age after it was received.
type Case struct {
	Name     string
	Event    vibe.Stored // ReceivedAt is left zero: the event was received Age before now
	Age      time.Duration
	Settings vibe.Settings
	Want     vibe.Hidden
}

// At returns the case's event as received Age before now.
func (c Case) At(now time.Time) vibe.Stored {
	e := c.Event
	e.ReceivedAt = now.Add(-c.Age)
	return e
}

// Cases returns every reason the rule gives, each with the event and settings that lead to
// it, and the borders between them.
func Cases() []Case {
	def := vibe.DefaultSettings()
	with := func(f func(*vibe.Settings)) vibe.Settings {
		s := vibe.DefaultSettings()
		f(&s)
		return s
	}
	delayed := with(func(s *vibe.Settings) { s.DelayMs = 60_000 })
	paused := with(func(s *vibe.Settings) { s.Paused = 1 })
	nothingElse := with(func(s *vibe.Settings) {
		s.ShowPrompts, s.ShowResponses, s.ShowToolCalls, s.ShowFileEvents, s.ShowCustomEvents = 0, 0, 0, 0, 0
	})
	prompt := vibe.Stored{EventType: vibe.TypePrompt, Visibility: vibe.VisibilityPublic}
	ev := func(f func(*vibe.Stored)) vibe.Stored {
		e := prompt
		f(&e)
		return e
	}
	streamer := ev(func(e *vibe.Stored) { e.Visibility = vibe.VisibilityStreamer })
	withheld := ev(func(e *vibe.Stored) { e.Withheld = true })
	retracted := ev(func(e *vibe.Stored) { e.Retracted = true })
	custom := ev(func(e *vibe.Stored) { e.EventType = CustomType })
	return []Case{
		{"shown", prompt, time.Second, def, vibe.Shown},
		{"status events always shown", ev(func(e *vibe.Stored) { e.EventType = vibe.TypeSessionStatus }), time.Second, nothingElse, vibe.Shown},
		{"custom type shown", custom, time.Second, def, vibe.Shown},
		{"custom type hidden", custom, time.Second, with(func(s *vibe.Settings) { s.ShowCustomEvents = 0 }), vibe.HiddenType},
		{"tool calls switched off", ev(func(e *vibe.Stored) { e.EventType = vibe.TypeToolCall }), time.Second,
			with(func(s *vibe.Settings) { s.ShowToolCalls = 0 }), vibe.HiddenType},
		{"thinking off by default", ev(func(e *vibe.Stored) { e.EventType = vibe.TypeThinking }), time.Second, def, vibe.HiddenType},
		{"thinking switched on", ev(func(e *vibe.Stored) { e.EventType = vibe.TypeThinking }), time.Second,
			with(func(s *vibe.Settings) { s.ShowThinking = 1 }), vibe.Shown},
		{"streamer-only", streamer, time.Second, def, vibe.HiddenStreamer},
		{"withheld", withheld, time.Second, def, vibe.HiddenWithheld},
		{"retracted", retracted, time.Second, def, vibe.HiddenRetracted},
		{"retracted and withheld", ev(func(e *vibe.Stored) { e.Retracted, e.Withheld = true, true }), time.Second, def, vibe.HiddenRetracted},
		{"paused", prompt, time.Second, paused, vibe.HiddenPaused},
		{"disabled", prompt, time.Second, with(func(s *vibe.Settings) { s.Enabled = 0 }), vibe.HiddenPaused},
		{"streamer-only while paused", streamer, time.Second, paused, vibe.HiddenStreamer},
		{"withheld while paused", withheld, time.Second, paused, vibe.HiddenWithheld},
		{"custom type hidden while paused", custom, time.Second,
			with(func(s *vibe.Settings) { s.Paused, s.ShowCustomEvents = 1, 0 }), vibe.HiddenPaused},
		{"before its delay", prompt, time.Second, delayed, vibe.HiddenDelayed},
		{"its delay just passed", prompt, time.Minute, delayed, vibe.Shown},
		{"hidden type before its delay", custom, time.Second,
			with(func(s *vibe.Settings) { s.DelayMs, s.ShowCustomEvents = 60_000, 0 }), vibe.HiddenType},
		{"paused before its delay", prompt, time.Second, with(func(s *vibe.Settings) { s.DelayMs, s.Paused = 60_000, 1 }), vibe.HiddenPaused},
		{"retracted before its delay", retracted, time.Second, delayed, vibe.HiddenRetracted},
	}
}
