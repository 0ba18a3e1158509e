package room

import (
	"context"
	"time"
)

// Reset reasons.
const (
	ResetTooOld  = "since is older than the replayable history; reload the feed"
	ResetUnknown = "since is ahead of the slot's events; reload the feed"
	ResetTooBig  = "too much to replay; reload the feed"
)

// join attaches a viewer: welcome frame, recent chat, then either the frames it missed since
// its resume position or a reset frame; live frames follow. It runs on the room loop, so
// nothing can slip between the history and the first live frame.
//
// What a joining viewer is told depends only on events a viewer may see: the welcome and
// reset seq is the newest event viewers were shown, a since beyond it is answered with a
// reset, and the replay is projected under the settings of the moment. So probing ?since=
// tells nothing of streamer-only, hidden, withheld or still delayed events.
func (r *Room) join(ctx context.Context, j joinRequest) {
	if !r.ready {
		r.waiting = append(r.waiting, j)
		return
	}
	v, since := j.v, j.since
	if since != nil && *since >= r.next {
		r.fill(ctx, "resume") // the viewer may know of events this room has not seen yet
	}
	// Every seq up to the cursor is decided: delivered (and replayable) or never to be.
	v.after = r.cursor()
	var replay [][]byte
	reset := ""
	resumed := false
	if since != nil {
		replay, reset = r.replay(*since, r.h.now())
		resumed = reset == ""
	}
	r.viewerIndex[v] = len(r.viewers)
	r.viewers = append(r.viewers, v)
	for _, g := range j.greetings {
		v.Send(g)
	}
	if v.Original {
		r.joinOriginal(v)
		return
	}
	w := WelcomeFrame{
		Type:            FrameWelcome,
		ManagedStreamID: r.slot.ID,
		SlotSlug:        r.slot.Slug,
		Owner:           r.slot.Owner,
		LiveStreamID:    r.liveStreamID,
		Settings:        r.settings,
		Seq:             r.shown,
		Resumed:         resumed,
	}
	if v.UserID != 0 {
		w.User = &User{ID: v.UserID, Username: v.Username}
	}
	v.Send(Encode(w))
	v.Send(Encode(ChatHistoryFrame{Type: FrameChatHistory, Messages: append([]ChatMessageFrame{}, r.chat...)}))
	if reset != "" {
		v.Send(Encode(ResetFrame{Type: FrameReset, Reason: reset, Seq: r.shown}))
	}
	for _, f := range replay {
		v.Send(f)
	}
}

// joinOriginal sends a viewer of the original socket the slot's recent chat in the original
// shape and the viewer count; live frames follow.
func (r *Room) joinOriginal(v *Viewer) {
	r.originals++
	msgs := make([]OriginalChatFrame, 0, len(r.chat))
	for _, f := range r.chat {
		msgs = append(msgs, originalChat(f, r.slot.Owner, r.liveStreamID))
	}
	v.Send(Encode(OriginalChatHistoryFrame{Type: FrameChatHistory, Messages: msgs}))
	v.Send(r.userCountFrame())
	r.countDirty = true
}

// replay returns the frames of the history events after since that a viewer may see now,
// or why it cannot.
func (r *Room) replay(since int64, now time.Time) (frames [][]byte, reset string) {
	switch {
	case since > r.shown:
		return nil, ResetUnknown
	case since == r.shown:
		return nil, ""
	case since < r.replayFloor():
		return nil, ResetTooOld
	}
	size := 0
	for i := range r.ring {
		p := &r.ring[i]
		if p.ev.Seq <= since {
			continue
		}
		frame := r.pastFrame(p, now)
		if frame == nil {
			continue
		}
		size += len(frame)
		if size > r.h.cfg.MaxReplayBytes {
			return nil, ResetTooBig
		}
		frames = append(frames, frame)
	}
	return frames, ""
}

// greet queues frame to v now if it is attached, or first thing when it is.
func (r *Room) greet(v *Viewer, frame []byte) {
	if _, ok := r.viewerIndex[v]; ok {
		v.Send(frame)
		return
	}
	for i := range r.waiting {
		if r.waiting[i].v == v {
			r.waiting[i].greetings = append(r.waiting[i].greetings, frame)
			return
		}
	}
}

func (r *Room) leave(v *Viewer) {
	if i, ok := r.viewerIndex[v]; ok {
		if v.Original {
			r.originals--
		}
		r.countDirty = true
		last := r.viewers[len(r.viewers)-1]
		r.viewers[i], r.viewerIndex[last] = last, i
		r.viewers[len(r.viewers)-1] = nil
		r.viewers = r.viewers[:len(r.viewers)-1]
		delete(r.viewerIndex, v)
	}
	for i, j := range r.waiting {
		if j.v == v {
			r.waiting = append(r.waiting[:i], r.waiting[i+1:]...)
			break
		}
	}
}
