package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// Public feed limits.
const (
	DefaultFeedLimit = 18
	MaxFeedLimit     = 100
	// feedPages bounds the store round trips when projection hides events the type filter let
	// through (e.g. a depth rule): the feed then returns fewer than limit events.
	feedPages = 4
)

type slotRef struct {
	ID    int64  `json:"id"`
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

type feedResponse struct {
	ManagedStream slotRef         `json:"managed_stream"`
	LiveStreamID  *int64          `json:"live_stream_id"`
	Settings      vibe.Settings   `json:"settings"`
	Publisher     *vibe.Publisher `json:"publisher"`
	Events        []feedEvent     `json:"events"`
}

// feedEvent is a projected event with its per-slot sequence number, which the widget uses to
// resume the chat socket (?since=) and to drop duplicates.
type feedEvent struct {
	Seq int64 `json:"seq"`
	*vibe.Event
}

// feedBuildTimeout bounds one shared computation of a feed, which outlives any one request.
const feedBuildTimeout = 10 * time.Second

// publicFeed serves a slot's public feed. Requests for the same feed that arrive while it is
// being computed wait for that computation and share its answer, so a crowd opening a channel
// at once costs one set of store reads; an answer is never older than the computation that
// was running when the request arrived.
func (s *Server) publicFeed(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), DefaultFeedLimit, MaxFeedLimit)
	if err != nil {
		return err
	}
	username, slot := c.Param("username"), c.Param("slot")
	user, slotName := normalizeChannel(username, slot)
	key := strings.ToLower(user) + "/" + slotName + "/" + strconv.Itoa(limit)
	computed := false // Do runs the function in the goroutine of the request that started it
	v, err, _ := s.feeds.Do(key, func() (any, error) {
		computed = true
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), feedBuildTimeout)
		defer cancel()
		return s.buildFeed(ctx, username, slot, limit)
	})
	if !computed {
		s.Metrics.feedShared.Inc()
	}
	if err != nil {
		return err
	}
	return s.cacheableBody(c, v.([]byte))
}

// buildFeed reads and encodes one public feed.
func (s *Server) buildFeed(ctx context.Context, username, slot string, limit int) ([]byte, error) {
	ms, err := s.channelSlot(ctx, username, slot)
	if err != nil {
		return nil, err
	}
	settings := vibe.SettingsFromBroadcast(ms.BroadcastSettings)
	events, err := s.visibleEvents(ctx, ms.ID, settings, limit, s.Now())
	if err != nil {
		return nil, err
	}
	pub, err := s.viewerPublisher(ctx, ms.ID)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(feedResponse{
		ManagedStream: slotRef{ID: ms.ID, Slug: ms.Slug, Title: ms.Title},
		LiveStreamID:  ms.LiveStreamID,
		Settings:      settings,
		Publisher:     pub,
		Events:        events,
	})
	if err != nil {
		return nil, fmt.Errorf("encode feed: %w", err)
	}
	return body, nil
}

// ChannelSlot resolves /:username/:slotIdOrSlug: the username case-insensitively with an
// optional leading @, the slot by numeric id or by slug, and only among that user's slots.
func ChannelSlot(ctx context.Context, st store.Store, username, slot string) (store.User, store.ManagedStream, error) {
	username, slot = normalizeChannel(username, slot)
	if !usernameRE.MatchString(username) {
		return store.User{}, store.ManagedStream{}, echo.NewHTTPError(http.StatusNotFound, "Channel not found")
	}
	u, err := st.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, store.ManagedStream{}, echo.NewHTTPError(http.StatusNotFound, "Channel not found")
	}
	if err != nil {
		return store.User{}, store.ManagedStream{}, fmt.Errorf("look up channel: %w", err)
	}
	var ms store.ManagedStream
	switch {
	case digitsRE.MatchString(slot):
		id, perr := strconv.ParseInt(slot, 10, 64)
		if perr != nil {
			err = store.ErrNotFound
			break
		}
		ms, err = st.ManagedStreamByID(ctx, id)
		if err == nil && ms.UserID != u.ID {
			err = store.ErrNotFound
		}
	case slugRE.MatchString(slot):
		ms, err = st.ManagedStreamBySlug(ctx, u.ID, slot)
	default:
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, store.ManagedStream{}, echo.NewHTTPError(http.StatusNotFound, msgNoSlot)
	}
	if err != nil {
		return store.User{}, store.ManagedStream{}, fmt.Errorf("look up slot: %w", err)
	}
	return u, ms, nil
}

