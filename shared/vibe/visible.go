package vibe

import "time"

// Hidden says why viewers may not see an event; Shown when they may. The values are what the
// services report: chat-socket drop reasons and the owner history.
type Hidden string

// Why viewers may not see an event, in the order WhyHidden checks them. The first three are
// facts of the stored event and never change (Final); paused and type follow the settings;
// delayed passes with time.
const (
	Shown           Hidden = ""
	HiddenRetracted Hidden = "retracted" // the owner retracted it
	HiddenWithheld  Hidden = "withheld"  // stored withheld: its WithheldReason says why
	HiddenStreamer  Hidden = "streamer"  // streamer-only visibility
	HiddenPaused    Hidden = "paused"    // the slot is paused or its feed disabled
	HiddenType      Hidden = "hidden"    // its type is switched off (a custom type: show_custom_events is 0)
	HiddenDelayed   Hidden = "pending"   // still inside the slot's delay
)

// Final reports whether nothing can make the event visible again: it is retracted, withheld
// or streamer-only.
func (h Hidden) Final() bool {
	return h == HiddenRetracted || h == HiddenWithheld || h == HiddenStreamer
}

// Coming reports whether viewers see the event now or once its delay has passed, unless the
// settings change meanwhile: what a publisher's ack calls delivered.
func (h Hidden) Coming() bool { return h == Shown || h == HiddenDelayed }

// Stored is what the visibility rule reads of a stored event.
type Stored struct {
	EventType  string
	Visibility string // VisibilityPublic or VisibilityStreamer
	Withheld   bool
	Retracted  bool
	ReceivedAt time.Time
}

// WhyHidden decides whether a viewer may see the stored event e at now under the slot's
// settings s, and if not, why: the one rule of what a viewer may see. Every path to a viewer
// goes through it: the chat socket when an event comes due and when it replays one, the
// public feed (whose SQL only narrows the rows first; the store's conformance suite checks
// that the two agree), the owner history's viewer status and the publisher's ack. Project
// applies the part that depends on the settings alone.
func WhyHidden(e Stored, s Settings, now time.Time) Hidden {
	switch {
	case e.Retracted:
		return HiddenRetracted
	case e.Withheld:
		return HiddenWithheld
	}
	if h := hiddenBySettings(e.EventType, e.Visibility, s); h != Shown {
		return h
	}
	if now.Before(Due(e.ReceivedAt, s)) {
		return HiddenDelayed
	}
	return Shown
}

// Due is when an event received at received has passed the slot's delay.
func Due(received time.Time, s Settings) time.Time {
	return received.Add(time.Duration(s.DelayMs) * time.Millisecond)
}

// hiddenBySettings is the part of the rule that reads no stored state. A visibility other
// than public is streamer-only; an empty one is public, as in the canonical model.
func hiddenBySettings(eventType, visibility string, s Settings) Hidden {
	switch {
	case visibility != VisibilityPublic && visibility != "":
		return HiddenStreamer
	case !s.Live():
		return HiddenPaused
	case !typeShown(eventType, s):
		return HiddenType
	}
	return Shown
}

// Why an event was stored withheld (kept for the owner, never shown to viewers).
const (
	WithheldOffline  = "offline"  // received while the slot was not live
	WithheldDisabled = "disabled" // received while the slot's vibe-coding feed was switched off
	WithheldPaused   = "paused"   // received while the slot was paused
	WithheldPanic    = "panic"    // still inside the delay window when the owner hit the panic button
	// WithheldDueWhilePaused: it came due while the slot was paused or disabled, and is
	// dropped for good even after the slot resumes.
	WithheldDueWhilePaused = "due_while_paused"
)

// WithholdOnReceipt says why an event received now is stored withheld under the slot's
// settings and live state, or "" when it is stored for viewers.
func WithholdOnReceipt(s Settings, live bool) string {
	switch {
	case s.Enabled != 1:
		return WithheldDisabled
	case s.Paused != 0:
		return WithheldPaused
	case !live:
		return WithheldOffline
	}
	return ""
}
