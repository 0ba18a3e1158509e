package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// The original platform's managed-stream broadcast settings flow: its workspace saves a slot's
// whole broadcast settings object (bitrate, resolution, …, and the vibe-coding settings under
// "vibeCoding") with PUT /api/streams/broadcast-settings, and reads it back with GET. The
// texts are the original's.
const (
	msgBroadcastSlotRequired = "managed_stream_id is required"
	msgBroadcastNotYours     = "Not your managed stream"
	msgBroadcastNotObject    = "settings must be an object"
)

type broadcastSettingsResponse struct {
	Settings        json.RawMessage `json:"settings"`
	ManagedStreamID *int64          `json:"managed_stream_id,omitempty"`
}

// getBroadcastSettings returns the slot's broadcast settings object; without
// managed_stream_id, or for a slot that is not the caller's, an empty one, as the original
// did.
func (s *Server) getBroadcastSettings(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	raw := strings.TrimSpace(c.QueryParam("managed_stream_id"))
	if raw == "" {
		return c.JSON(http.StatusOK, broadcastSettingsResponse{Settings: json.RawMessage(`{}`)})
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return echo.NewHTTPError(http.StatusBadRequest, msgBroadcastSlotRequired)
	}
	ms, err := s.Store.ManagedStreamByID(c.Request().Context(), id)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && ms.UserID != principal(c).UserID):
		return c.JSON(http.StatusOK, broadcastSettingsResponse{Settings: json.RawMessage(`{}`), ManagedStreamID: &id})
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, broadcastSettingsResponse{Settings: objectOrEmpty(ms.BroadcastSettings), ManagedStreamID: &id})
}

// putBroadcastSettings replaces the slot's broadcast settings object with the one sent. The
// vibe-coding settings inside it (vibe_coding, or the original workspace's vibeCoding) are
// read as tolerantly as the original did and applied over the current ones, then stored under
// vibe_coding; an object without them keeps the current vibe-coding settings rather than
// resetting them. Connected viewers and publishers follow a change at once, as with
// PUT /api/vibe-coding/managed/:id/settings.
func (s *Server) putBroadcastSettings(c echo.Context) error {
	var body map[string]json.RawMessage
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	id, ok := positiveID(body["managed_stream_id"])
	if !ok {
		return echo.NewHTTPError(http.StatusBadRequest, msgBroadcastSlotRequired)
	}
	blob := bytes.TrimSpace(body["settings"])
	if len(blob) == 0 || isJSONNull(blob) {
		blob = json.RawMessage(`{}`)
	}
	if blob[0] != '{' {
		return echo.NewHTTPError(http.StatusBadRequest, msgBroadcastNotObject)
	}
	ctx := c.Request().Context()
	ms, err := s.Store.ManagedStreamByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && ms.UserID != principal(c).UserID) {
		return echo.NewHTTPError(http.StatusForbidden, msgBroadcastNotYours)
	}
	if err != nil {
		return err
	}
	var before, after vibe.Settings
	saved, err := s.writeSettings(ctx, id, func(cur json.RawMessage) (json.RawMessage, error) {
		before = vibe.SettingsFromBroadcast(cur)
		after = before
		if raw := vibe.BroadcastVibeSettings(blob); raw != nil {
			after = vibe.MergeSettings(before, raw)
		}
		return vibe.BroadcastWithSettings(blob, after)
	})
	if err != nil {
		return err
	}
	if after != before {
		s.Metrics.settingsSaved.Inc()
		s.Logger.InfoContext(ctx, "vibe-coding settings saved with the broadcast settings", "managed_stream_id", id, "user_id", principal(c).UserID)
		s.publish(ctx, slotbus.Message{Kind: slotbus.KindSettings, SlotID: id, Settings: &after})
	}
	return c.JSON(http.StatusOK, broadcastSettingsResponse{Settings: objectOrEmpty(saved.BroadcastSettings), ManagedStreamID: &id})
}

// positiveID reads an id sent as a JSON number or a string of digits.
func positiveID(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		raw = json.RawMessage(strings.TrimSpace(s))
	}
	id, err := strconv.ParseInt(string(raw), 10, 64)
	return id, err == nil && id > 0
}

func isJSONNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func objectOrEmpty(raw json.RawMessage) json.RawMessage {
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '{' {
		return json.RawMessage(`{}`)
	}
	return raw
}
