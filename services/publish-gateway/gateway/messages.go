package gateway

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"openvibe.live/backend/shared/vibe"
)

// The texts of the gateway's refusals: the error field of vibe-coding.error messages, and
// close reasons. They are messages for publishers, not Go errors. The publisher protocol
// document lists each of them; tests assert them verbatim.
const (
	TextInvalidJSON           = "Invalid JSON payload"
	TextInvalidPayload        = "Invalid payload"
	TextSessionKeyRequired    = "sessionKey is required"
	TextSessionKeyTooLong     = "sessionKey must be at most 256 characters"
	TextSessionNotEstablished = "sessionKey must be established before events are accepted"
	TextTooManySessions       = "Too many sessions on one connection; reconnect"
	TextUnsupportedType       = "Unsupported message type: "    // followed by the type
	TextUnsupportedVersion    = "Unsupported protocolVersion: " // followed by the version
	TextSlotMismatch          = "managedStreamId does not match this connection"
	TextBadStreamID           = "managedStreamId must be a positive integer"
	TextSessionStore          = "Session could not be saved; send hello again"
	TextEventStore            = "Event could not be stored; send it again"
	TextShuttingDown          = "Server is shutting down; reconnect and send the event again"
	TextUnavailable           = "Service temporarily unavailable"
	TextTooManyConnections    = "Too many publisher connections for this managed stream"
	TextMessageTooLarge       = "Message too large"
	TextInternal              = "Internal error"
)

// Close codes beyond the ones in shared/vibe.
const (
	closeGoingAway   = websocket.StatusGoingAway     // 1001: server shutdown
	closeTooBig      = websocket.StatusMessageTooBig // 1009: message over the size limit
	closeInternalErr = websocket.StatusInternalError // 1011: the store failed during the handshake
	closeShutdown    = "Server shutting down"
)

// maxSessionKeyLen caps a session key, in characters.
const maxSessionKeyLen = 256

// maxSessionsPerConn bounds the sessions one connection may publish into (hello or events
// naming other session keys).
const maxSessionsPerConn = 256

// maxEchoedTypeLen caps how much of an unknown message type is echoed back.
const maxEchoedTypeLen = 64

// timestamp renders t as the protocol does: UTC, millisecond precision, trailing Z.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only our own fixed message types are encoded here; they always marshal.
		panic("gateway: encoding a protocol message: " + err.Error())
	}
	return b
}

func errorMessage(text, eventID string) []byte {
	return encode(vibe.Error{Type: vibe.MsgError, Error: text, EventID: eventID})
}

func tooLargeReason(limit int64) string {
	return TextMessageTooLarge + " (limit " + strconv.FormatInt(limit, 10) + " bytes)"
}

func unsupportedType(t string) string {
	r := []rune(t)
	if len(r) > maxEchoedTypeLen {
		t = string(r[:maxEchoedTypeLen]) + vibe.Ellipsis
	}
	return TextUnsupportedType + t
}
