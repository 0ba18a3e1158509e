package chat

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/chat-socket/internal/room"
	"openvibe.live/backend/shared/auth"
)

// The original platform's chat socket, for its browser client unchanged: the client opens
// /ws/chat?stream=<live stream id>[&token=…] and sends {"type":"join","streamId":N}; the
// server answers auth, user-count and the stream's chat, and carries the slot's vibe-coding
// frames as on /ws/chat/:username/:slot. Only the original's chat subset is spoken: join,
// chat, leave_stream; auth, chat, user-count, system, error and vibe-coding frames.
// docs/protocol.md lists what differs from the original platform.

// OriginalRoute is the original platform's chat socket path.
const OriginalRoute = "/ws/chat"

// Texts the original socket sends, in the original's words where it had them.
const (
	msgStreamNotFound = "Stream not found"
	msgStreamEnded    = "This stream has ended"
	msgNoStream       = "Join a live stream's chat: this server has no global chat (send join with a streamId)"
	msgJoinFirst      = "Join a stream's chat before sending messages"
	msgUnavailable    = "Chat is unavailable right now, try again"
	msgLoginToChat    = "This channel requires a logged-in account to chat."
	msgTooFast        = "Slow down! You are sending messages too fast."
)

// Frame types of the original socket besides those of package room.
const (
	frameAuth   = "auth"
	frameSystem = "system"
)

// originalViewer is the state of one original-socket viewer, owned by its reader.
type originalViewer struct {
	chatter         // the logged-in viewer (ID 0: anonymous)
	anon     string // the anonymous viewer's display name
	streamID int64  // the live stream joined, 0 when none
}

func (s *Server) handleOriginalSocket(c echo.Context) error {
	req := c.Request()
	conn, err := s.upgrade(c)
	if conn == nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background()) // the socket outlives the handler
	q := req.URL.Query()
	batch, err := parseBatch(q)
	if err != nil {
		cancel()
		_ = conn.Close(closeBadRequest, err.Error())
		return nil
	}
	lookupCtx, cancelLookup := context.WithTimeout(ctx, lookupTimeout)
	defer cancelLookup()
	id, name := s.viewer(lookupCtx, auth.TokenFromRequest(req))
	v := room.NewViewer(s.cfg.SendQueueBytes, 0, "")
	v.Original = true
	cc := &connection{s: s, conn: conn, v: v, batch: batch, ctx: ctx, cancel: cancel,
		orig: &originalViewer{chatter: chatter{ID: id, Name: name}, anon: anonName()}}
	streamID := leadingInt(q.Get("stream"))
	if !s.start(cc, func() bool {
		if streamID > 0 { // as the original, a stream in the URL joins its chat at once
			if slot, problem := cc.resolveStream(streamID); problem != "" {
				cc.sendOriginalError(problem)
			} else {
				cc.enter(streamID, slot, nil)
			}
		}
		return true
	}) {
		cancel()
	}
	return nil
}

