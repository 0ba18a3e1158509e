package chat

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/services/chat-socket/internal/room"
	"openvibe.live/backend/shared/store"
)

// errSlotNotFound: no such user, or the user has no such slot.
var errSlotNotFound = errors.New("slot not found")

const (
	slotCacheTTL  = 10 * time.Second
	slotCacheSize = 10_000
)

// slotCache resolves /ws/chat/:username/:slot to a slot, caching answers briefly so that a
// crowd joining the same stream costs one lookup, not one per viewer.
type slotCache struct {
	store store.Store
	now   func() time.Time

	mu      sync.Mutex
	entries map[string]slotEntry
}

type slotEntry struct {
	slot    room.Slot
	err     error
	expires time.Time
}

func newSlotCache(st store.Store, now func() time.Time) *slotCache {
	return &slotCache{store: st, now: now, entries: map[string]slotEntry{}}
}

// Resolve finds the slot: the username is case-insensitive and may start with "@"; ref is
// the slot's numeric id or its slug.
func (c *slotCache) Resolve(ctx context.Context, username, ref string) (room.Slot, error) {
	username = strings.TrimPrefix(username, "@")
	if username == "" || ref == "" {
		return room.Slot{}, errSlotNotFound
	}
	key := strings.ToLower(username) + "/" + strings.ToLower(ref)
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.slot, e.err
	}
	slot, err := c.lookup(ctx, username, ref)
	if err != nil && !errors.Is(err, errSlotNotFound) {
		return room.Slot{}, err // not cached: the store may answer next time
	}
	c.mu.Lock()
	if len(c.entries) >= slotCacheSize {
		clear(c.entries)
	}
	c.entries[key] = slotEntry{slot: slot, err: err, expires: now.Add(slotCacheTTL)}
	c.mu.Unlock()
	return slot, err
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
