package room

import (
	"encoding/json"
	"strings"

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
	// Seq is the newest event viewers have been shown (never one they may not see, so it
	// tells nothing of hidden or delayed events): events delivered from now on come as live
	// frames with higher seqs; nothing at or below it will (except resume frames, which are
	// sent before any live frame).
	Seq  int64 `json:"seq"`
	User *User `json:"user"`
	// Resumed is set when the since parameter was honoured: the frames between since and
	// seq that a viewer may see now follow the welcome frame.
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

// Frames of the original platform's chat socket (/ws/chat?stream=).
const (
	FrameOriginalChat = "chat"
	FrameUserCount    = "user-count"
)

// OriginalChatFrame is a chat message in the original platform's shape.
type OriginalChatFrame struct {
	Type          string  `json:"type"`
	ID            int64   `json:"id"`
	Username      string  `json:"username"`
	CoreUsername  string  `json:"core_username"`
	UserID        int64   `json:"user_id"`
	AnonID        *string `json:"anon_id"`
	Role          string  `json:"role"`
	Message       string  `json:"message"`
	StreamID      *int64  `json:"stream_id"`
	ChannelUserID *int64  `json:"channel_user_id"`
	IsGlobal      bool    `json:"is_global"`
	AvatarURL     *string `json:"avatar_url"`
	ProfileColor  string  `json:"profile_color"`
	Filtered      bool    `json:"filtered"`
	Timestamp     string  `json:"timestamp"`
	AutoDeleteAt  *string `json:"auto_delete_at"`
}

// OriginalChatHistoryFrame carries the slot's recent chat in the original shape, after the
// original socket's join (the original client itself loads history over REST and ignores it).
type OriginalChatHistoryFrame struct {
	Type     string              `json:"type"`
	Messages []OriginalChatFrame `json:"messages"`
}

// UserCountFrame is the original socket's viewer count of a stream.
type UserCountFrame struct {
	Type     string `json:"type"`
	Count    int    `json:"count"`
	StreamID *int64 `json:"stream_id"`
}

// originalChat is a chat message in the original shape; the slot owner's role is streamer.
func originalChat(f ChatMessageFrame, owner string, liveStreamID *int64) OriginalChatFrame {
	role := "user"
	if strings.EqualFold(f.User.Username, owner) {
		role = "streamer"
	}
	return OriginalChatFrame{
		Type: FrameOriginalChat, ID: f.ID, Username: f.User.Username, CoreUsername: f.User.Username,
		UserID: f.User.ID, Role: role, Message: f.Text, StreamID: liveStreamID, ProfileColor: "#999",
		Timestamp: f.CreatedAt,
	}
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
