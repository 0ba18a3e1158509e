package room

import (
	"context"
	"slices"
	"time"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/vibe"
)

// receive takes an event from the broker: the next one in sequence goes straight into the
// delay queue; anything after a hole waits until the hole is filled from the store.
func (r *Room) receive(ctx context.Context, ev *slotbus.Event) {
	if !r.ready || ev.Seq < r.next {
		return // init reads it from the store, or it is a duplicate
	}
	// A live event's delay counts from when this node got it (never before its server
	// receive time): it is published after it is stored and acked, so it is held at least
	// delay_ms after the publisher's ack.
	base := r.h.now()
	if ev.ReceivedAt.After(base) {
		base = ev.ReceivedAt
	}
	// While a fill is due (after a failed store read, or a panic) the store decides first.
	if ev.Seq == r.next && len(r.early) == 0 && !r.fillDue {
		r.ingest(ev, base)
		r.schedule()
		return
	}
	if len(r.early) < maxEarly {
		r.early[ev.Seq] = earlyEvent{ev: ev, base: base}
	}
	r.fill(ctx, "seq_gap")
}

// fill fetches from the store everything after the last received seq, then releases the
// events held behind the hole, in order. On failure it retries on the next tick.
func (r *Room) fill(ctx context.Context, cause string) {
	if !r.ready {
		return
	}
	before := r.next
	if !r.fetch(ctx, cause) {
		r.fillDue = true
		return
	}
	for {
		e, ok := r.early[r.next]
		if !ok {
			break
		}
		delete(r.early, r.next)
		r.ingest(e.ev, e.base)
	}
	for seq := range r.early {
		if seq < r.next {
			delete(r.early, seq)
		}
	}
	// Held events still beyond a hole the store does not have yet: try again soon.
	r.fillDue = len(r.early) > 0
	if r.next > before {
		r.h.metrics.GapFills.WithLabelValues(cause).Inc()
	}
	r.deliverDue(r.h.now(), true)
}

// fetch reads stored events after next-1 page by page and ingests them.
func (r *Room) fetch(ctx context.Context, cause string) bool {
	for {
		sctx, cancel := r.storeCtx(ctx)
		evs, err := r.h.store.VibeEventsAfter(sctx, r.slot.ID, r.next-1, r.h.cfg.FetchPage)
		cancel()
		if err != nil {
			r.storeError(ctx, "fetch_events", err)
			return false
		}
		for i := range evs {
			if evs[i].Seq < r.next {
				continue
			}
			// A seq beyond next means the events between were pruned: they are gone.
			r.ingest(slotbus.FromStoreEvent(evs[i]), evs[i].ReceivedAt)
			if cause != "start" {
				r.h.metrics.GapEvents.Inc()
			}
		}
		if len(evs) < r.h.cfg.FetchPage {
			return true
		}
	}
}

// ingest decides an event's fate: dropped now when nothing can make it visible (retracted,
// withheld, streamer-only), else queued until its delay has passed, when the rule is asked
// again under the settings of that moment.
func (r *Room) ingest(ev *slotbus.Event, base time.Time) {
	r.next = ev.Seq + 1
	if r.retracted[ev.Seq] {
		ev.Retracted = true
		delete(r.retracted, ev.Seq)
	}
	if why := vibe.WhyHidden(ev.Viewing(), r.settings, base); why.Final() {
		r.h.metrics.EventsDropped.WithLabelValues(string(why)).Inc()
		return
	}
	r.pending = append(r.pending, pendingEvent{ev: ev, base: base, due: r.dueTime(base)})
}

func (r *Room) dueTime(base time.Time) time.Time {
	return base.Add(time.Duration(r.settings.DelayMs) * time.Millisecond)
}

// schedule arms the room timer for the head of the delay queue.
func (r *Room) schedule() {
	if len(r.pending) == 0 || r.awaitRead { // the read's answer delivers what waits
		r.timer.Stop()
		return
	}
	d := r.pending[0].due.Sub(r.h.now())
	if d <= 0 {
		d = 0
	}
	r.timer.Reset(d)
}

// deliverDue sends every queued event whose time has come, in seq order. live=false is used
// while the room starts: due events only become resume history.
func (r *Room) deliverDue(now time.Time, live bool) {
	n := 0
	for n < len(r.pending) && !r.pending[n].due.After(now) {
		if live && r.pauseUnsettled(r.pending[n], now) {
			r.confirm, r.awaitRead = true, true // it and everything after it wait for the read
			break
		}
		r.deliver(r.pending[n], now, live)
		n++
	}
	if n > 0 {
		clear(r.pending[:n])
		r.pending = r.pending[n:]
	}
	r.schedule()
}

