package room

import (
	"encoding/json"
	"time"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/vibe"
)

// pastEvent is an event of the resume history: one delivered to viewers, or, when the room
// starts, one a viewer could see at the time. A replay projects it again under the settings
// of the moment (a viewer resuming after the owner hid tool calls gets none), reusing the
// frame while the settings have not changed since it was encoded.
type pastEvent struct {
	ev    *slotbus.Event
	frame []byte // nil until projected
	gen   uint64 // the settings generation frame was projected under
}

// remember appends an event to the resume history; frame may be nil.
func (r *Room) remember(ev *slotbus.Event, frame []byte) {
	r.ring = append(r.ring, pastEvent{ev: ev, frame: frame, gen: r.gen})
	if len(r.ring) > r.h.cfg.ResumeLimit {
		r.floor = r.ring[0].ev.Seq
		r.ring[0] = pastEvent{}
		r.ring = r.ring[1:]
	}
}

// project returns the frame of ev under the current settings, nil when its type is hidden,
// and false when its payload does not decode. Encoding it is done once per event and
// settings, whatever the number of viewers.
func (r *Room) project(ev *slotbus.Event) ([]byte, bool) {
	var e vibe.Event
	if err := json.Unmarshal(ev.Payload, &e); err != nil {
		r.log.Error("undecodable stored event", "seq", ev.Seq, "error", err)
		return nil, false
	}
	e.Visibility = ev.Visibility // the stored column is authoritative
	proj := vibe.Project(&e, r.settings)
	if proj == nil {
		return nil, true
	}
	return Encode(vibe.ViewerFrame{
		Type:            vibe.FrameVibeCoding,
		ManagedStreamID: r.slot.ID,
		SlotSlug:        r.slot.Slug,
		DelayMs:         r.settings.DelayMs,
		Seq:             ev.Seq,
		Event:           proj,
	}), true
}

// pastFrame is the frame a replay sends for p now, or nil when a viewer may not see it now
// (the slot is paused, its type is hidden since, it was withheld by a panic, or a longer delay
// covers it again). It updates p's cached frame.
func (r *Room) pastFrame(p *pastEvent, now time.Time) []byte {
	if vibe.WhyHidden(p.ev.Viewing(), r.settings, now) != vibe.Shown {
		return nil
	}
	if p.frame == nil || p.gen != r.gen {
		p.frame, _ = r.project(p.ev)
		p.gen = r.gen
	}
	return p.frame
}

// replayFloor is the lowest since a replay can answer exactly: 0 while the room holds the
// slot's whole history, else the seq before the oldest event kept. It is derived only from
// seqs viewers could see (not from the slot's newest seq, where the room's window starts),
// so a probing client learns nothing of the others.
func (r *Room) replayFloor() int64 {
	switch {
	case r.floor == 0:
		return 0
	case len(r.ring) == 0:
		return r.shown
	}
	return r.ring[0].ev.Seq - 1
}

// settingsShown are the settings with the feed switched on: what the owner shows when not
// paused.
func settingsShown(s vibe.Settings) vibe.Settings {
	s.Enabled, s.Paused = 1, 0
	return s
}

// rememberPast takes an event already past its delay when the room starts: history, not a
// live frame. It is kept when a viewer could see it when it came due: not while the slot was
// paused (those are dropped for good), and under the current settings otherwise.
func (r *Room) rememberPast(ev *slotbus.Event, now time.Time) {
	if !r.settings.Live() && r.pausedAt != nil && !vibe.Due(ev.ReceivedAt, r.settings).Before(*r.pausedAt) {
		return // came due while paused
	}
	if vibe.WhyHidden(ev.Viewing(), settingsShown(r.settings), now) != vibe.Shown {
		return
	}
	r.remember(ev, nil)
	r.shown = ev.Seq
}
