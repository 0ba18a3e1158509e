package chat

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"openvibe.live/backend/services/chat-socket/internal/room"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
)

// Chat errors sent to the viewer as {"type":"error","error":…}.
const (
	errLoginRequired = "log in to chat"
	errEmpty         = "message is empty"
	errTooFast       = "you are sending messages too fast"
	errNotSent       = "message could not be sent, try again"
)

// chatter is the author of a chat message: a logged-in viewer, or ID 0 when anonymous.
type chatter struct {
	ID   int64
	Name string
}

// sendChat stores a viewer's message, hands it to the local room at once and publishes it
// for the other nodes. It returns what is wrong with the message ("" when it was sent).
func (s *Server) sendChat(ctx context.Context, slot room.Slot, by chatter, text string) string {
	if by.ID == 0 {
		return errLoginRequired
	}
	text, problem := cleanChat(text, s.cfg.ChatMaxChars)
	if problem != "" {
		return problem
	}
	if !s.allowChat(by.ID) {
		return errTooFast
	}
	m, err := s.store.InsertChatMessage(ctx, store.ChatMessage{
		ManagedStreamID: slot.ID,
		UserID:          by.ID,
		Text:            text,
		CreatedAt:       s.now().UTC(),
	})
	if err != nil {
		s.log.ErrorContext(ctx, "store chat message", "slot_id", slot.ID, "error", err)
		return errNotSent
	}
	m.Username = by.Name
	s.chatMsg.Inc()
	c := slotbus.FromStoreChat(m)
	s.hub.Chat(ctx, slot.ID, c)
	if err := slotbus.Publish(ctx, s.broker, slotbus.Message{Kind: slotbus.KindChat, SlotID: slot.ID, Chat: c}); err != nil {
		s.log.WarnContext(ctx, "publish chat message to other nodes", "slot_id", slot.ID, "error", err)
	}
	return ""
}

// cleanChat trims a message and turns line breaks and other control characters into spaces.
// It returns the cleaned text or a problem for the viewer.
func cleanChat(text string, maxChars int) (string, string) {
	if !utf8.ValidString(text) {
		return "", "message is not valid UTF-8"
	}
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text))
	if text == "" {
		return "", errEmpty
	}
	if n := utf8.RuneCountInString(text); n > maxChars {
		return "", fmt.Sprintf("message is too long (%d characters, at most %d)", n, maxChars)
	}
	return text, ""
}