// deliver sends an event that has come due, if a viewer may see it now. One that came due
// while the slot is paused is dropped for good, and marked withheld in the store (off the
// delivery path), so that the feed and the owner history never show it after a resume
// either. live=false is used while the room starts: the event only becomes resume history.
func (r *Room) deliver(p pendingEvent, now time.Time, live bool) {
	if !live {
		r.rememberPast(p.ev, now)
		return
	}
	why := vibe.WhyHidden(p.ev.Viewing(), r.settings, now)
	var frame []byte
	if why == vibe.Shown {
		var ok bool
		switch frame, ok = r.project(p.ev); {
		case !ok:
			why = "malformed"
		case frame == nil:
			why = vibe.HiddenType
		}
	}
	if why != vibe.Shown {
		r.h.metrics.EventsDropped.WithLabelValues(string(why)).Inc()
		if why == vibe.HiddenPaused {
			r.h.marker.Withhold(r.slot.ID, p.ev.Seq)
		}
		return
	}
	r.remember(p.ev, frame)
	r.shown = p.ev.Seq
	r.h.metrics.EventsDelivered.Inc()
	r.h.metrics.DeliveryLag.Observe(now.Sub(p.due).Seconds())
	if sent := r.sendSeq(p.ev.Seq, frame); sent > 0 {
		r.h.metrics.FramesDelivered.Add(float64(sent))
		r.h.marker.Mark(r.slot.ID, p.ev.Seq, now)
	}
}

// pauseUnsettled reports whether an event would be dropped for a pause the room cannot be
// sure of: the store took it as live (it is not withheld) after the room last read the
// slot, so the slot may have been resumed by a message still on the control channel. Read
// the slot first; if it is still paused then, the pause came after the event and it is
// dropped.
func (r *Room) pauseUnsettled(p pendingEvent, now time.Time) bool {
	return !r.settings.Live() && p.ev.Seq > r.checkedSeq && vibe.WhyHidden(p.ev.Viewing(), r.settings, now) == vibe.HiddenPaused
}

// sendSeq queues an event frame to every viewer that has not had this seq yet.
func (r *Room) sendSeq(seq int64, frame []byte) int {
	sent := 0
	for _, v := range r.viewers {
		if v.after >= seq {
			continue
		}
		v.after = seq
		if v.Send(frame) {
			sent++
		}
	}
	return sent
}

// broadcast queues a frame to every viewer.
func (r *Room) broadcast(frame []byte) {
	for _, v := range r.viewers {
		v.Send(frame)
	}
}

// cursor is the room's delivery position: every seq at or below it is decided (delivered or
// never to be), every seq above it is still to come.
func (r *Room) cursor() int64 {
	if len(r.pending) > 0 {
		return r.pending[0].ev.Seq - 1
	}
	return r.next - 1
}

func (r *Room) settingsFrame() []byte {
	return Encode(SettingsFrame{
		Type:            vibe.FrameSettings,
		ManagedStreamID: r.slot.ID,
		SlotSlug:        r.slot.Slug,
		LiveStreamID:    r.liveStreamID,
		Settings:        r.settings,
	})
}

// applySettings takes new settings: a new delay reschedules what is pending, and viewers get
// a vibe-coding.settings frame when anything they can see changed.
func (r *Room) applySettings(s vibe.Settings, liveStreamID *int64) {
	if s == r.settings && equalID(liveStreamID, r.liveStreamID) {
		return
	}
	delayChanged := s.DelayMs != r.settings.DelayMs
	if s != r.settings {
		r.gen++ // history frames are projected again under the new settings
	}
	r.settings, r.liveStreamID = s, liveStreamID
	if delayChanged {
		for i := range r.pending {
			r.pending[i].due = r.dueTime(r.pending[i].base)
		}
	}
	r.broadcast(r.settingsFrame())
	r.deliverDue(r.h.now(), true)
}

