package store

import (
	"time"

	"openvibe.live/backend/shared/vibe"
)

// ViewerFeed is the query for the newest limit events a viewer of the slot may fetch at now
// under the settings s, or false when viewers see nothing at all (the slot is paused or
// disabled). The query narrows the rows as vibe.WhyHidden would decide them; callers still
// apply WhyHidden to each row, and the conformance suite checks that the two agree.
func ViewerFeed(slotID int64, s vibe.Settings, now time.Time, limit int) (FeedQuery, bool) {
	if !s.Live() {
		return FeedQuery{}, false
	}
	include, exclude := vibe.FeedTypes(s)
	return FeedQuery{
		ManagedStreamID: slotID,
		ReceivedBefore:  now.Add(-time.Duration(s.DelayMs) * time.Millisecond),
		Types:           include,
		ExcludeTypes:    exclude,
		Limit:           limit,
	}, true
}
