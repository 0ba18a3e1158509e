package chat

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"openvibe.live/backend/services/chat-socket/internal/room"
	"openvibe.live/backend/shared/store"
)

// errSlotNotFound: no such user, or the user has no such slot.
var errSlotNotFound = errors.New("slot not found")

// slotCache resolves /ws/chat/:username/:slot to a slot.
type slotCache struct {
	store store.Store
	cache *lookupCache[string, room.Slot]
}

func newSlotCache(st store.Store, now func() time.Time) *slotCache {
	c := &slotCache{store: st}
	c.cache = newLookupCache(now, func(ctx context.Context, key string) (room.Slot, error) {
		username, ref, _ := strings.Cut(key, "/")
		return c.lookup(ctx, username, ref)
	}, func(err error) bool { return errors.Is(err, errSlotNotFound) })
	return c
}

// Resolve finds the slot: the username is case-insensitive and may start with "@"; ref is
// the slot's numeric id or its slug.
func (c *slotCache) Resolve(ctx context.Context, username, ref string) (room.Slot, error) {
	username = strings.TrimPrefix(username, "@")
	if username == "" || ref == "" || strings.Contains(username, "/") {
		return room.Slot{}, errSlotNotFound
	}
	return c.cache.get(ctx, strings.ToLower(username)+"/"+strings.ToLower(ref))
}

func (c *slotCache) lookup(ctx context.Context, username, ref string) (room.Slot, error) {
	u, err := c.store.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		return room.Slot{}, errSlotNotFound
	}
	if err != nil {
		return room.Slot{}, err
	}
	if id, perr := strconv.ParseInt(ref, 10, 64); perr == nil && id > 0 {
		ms, err := c.store.ManagedStreamByID(ctx, id)
		if err == nil && ms.UserID == u.ID {
			return room.Slot{ID: ms.ID, Slug: ms.Slug, Owner: u.Username}, nil
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return room.Slot{}, err
		}
	}
	ms, err := c.store.ManagedStreamBySlug(ctx, u.ID, ref)
	if errors.Is(err, store.ErrNotFound) {
		return room.Slot{}, errSlotNotFound
	}
	if err != nil {
		return room.Slot{}, err
	}
	return room.Slot{ID: ms.ID, Slug: ms.Slug, Owner: u.Username}, nil
}

// Errors of streamCache.Resolve.
var (
	errStreamNotFound = errors.New("stream not found")
	errStreamEnded    = errors.New("stream has ended")
)

// liveStream is what the original socket's join needs of a live stream: its slot, and
// whether it has ended.
type liveStream struct {
	slot  room.Slot
	ended bool
}

// streamCache resolves the live stream id the original platform's chat client joins by
// (/ws/chat?stream=<id>, {"type":"join","streamId":<id>}) to its slot.
type streamCache struct {
	store store.Store
	cache *lookupCache[int64, liveStream]
}

func newStreamCache(st store.Store, now func() time.Time) *streamCache {
	c := &streamCache{store: st}
	c.cache = newLookupCache(now, c.lookup, func(err error) bool { return errors.Is(err, errStreamNotFound) })
	return c
}

// Resolve returns the slot of live stream id; errStreamNotFound for an unknown one,
// errStreamEnded for one that has ended.
func (c *streamCache) Resolve(ctx context.Context, id int64) (room.Slot, error) {
	if id <= 0 {
		return room.Slot{}, errStreamNotFound
	}
	ls, err := c.cache.get(ctx, id)
	if err != nil {
		return room.Slot{}, err
	}
	if ls.ended {
		return room.Slot{}, errStreamEnded
	}
	return ls.slot, nil
}

func (c *streamCache) lookup(ctx context.Context, id int64) (liveStream, error) {
	ls, err := c.store.LiveStreamByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return liveStream{}, errStreamNotFound
	}
	if err != nil {
		return liveStream{}, err
	}
	ms, err := c.store.ManagedStreamByID(ctx, ls.ManagedStreamID)
	if errors.Is(err, store.ErrNotFound) {
		return liveStream{}, errStreamNotFound
	}
	if err != nil {
		return liveStream{}, err
	}
	u, err := c.store.UserByID(ctx, ms.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return liveStream{}, errStreamNotFound
	}
	if err != nil {
		return liveStream{}, err
	}
	return liveStream{slot: room.Slot{ID: ms.ID, Slug: ms.Slug, Owner: u.Username}, ended: ls.EndedAt != nil}, nil
}
