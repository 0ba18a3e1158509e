package room

import (
	"context"
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
func (r *Room) join(ctx context.Context, v *Viewer, since *int64) {
	if !r.ready {
		r.waiting = append(r.waiting, joinRequest{v: v, since: since})
		return
	}
	if since != nil && *since >= r.next {
		r.fill(ctx, "resume") // the viewer may know of events this room has not seen yet
	}
	c := r.cursor()
	v.after = c
	var replay [][]byte
	reset := ""
	resumed := false
	if since != nil {
		replay, reset = r.replay(*since, c)
		resumed = reset == ""
		if resumed && *since > c {
			v.after = *since
		}
	}
	r.viewerIndex[v] = len(r.viewers)
	r.viewers = append(r.viewers, v)
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
		Seq:             v.after,
		Resumed:         resumed,
	}
	if v.UserID != 0 {
		w.User = &User{ID: v.UserID, Username: v.Username}
	}
	v.Send(Encode(w))
	v.Send(Encode(ChatHistoryFrame{Type: FrameChatHistory, Messages: append([]ChatMessageFrame{}, r.chat...)}))
	if reset != "" {
		v.Send(Encode(ResetFrame{Type: FrameReset, Reason: reset, Seq: c}))
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

// replay returns the frames delivered after since (up to the cursor c), or why it cannot.
func (r *Room) replay(since, c int64) (frames [][]byte, reset string) {
	switch {
	case since >= r.next:
		return nil, ResetUnknown
	case since >= c:
		return nil, ""
	case since < r.floor:
		return nil, ResetTooOld
	}
	size := 0
	for _, f := range r.ring {
		if f.seq <= since || f.seq > c {
			continue
		}
		size += len(f.frame)
		if size > r.h.cfg.MaxReplayBytes {
			return nil, ResetTooBig
		}
		frames = append(frames, f.frame)
	}
	return frames, ""
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
