package room

import (
	"context"
	"time"

	"openvibe.live/backend/shared/slotbus"
)

// Viewer counts across nodes. Each room announces how many viewers it holds (when the count
// changed, at most once per tick, and every RefreshInterval regardless) over the slot's
// channel; the rooms of the other nodes add it to theirs and drop a node they have not heard
// from for presenceTTL refresh intervals. Viewers of the original socket get the total in
// user-count frames whenever it changes.

// presenceTTL is how many refresh intervals a node's count stays counted without a repeat.
const presenceTTL = 3

// presenceTimeout bounds one announcement.
const presenceTimeout = time.Second

// viewerCount is the slot's viewers on every node.
func (r *Room) viewerCount(now time.Time) int {
	n := len(r.viewers)
	for node, c := range r.presence {
		if now.Sub(c.at) > presenceTTL*r.h.cfg.RefreshInterval {
			delete(r.presence, node)
			continue
		}
		n += c.viewers
	}
	return n
}

func (r *Room) userCountFrame() []byte {
	return Encode(UserCountFrame{Type: FrameUserCount, Count: r.viewerCount(r.h.now()), StreamID: r.liveStreamID})
}

// counts runs on every tick: announce this node's count, and tell original-socket viewers
// the total when it changed.
func (r *Room) counts(now time.Time) {
	if r.countDirty || now.Sub(r.lastPresence) >= r.h.cfg.RefreshInterval {
		r.countDirty = false
		r.lastPresence = now
		n := len(r.viewers)
		r.h.wg.Go(func() { r.publishPresence(n) })
	}
	if r.originals == 0 {
		return
	}
	if n := r.viewerCount(now); n != r.countSent {
		r.countSent = n
		frame := r.userCountFrame()
		for _, v := range r.viewers {
			if v.Original {
				v.Send(frame)
			}
		}
	}
}

func (r *Room) publishPresence(n int) {
	ctx, cancel := context.WithTimeout(context.Background(), presenceTimeout)
	defer cancel()
	err := slotbus.Publish(ctx, r.h.broker, slotbus.Message{Kind: slotbus.KindPresence, SlotID: r.slot.ID,
		Presence: &slotbus.Presence{Node: r.h.node, Viewers: n}})
	if err != nil {
		r.log.DebugContext(ctx, "announce viewer count", "error", err)
	}
}

// remotePresence records another node's count (this node's own comes back too: ignored).
func (r *Room) remotePresence(p slotbus.Presence) {
	if p.Node == r.h.node {
		return
	}
	if p.Viewers <= 0 {
		delete(r.presence, p.Node)
		return
	}
	r.presence[p.Node] = remoteCount{viewers: p.Viewers, at: r.h.now()}
}