// normalizeChannel trims a channel's username (and its optional leading @) and lowercases
// the slot id or slug. Usernames are matched case-insensitively by the store.
func normalizeChannel(username, slot string) (string, string) {
	return strings.TrimPrefix(strings.TrimSpace(username), "@"), strings.ToLower(strings.TrimSpace(slot))
}

func (s *Server) channelSlot(ctx context.Context, username, slot string) (store.ManagedStream, error) {
	_, ms, err := ChannelSlot(ctx, s.Store, username, slot)
	return ms, err
}

// visibleEvents returns the newest limit events a viewer may see at now, projected, oldest
// first: those vibe.WhyHidden shows. The store's query narrows the rows first (nothing at all
// while the slot is disabled or paused), the rule decides each one.
func (s *Server) visibleEvents(ctx context.Context, slotID int64, st vibe.Settings, limit int, now time.Time) ([]feedEvent, error) {
	out := []feedEvent{}
	q, ok := store.ViewerFeed(slotID, st, now, limit)
	if !ok {
		return out, nil
	}
	for range feedPages {
		rows, err := s.Store.VibeFeed(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("read feed: %w", err)
		}
		for _, row := range rows {
			if p, why := viewerView(row, st, now); why == vibe.Shown && p != nil {
				out = append(out, feedEvent{Seq: row.Seq, Event: p})
				if len(out) == limit {
					break
				}
			}
		}
		if len(out) == limit || len(rows) < q.Limit {
			break
		}
		q.BeforeSeq = rows[len(rows)-1].Seq
	}
	slices.Reverse(out)
	return out, nil
}

// viewerView is what viewers see of a stored event at now under st, and why they do not see
// it when they do not (vibe.WhyHidden). The projection of an event still inside its delay is
// returned too: the owner history shows what viewers will see. A stored payload that no
// longer decodes is hidden rather than shown raw.
func viewerView(row store.VibeEvent, st vibe.Settings, now time.Time) (*vibe.Event, vibe.Hidden) {
	why := vibe.WhyHidden(row.Viewing(), st, now)
	if !why.Coming() {
		return nil, why
	}
	var ev vibe.Event
	if err := json.Unmarshal(row.Payload, &ev); err != nil {
		return nil, vibe.HiddenType
	}
	ev.Visibility = row.Visibility // the stored column is authoritative
	p := vibe.Project(&ev, st)
	if p == nil {
		return nil, vibe.HiddenType
	}
	return p, why
}

// viewerPublisher is the latest session's publisher cut to what viewers may see.
func (s *Server) viewerPublisher(ctx context.Context, slotID int64) (*vibe.Publisher, error) {
	p, err := s.latestPublisher(ctx, slotID)
	if p == nil || err != nil {
		return nil, err
	}
	return p.ViewerSafe(), nil
}

// latestPublisher is the latest session's publisher, whole (for the owner), or nil.
func (s *Server) latestPublisher(ctx context.Context, slotID int64) (*vibe.Publisher, error) {
	sess, err := s.Store.LatestVibeSession(ctx, slotID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read latest session: %w", err)
	}
	if len(sess.Publisher) == 0 {
		return nil, nil
	}
	p := vibe.NormalizePublisher(sess.Publisher)
	return &p, nil
}

// cacheableBody writes a JSON body with a strong ETag over its bytes and a short max-age, or
// 304 when the client already holds this version.
func (s *Server) cacheableBody(c echo.Context, body []byte) error {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(s.FeedMaxAge/time.Second)))
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		s.Metrics.feedNotChanged.Inc()
		return c.NoContent(http.StatusNotModified)
	}
	return c.JSONBlob(http.StatusOK, body)
}

func etagMatches(header, etag string) bool {
	for _, candidate := range strings.Split(header, ",") {
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == etag || candidate == "*" {
			return true
		}
	}
	return false
}
