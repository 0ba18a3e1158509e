package room

import (
	"encoding/json"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/vibe"
)

// Frame types the viewer socket sends besides the vibe package's vibe-coding frames.
const (
	FrameWelcome     = "welcome"
	FrameReset       = "reset"
	FrameChatHistory = "chat.history"
	FrameChatMessage = "chat.message"
	FrameError       = "error"
	FramePong        = "pong"
)

// User is the public view of a chat author or of the logged-in viewer.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
}

// WelcomeFrame is the first frame on every viewer socket.
type WelcomeFrame struct {
	Type            string        `json:"type"`
	ManagedStreamID int64         `json:"managed_stream_id"`
	SlotSlug        string        `json:"slot_slug"`
	Owner           string        `json:"owner"`
	LiveStreamID    *int64        `json:"live_stream_id"`
	Settings        vibe.Settings `json:"settings"`
	// Seq is the room's delivery position: every visible event with a higher seq will be
	// sent as a live frame on this socket; nothing at or below it will (except resume
	// frames, which are sent before any live frame).
	Seq  int64 `json:"seq"`
	User *User `json:"user"`
	// Resumed is set when the since parameter was honoured: the frames between since and
	// seq follow the welcome frame.
	Resumed bool `json:"resumed"`
}

// ResetFrame tells a resuming viewer that the missed events cannot be replayed: reload the
// feed over REST and continue from Seq.
type ResetFrame struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
	Seq    int64  `json:"seq"`
}

// SettingsFrame is vibe-coding.settings.
type SettingsFrame struct {
	Type            string        `json:"type"`
	ManagedStreamID int64         `json:"managed_stream_id"`
	SlotSlug        string        `json:"slot_slug"`
	LiveStreamID    *int64        `json:"live_stream_id"`
	Settings        vibe.Settings `json:"settings"`
}

// RetractFrame is vibe-coding.retract.
type RetractFrame struct {
	Type            string `json:"type"`
	ManagedStreamID int64  `json:"managed_stream_id"`
	SlotSlug        string `json:"slot_slug"`
	EventID         string `json:"eventId"`
	Seq             int64  `json:"seq"`
}

// ChatMessageFrame is chat.message.
type ChatMessageFrame struct {
	Type      string `json:"type"`
	ID        int64  `json:"id"`
	User      User   `json:"user"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at"`
}

// ChatHistoryFrame carries the slot's recent chat, oldest first, sent once after welcome.
type ChatHistoryFrame struct {
	Type     string             `json:"type"`
	Messages []ChatMessageFrame `json:"messages"`
}

// ErrorFrame reports a rejected client message.
type ErrorFrame struct {
	Type  string `json:"type"`
	Error string `json:"error"`
}

// TimeFormat is how frames write times: RFC 3339 in UTC with milliseconds, as in the seed.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

func chatFrame(c *slotbus.Chat) ChatMessageFrame {
	return ChatMessageFrame{
		Type:      FrameChatMessage,
		ID:        c.ID,
		User:      User{ID: c.UserID, Username: c.Username},
		Text:      c.Text,
		CreatedAt: c.CreatedAt.UTC().Format(TimeFormat),
	}
}

// Encode marshals a frame. Frames are plain structs, so an error is a programming error.
func Encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("room: encode frame: " + err.Error())
	}
	return b
}

// ErrorBytes encodes an error frame.
func ErrorBytes(msg string) []byte { return Encode(ErrorFrame{Type: FrameError, Error: msg}) }