// handleOriginal answers one message on the original socket. Types the original client sends
// for features this server does not have (get-users, self-delete-history) are ignored, as the
// original ignored what it did not know.
func (cc *connection) handleOriginal(typ websocket.MessageType, data []byte) {
	if typ != websocket.MessageText {
		cc.sendOriginalError("binary messages are not supported")
		return
	}
	var m struct {
		Type     string          `json:"type"`
		Message  json.RawMessage `json:"message"`
		StreamID json.RawMessage `json:"streamId"`
		Stream   json.RawMessage `json:"stream_id"`
		Token    string          `json:"token"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		cc.sendOriginalError("message is not valid JSON")
		return
	}
	switch m.Type {
	case "join", "join_stream":
		cc.reauthenticate(m.Token)
		id := jsonInt(m.StreamID)
		if id == 0 {
			id = jsonInt(m.Stream)
		}
		if id == 0 {
			cc.v.Send(cc.authFrame(room.Slot{}))
			cc.sendOriginalError(msgNoStream)
			return
		}
		slot, problem := cc.resolveStream(id)
		if problem != "" {
			cc.v.Send(cc.authFrame(slot))
			cc.sendOriginalError(problem)
			return
		}
		cc.enter(id, slot, cc.authFrame(slot))
	case "chat":
		cc.originalChat(m.Message)
	case "leave_stream":
		cc.leaveRoom()
		cc.orig.streamID = 0
	case "ping":
		cc.v.Send(pongFrame)
	case "get-users", "self-delete-history":
	default:
		cc.sendOriginalError("unknown message type")
	}
}

// resolveStream finds the slot of live stream id, or says why the viewer cannot join it.
func (cc *connection) resolveStream(id int64) (room.Slot, string) {
	ctx, cancel := context.WithTimeout(cc.ctx, lookupTimeout)
	defer cancel()
	slot, err := cc.s.streams.Resolve(ctx, id)
	switch {
	case errors.Is(err, errStreamNotFound):
		return room.Slot{}, msgStreamNotFound
	case errors.Is(err, errStreamEnded):
		return room.Slot{}, msgStreamEnded
	case err != nil:
		cc.s.log.ErrorContext(ctx, "resolve live stream", "live_stream_id", id, "error", err)
		return room.Slot{}, msgUnavailable
	}
	return slot, ""
}

// enter moves the viewer into the slot's room (live stream id's), leaving the one it was in.
// auth, the answer to a join message (nil for the stream named in the URL), goes out when
// the room has the viewer, before the room's frames as the original answered join: a client
// that waits for it (the original client enables its chat then) misses no event stored after.
func (cc *connection) enter(id int64, slot room.Slot, auth []byte) {
	cc.orig.streamID = id
	if cc.room != nil && cc.slot.ID == slot.ID { // already in this slot's room
		if auth != nil && !cc.s.hub.Greet(cc.ctx, cc.room, cc.v, auth) {
			cc.v.Kill(closeGoingAway, reasonShutdown)
		}
		return
	}
	cc.leaveRoom()
	r, err := cc.s.hub.JoinGreeted(cc.ctx, slot, cc.v, auth)
	if err != nil {
		cc.v.Kill(closeGoingAway, reasonShutdown)
		return
	}
	cc.room, cc.slot = r, slot
}

// reauthenticate takes a join's token, as the original did: it logs an anonymous viewer in,
// and is ignored when it names another user than the one already logged in.
func (cc *connection) reauthenticate(token string) {
	if token == "" {
		return
	}
	ctx, cancel := context.WithTimeout(cc.ctx, lookupTimeout)
	defer cancel()
	id, name := cc.s.viewer(ctx, token)
	if id != 0 && (cc.orig.ID == 0 || cc.orig.ID == id) {
		cc.orig.chatter = chatter{ID: id, Name: name}
	}
}

// originalChat sends {"type":"chat","message":…} to the joined stream's chat; refusals come
// as system frames with the original's texts where it had them.
func (cc *connection) originalChat(raw json.RawMessage) {
	if cc.room == nil {
		cc.sendOriginalError(msgJoinFirst)
		return
	}
	var text string
	if len(raw) > 0 && json.Unmarshal(raw, &text) != nil {
		cc.sendOriginalError("message must be a string")
		return
	}
	switch problem := cc.s.sendChat(cc.ctx, cc.slot, cc.orig.chatter, text); {
	case problem == "":
	case problem == errLoginRequired:
		cc.sendSystem(msgLoginToChat)
	case problem == errTooFast:
		cc.sendSystem(msgTooFast)
	case strings.HasPrefix(problem, "message is too long"):
		cc.sendSystem(fmt.Sprintf("Message too long. Max %d characters.", cc.s.cfg.ChatMaxChars))
	default:
		cc.sendOriginalError(problem)
	}
}

// authFrame is the original's answer to join: who the viewer is (the streamer, in their own
// slot), and the channel's chat features, all off here beyond plain chat.
func (cc *connection) authFrame(slot room.Slot) []byte {
	o := cc.orig
	name, role := o.anon, "anon"
	var userID, core any
	if o.ID != 0 {
		name, role, userID, core = o.Name, "user", o.ID, o.Name
		if strings.EqualFold(o.Name, slot.Owner) {
			role = "streamer"
		}
	}
	return room.Encode(map[string]any{
		"type": frameAuth, "authenticated": o.ID != 0, "username": name, "core_username": core, "role": role,
		"user_id": userID, "slowmode_seconds": 0, "allow_auto_delete": false, "allow_self_delete_all": false,
		"gifs_enabled": false, "custom_emotes_enabled": false, "custom_sounds_enabled": false,
		"uploads_mods_only": false, "max_sound_seconds": 0, "emote_scale": 100, "soundboard_enabled": false,
		"soundboard_allow_pitch": false, "soundboard_allow_speed": false, "slur_filter_enabled": false,
		"slur_filter_use_builtin": false, "slur_filter_disabled_categories": []string{},
		"slur_filter_terms": []string{}, "slur_filter_regexes": []string{}, "slur_filter_nudge_message": "",
		"min_auto_delete_minutes": 0,
	})
}

// sendOriginalError sends the original's error frame: {"type":"error","message":…}.
func (cc *connection) sendOriginalError(msg string) {
	cc.v.Send(room.Encode(map[string]string{"type": room.FrameError, "message": msg}))
}

func (cc *connection) sendSystem(msg string) {
	cc.v.Send(room.Encode(map[string]string{"type": frameSystem, "message": msg,
		"timestamp": cc.s.now().UTC().Format(room.TimeFormat)}))
}

// leadingInt reads an id as the original's parseInt did: the leading digits of s; 0 when
// there are none.
func leadingInt(s string) int64 {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// jsonInt reads an id sent as a JSON number or a string, the original's parseInt way.
func jsonInt(raw json.RawMessage) int64 {
	if len(raw) == 0 {
		return 0
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return leadingInt(s)
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || f < 1 || f > 1<<53 {
		return 0
	}
	return int64(f)
}

// anonName is an anonymous viewer's display name, as the original's anon1234.
func anonName() string {
	n, err := rand.Int(rand.Reader, big.NewInt(9000))
	if err != nil {
		return "anon"
	}
	return "anon" + strconv.FormatInt(n.Int64()+1000, 10)
}
