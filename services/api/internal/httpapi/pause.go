package httpapi

import (
	"context"
	"encoding/json"
	"time"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// writeSettings stores the broadcast settings next makes of the current ones, under the
// store's row lock, and keeps the pause rule with them (pauseUpdate).
func (s *Server) writeSettings(ctx context.Context, slotID int64, next func(cur json.RawMessage) (json.RawMessage, error)) (store.ManagedStream, error) {
	now := s.Now()
	return s.Store.UpdateBroadcastSettings(ctx, slotID, func(cur store.ManagedStream) (store.SettingsUpdate, error) {
		blob, err := next(cur.BroadcastSettings)
		if err != nil {
			return store.SettingsUpdate{}, err
		}
		return pauseUpdate(cur, vibe.SettingsFromBroadcast(blob), now, blob), nil
	})
}

// pauseUpdate is the settings update of slot cur to the settings after, at now. An event
// that comes due while the slot is paused or disabled is dropped for good, whether or not a
// chat socket was there to drop it: when the feed stops being shown the slot records since
// when, and when it is shown again every event that came due meanwhile (under the delay in
// force until then) is withheld in the same transaction, so neither the feed nor the owner
// history shows it after the resume.
func pauseUpdate(cur store.ManagedStream, after vibe.Settings, now time.Time, blob json.RawMessage) store.SettingsUpdate {
	before := vibe.SettingsFromBroadcast(cur.BroadcastSettings)
	u := store.SettingsUpdate{BroadcastSettings: blob, PausedAt: cur.PausedAt}
	switch {
	case after.Live():
		u.PausedAt = nil
		if !before.Live() && cur.PausedAt != nil {
			delay := time.Duration(before.DelayMs) * time.Millisecond
			u.Withhold = &store.Withhold{ReceivedFrom: cur.PausedAt.Add(-delay), ReceivedTo: now.Add(-delay),
				Reason: vibe.WithheldDueWhilePaused}
		}
	case before.Live() || cur.PausedAt == nil:
		u.PausedAt = &now
	}
	return u
}
