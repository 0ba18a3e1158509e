package faults

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

// stream is a workload: publishers on every slot of one owner, through the gateways'
// balancer, and viewers of every slot on chosen chat-socket replicas.
type stream struct {
	t       *testing.T
	c       *cluster.Cluster
	owner   *cluster.Owner
	pubs    []*cluster.Publisher
	pubSlot []int
	viewers []*cluster.Viewer
	viewSl  []int
}

// newStream connects perSlot publishers to every slot.
func newStream(t *testing.T, c *cluster.Cluster, owner *cluster.Owner, perSlot int) *stream {
	t.Helper()
	s := &stream{t: t, c: c, owner: owner}
	for i, slot := range owner.Slots {
		for range perSlot {
			s.pubs = append(s.pubs, cluster.NewPublisher(t, cluster.PublisherOptions{
				Server: c.GatewayLB.URL(), Token: owner.Token, Slot: slot, AckTimeout: 5 * time.Second,
			}))
			s.pubSlot = append(s.pubSlot, i)
		}
	}
	return s
}

// watch connects a viewer of every slot to the given chat-socket replica (its fallbacks
// after it, for reconnecting viewers).
func (s *stream) watch(replica int, o cluster.ViewerOptions) []*cluster.Viewer {
	s.t.Helper()
	var out []*cluster.Viewer
	for i, slot := range s.owner.Slots {
		v := cluster.DialViewer(s.t, s.c.ChatAddrs(replica), s.owner.User.Username, slot.Slug, o)
		require.True(s.t, v.WaitWelcome(10*time.Second, 1), "viewer not welcomed")
		s.viewers = append(s.viewers, v)
		s.viewSl = append(s.viewSl, i)
		out = append(out, v)
	}
	return out
}

// publish makes every publisher send one event every interval for d; at each offset in
// faults the matching function runs (in the caller's goroutine, the senders keep going).
// It returns how many events were handed to the publishers.
func (s *stream) publish(d, interval time.Duration, faults map[time.Duration]func()) int {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.t.Context(), d)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i, p := range s.pubs {
		wg.Go(func() {
			tick := time.NewTicker(interval)
			defer tick.Stop()
			n := 0
			for {
				select {
				case <-ctx.Done():
					mu.Lock()
					total += n
					mu.Unlock()
					return
				case <-tick.C:
					if _, err := p.Send(fmt.Sprintf("publisher %d event %d", i, n)); err != nil {
						s.t.Errorf("publisher %d: publish: %v", i, err)
						return
					}
					n++
				}
			}
		})
	}
	start := time.Now()
	offsets := make([]time.Duration, 0, len(faults))
	for at := range faults {
		offsets = append(offsets, at)
	}
	sort.Slice(offsets, func(i, j int) bool { return offsets[i] < offsets[j] })
	for _, at := range offsets {
		select {
		case <-time.After(time.Until(start.Add(at))):
			s.t.Logf("%6.2fs fault step", time.Since(start).Seconds())
			faults[at]()
		case <-ctx.Done():
		}
	}
	wg.Wait()
	return total
}

// flush waits until every publisher's events are acked.
func (s *stream) flush(timeout time.Duration) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.t.Context(), timeout)
	defer cancel()
	var wg sync.WaitGroup
	for i, p := range s.pubs {
		wg.Go(func() {
			if err := p.Flush(ctx); err != nil {
				st := p.Stats()
				s.t.Errorf("publisher %d: %v (stats %+v)", i, err, st)
			}
		})
	}
	wg.Wait()
}

// published returns the events handed to the publishers of each slot, and how many the
// gateway acked.
func (s *stream) published() (perSlot []map[string]bool, acked int) {
	perSlot = make([]map[string]bool, len(s.owner.Slots))
	for i := range perSlot {
		perSlot[i] = map[string]bool{}
	}
	for i, p := range s.pubs {
		r := p.Record()
		for _, id := range r.Published {
			perSlot[s.pubSlot[i]][id] = true
		}
		acked += len(r.Acked)
	}
	return perSlot, acked
}

// checkStore requires every published event to be acked and stored exactly once, and
// nothing else to be stored. It returns the number of events.
func (s *stream) checkStore() int {
	s.t.Helper()
	perSlot, acked := s.published()
	total := 0
	for i, ids := range perSlot {
		total += len(ids)
		count, _, err := s.c.StoredEvents(s.t.Context(), s.owner.Slots[i].ID)
		require.NoError(s.t, err)
		missing, dup := 0, 0
		for id := range ids {
			switch count[id] {
			case 0:
				missing++
			case 1:
			default:
				dup++
			}
		}
		require.Zero(s.t, missing, "slot %d: published events missing from the store", i)
		require.Zero(s.t, dup, "slot %d: events stored more than once", i)
		require.Len(s.t, count, len(ids), "slot %d: the store holds events nobody published", i)
	}
	require.Equal(s.t, total, acked, "every published event acked")
	return total
}

// checkViewers requires every viewer to end up with every event of its slot, once each,
// in seq order.
func (s *stream) checkViewers(timeout time.Duration) {
	s.t.Helper()
	perSlot, _ := s.published()
	deadline := time.Now().Add(timeout)
	for i, v := range s.viewers {
		want := perSlot[s.viewSl[i]]
		snap, ok := v.WaitEvents(max(time.Until(deadline), time.Second), want)
		got := snap.EventIDs()
		missing := 0
		for id := range want {
			if !got[id] {
				missing++
			}
		}
		require.True(s.t, ok, "viewer %d (slot %d): %d of %d events missing (resets %d, welcomes %d, errors %v)",
			i, s.viewSl[i], missing, len(want), snap.Resets, snap.Welcomes, snap.Errors)
		require.Empty(s.t, snap.Duplicates, "viewer %d: duplicate seqs", i)
		require.Zero(s.t, snap.OutOfOrder, "viewer %d: frames out of seq order", i)
		require.Len(s.t, snap.Events, len(want), "viewer %d: frames for events nobody published", i)
	}
}

// stats sums the publishers' counters.
func (s *stream) stats() (connects, resent, duplicates, rejected int64) {
	for _, p := range s.pubs {
		st := p.Stats()
		connects += st.Connects
		resent += st.Resent
		duplicates += st.Duplicates
		rejected += st.Rejected
	}
	return
}
