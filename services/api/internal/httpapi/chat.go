package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/store"
)

// Chat history in the original platform's shape, for its browser chat client: it joins a
// live stream's chat over the socket (/ws/chat?stream=<id>) and loads what was said before
// from GET /api/chat/:streamId/history.
const (
	DefaultChatHistoryLimit = 500
	MaxChatHistoryLimit     = 500
)

// chatHistoryMessage is one stored chat message as the original client renders it.
type chatHistoryMessage struct {
	ID           int64  `json:"id"`
	UserID       int64  `json:"user_id"`
	Username     string `json:"username"`
	CoreUsername string `json:"core_username"`
	DisplayName  string `json:"display_name"`
	Role         string `json:"role"`
	Message      string `json:"message"`
	MessageType  string `json:"message_type"`
	Timestamp    string `json:"timestamp"`
	SourceSlug   string `json:"source_slug"`
	SourceMSID   int64  `json:"source_managed_id"`
}

type chatLiveSlot struct {
	ManagedStreamID int64  `json:"managed_stream_id"`
	Slug            string `json:"slug"`
	Title           string `json:"title"`
	LiveSessionID   int64  `json:"live_session_id"`
}

type chatHistoryResponse struct {
	Messages        []chatHistoryMessage `json:"messages"`
	LiveSlots       []chatLiveSlot       `json:"liveSlots"`
	Channel         *string              `json:"channel"`
	ActiveStreamID  *int64               `json:"activeStreamId"`
	ActiveManagedID *int64               `json:"activeManagedId"`
}

// chatHistory returns the recent chat of the slot a live stream belongs to, oldest first.
// An unknown stream has no history (as on the original platform), not an error.
func (s *Server) chatHistory(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), DefaultChatHistoryLimit, MaxChatHistoryLimit)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	out := chatHistoryResponse{Messages: []chatHistoryMessage{}, LiveSlots: []chatLiveSlot{}}
	streamID, err := strconv.ParseInt(c.Param("streamId"), 10, 64)
	if err != nil || streamID <= 0 {
		return c.JSON(http.StatusOK, out)
	}
	out.ActiveStreamID = &streamID
	ctx := c.Request().Context()
	ls, err := s.Store.LiveStreamByID(ctx, streamID)
	if errors.Is(err, store.ErrNotFound) {
		return c.JSON(http.StatusOK, out)
	}
	if err != nil {
		return fmt.Errorf("look up live stream: %w", err)
	}
	ms, err := s.Store.ManagedStreamByID(ctx, ls.ManagedStreamID)
	if err != nil {
		return fmt.Errorf("look up slot: %w", err)
	}
	owner, err := s.Store.UserByID(ctx, ms.UserID)
	if err != nil {
		return fmt.Errorf("look up channel: %w", err)
	}
	out.Channel, out.ActiveManagedID = &owner.Username, &ms.ID
	msgs, err := s.Store.RecentChatMessages(ctx, ms.ID, limit)
	if err != nil {
		return fmt.Errorf("read chat: %w", err)
	}
	for _, m := range msgs {
		out.Messages = append(out.Messages, chatHistoryMessage{
			ID: m.ID, UserID: m.UserID, Username: m.Username, CoreUsername: m.Username, DisplayName: m.Username,
			Role: "user", Message: m.Text, MessageType: "chat", Timestamp: m.CreatedAt.UTC().Format(time.RFC3339Nano),
			SourceSlug: ms.Slug, SourceMSID: ms.ID,
		})
	}
	if out.LiveSlots, err = s.liveSlots(ctx, owner.ID); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// liveSlots lists a user's slots that are live now.
func (s *Server) liveSlots(ctx context.Context, userID int64) ([]chatLiveSlot, error) {
	list, err := s.Store.ListManagedStreams(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("list slots: %w", err)
	}
	out := []chatLiveSlot{}
	for _, ms := range list {
		if ms.LiveStreamID != nil {
			out = append(out, chatLiveSlot{ManagedStreamID: ms.ID, Slug: ms.Slug, Title: ms.Title, LiveSessionID: *ms.LiveStreamID})
		}
	}
	return out, nil
}
