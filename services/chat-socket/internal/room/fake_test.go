package room

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// fakeStore is an in-memory room.Store for the engine's unit tests.
type fakeStore struct {
	mu        sync.Mutex
	slot      store.ManagedStream
	events    []store.VibeEvent
	chat      []store.ChatMessage
	fail      bool
	delivered map[int64]time.Time
}

var errDown = errors.New("store down")

func newFakeStore(settings vibe.Settings) *fakeStore {
	s := &fakeStore{slot: store.ManagedStream{ID: 7, UserID: 1, Slug: "camp-code"}, delivered: map[int64]time.Time{}}
	s.setSettings(settings)
	return s
}

func (s *fakeStore) setSettings(v vibe.Settings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, _ := vibe.BroadcastWithSettings(nil, v)
	s.slot.BroadcastSettings = b
}

func (s *fakeStore) setFail(f bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = f
}

// add stores an event and returns it as the gateway would publish it.
func (s *fakeStore) add(typ, visibility string, withheld bool, at time.Time) store.VibeEvent {
	ev := vibe.Event{EventType: typ}
	switch typ {
	case vibe.TypeThinking:
		ev.Thinking = &vibe.TextBody{}
	case vibe.TypePrompt:
		ev.Prompt = &vibe.TextBody{}
	}
	e := s.addEvent(ev, visibility, at)
	if withheld {
		s.mu.Lock()
		s.events[len(s.events)-1].Withheld = true
		e = s.events[len(s.events)-1]
		s.mu.Unlock()
	}
	return e
}

// addEvent stores ev under the next seq (its id, summary and text derived from the seq when
// empty) and returns it as the gateway would publish it.
func (s *fakeStore) addEvent(ev vibe.Event, visibility string, at time.Time) store.VibeEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq := s.slot.LastSeq + 1
	id := fmt.Sprintf("ev-%d", seq)
	ev.Version, ev.EventID, ev.Visibility = 1, id, visibility
	if ev.Summary == "" {
		ev.Summary = "summary " + id
	}
	if ev.Thinking != nil && ev.Thinking.Text == "" {
		ev.Thinking.Text = "thinking " + id
	}
	if ev.Prompt != nil && ev.Prompt.Text == "" {
		ev.Prompt.Text = "prompt " + id
	}
	payload, _ := json.Marshal(ev)
	e := store.VibeEvent{
		ID: seq, ManagedStreamID: s.slot.ID, Seq: seq, EventID: id, EventType: ev.EventType, Visibility: visibility,
		Payload: payload, ReceivedAt: at,
	}
	s.events = append(s.events, e)
	s.slot.LastSeq = seq
	return e
}

func (s *fakeStore) ManagedStreamByID(_ context.Context, id int64) (store.ManagedStream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return store.ManagedStream{}, errDown
	}
	if id != s.slot.ID {
		return store.ManagedStream{}, store.ErrNotFound
	}
	return s.slot, nil
}

func (s *fakeStore) VibeEventsAfter(_ context.Context, _, after int64, limit int) ([]store.VibeEvent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return nil, errDown
	}
	var out []store.VibeEvent
	for _, e := range s.events {
		if e.Seq > after && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

func (s *fakeStore) RecentChatMessages(_ context.Context, _ int64, limit int) ([]store.ChatMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return nil, errDown
	}
	return append([]store.ChatMessage{}, s.chat[max(0, len(s.chat)-limit):]...), nil
}

func (s *fakeStore) MarkVibeEventsDelivered(_ context.Context, _ int64, seqs []int64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range seqs {
		if _, ok := s.delivered[q]; !ok {
			s.delivered[q] = at
		}
	}
	return nil
}

func (s *fakeStore) WithholdVibeEvents(_ context.Context, w store.Withhold) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return 0, errDown
	}
	var n int64
	for i := range s.events {
		e := &s.events[i]
		if !e.Withheld && slices.Contains(w.Seqs, e.Seq) {
			e.Withheld, e.WithheldReason = true, w.Reason
			n++
		}
	}
	return n, nil
}

// withholdSince withholds every event received since at, as the panic button does.
func (s *fakeStore) withholdSince(at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.events {
		if e := &s.events[i]; !e.Withheld && !e.ReceivedAt.Before(at) {
			e.Withheld, e.WithheldReason = true, vibe.WithheldPanic
		}
	}
}

// retract marks seq retracted, as the api does before it publishes the retraction.
func (s *fakeStore) retract(seq int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.events[seq-1].RetractedAt = &now
}

// event returns the stored row of seq.
func (s *fakeStore) event(seq int64) store.VibeEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events[seq-1]
}

// fakeBroker hands every published message to the channel's subscribers; tests inject gaps.
type fakeBroker struct {
	mu   sync.Mutex
	subs map[string][]*fakeSub
}

type fakeSub struct {
	b       *fakeBroker
	channel string
	ch      chan broker.Message
	once    sync.Once
}

func newFakeBroker() *fakeBroker { return &fakeBroker{subs: map[string][]*fakeSub{}} }

func (b *fakeBroker) Publish(_ context.Context, channel string, payload []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs[channel] {
		s.ch <- broker.Message{Channel: channel, Payload: payload}
	}
	return nil
}

func (b *fakeBroker) gap(channel string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs[channel] {
		s.ch <- broker.Message{Channel: channel, Gap: true}
	}
}

func (b *fakeBroker) Subscribe(_ context.Context, channel string) (broker.Subscription, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := &fakeSub{b: b, channel: channel, ch: make(chan broker.Message, 1024)}
	b.subs[channel] = append(b.subs[channel], s)
	return s, nil
}

func (b *fakeBroker) subscribers(channel string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs[channel])
}

func (b *fakeBroker) Ping(context.Context) error { return nil }
func (b *fakeBroker) Close() error               { return nil }

func (s *fakeSub) Messages() <-chan broker.Message { return s.ch }

func (s *fakeSub) Close() error {
	s.once.Do(func() {
		s.b.mu.Lock()
		defer s.b.mu.Unlock()
		subs := s.b.subs[s.channel]
		for i, x := range subs {
			if x == s {
				s.b.subs[s.channel] = append(subs[:i], subs[i+1:]...)
				break
			}
		}
		close(s.ch)
	})
	return nil
}