func equalID(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// retract withdraws an event: never delivered if still pending (or not yet received), and
// a vibe-coding.retract frame for viewers that may have it.
func (r *Room) retract(rt slotbus.Retract) {
	r.h.metrics.Retractions.Inc()
	if rt.Seq >= r.next {
		r.retracted[rt.Seq] = true
		return
	}
	if i := slices.IndexFunc(r.pending, func(p pendingEvent) bool { return p.ev.Seq == rt.Seq }); i >= 0 {
		r.pending = slices.Delete(r.pending, i, i+1)
		r.h.metrics.EventsDropped.WithLabelValues("retracted").Inc()
		r.schedule()
		return
	}
	i := slices.IndexFunc(r.ring, func(p pastEvent) bool { return p.ev.Seq == rt.Seq })
	if i < 0 && rt.Seq > r.floor {
		return // never delivered here (hidden, withheld or paused)
	}
	if i >= 0 {
		r.ring = slices.Delete(r.ring, i, i+1)
	}
	r.broadcast(Encode(RetractFrame{
		Type:            vibe.FrameRetract,
		ManagedStreamID: r.slot.ID,
		SlotSlug:        r.slot.Slug,
		EventID:         rt.EventID,
		Seq:             rt.Seq,
	}))
}

// beforeResume runs when the slot is shown again, before anything is delivered under the new
// settings. The resume has withheld in the store, in its own transaction, every event that
// came due while the slot was paused, timed by the store's receive times; the room times a
// live event from its arrival, a little later, so it may still hold one of them pending, or
// not have received it yet. It drops the pending ones the store now holds withheld and reads
// the store for the rest, as after a panic.
func (r *Room) beforeResume(ctx context.Context) {
	r.revalidate(ctx)
	r.fillDue = true
	r.fill(ctx, "unpause")
}

// panic pauses the slot and drops everything still waiting in the delay queue, and the
// history events it withheld. It then reads from the store what was stored but has not
// arrived yet: the panic message may overtake events on the other channel, and the store
// already holds them withheld.
func (r *Room) panic(ctx context.Context, p slotbus.Panic) {
	r.h.metrics.Panics.Inc()
	if len(r.pending) > 0 {
		r.h.metrics.EventsDropped.WithLabelValues("panic").Add(float64(len(r.pending)))
		clear(r.pending)
		r.pending = r.pending[:0]
	}
	for seq := range r.early {
		r.retracted[seq] = true
	}
	if !p.Since.IsZero() {
		for _, past := range r.ring {
			if !past.ev.ReceivedAt.Before(p.Since) {
				past.ev.Withheld = true
			}
		}
	}
	s := p.Settings
	s.Paused = 1
	r.applySettings(s, r.liveStreamID)
	r.schedule()
	r.fillDue = true
	r.fill(ctx, "panic")
}

// addChat broadcasts a chat message once, whether it came from the broker or from a local
// viewer, and keeps it for joining viewers.
func (r *Room) addChat(c *slotbus.Chat) {
	if slices.ContainsFunc(r.chat, func(f ChatMessageFrame) bool { return f.ID == c.ID }) {
		return
	}
	f := chatFrame(c)
	r.chat = append(r.chat, f)
	if len(r.chat) > r.h.cfg.ChatHistory {
		r.chat = slices.Delete(r.chat, 0, len(r.chat)-r.h.cfg.ChatHistory)
	}
	if r.originals == 0 {
		r.broadcast(Encode(f))
		return
	}
	native, original := Encode(f), Encode(originalChat(f, r.slot.Owner, r.liveStreamID))
	for _, v := range r.viewers {
		if v.Original {
			v.Send(original)
		} else {
			v.Send(native)
		}
	}
}

// revalidate re-reads the pending events from the store and drops those withheld or
// retracted since they were queued: the safety net for a retract or panic message the broker
// lost. It runs on the room loop (after a broker gap, which is rare).
func (r *Room) revalidate(ctx context.Context) {
	if len(r.pending) == 0 {
		return
	}
	sctx, cancel := r.storeCtx(ctx)
	defer cancel()
	revoked, err := r.revokedBetween(sctx, r.pending[0].ev.Seq, r.pending[len(r.pending)-1].ev.Seq)
	if err != nil {
		r.storeError(ctx, "revalidate", err)
		return
	}
	r.dropRevoked(revoked)
}

// revokedBetween returns the seqs in [first, last] now withheld or retracted in the store.
// It touches no room state, so it may run off the room loop.
func (r *Room) revokedBetween(ctx context.Context, first, last int64) (map[int64]bool, error) {
	evs, err := r.h.store.VibeEventsAfter(ctx, r.slot.ID, first-1, int(last-first+1))
	if err != nil {
		return nil, err
	}
	revoked := map[int64]bool{}
	for _, e := range evs {
		if e.Withheld || e.RetractedAt != nil {
			revoked[e.Seq] = true
		}
	}
	return revoked, nil
}

// dropRevoked removes revoked seqs from the delay queue.
func (r *Room) dropRevoked(revoked map[int64]bool) {
	if len(revoked) == 0 || len(r.pending) == 0 {
		return
	}
	n := len(r.pending)
	r.pending = slices.DeleteFunc(r.pending, func(p pendingEvent) bool { return revoked[p.ev.Seq] })
	if n != len(r.pending) {
		r.h.metrics.EventsDropped.WithLabelValues("revoked").Add(float64(n - len(r.pending)))
		r.schedule()
	}
}
