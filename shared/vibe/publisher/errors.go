package publisher

import (
	"errors"
	"fmt"
	"strings"

	"openvibe.live/backend/shared/vibe"
)

// Errors returned by Publish, Flush and Close.
var (
	// ErrQueueFull means the bounded queue was full and the event was dropped.
	ErrQueueFull = errors.New("publisher: queue full, event dropped")
	// ErrClosed means the client was closed (or stopped on a permanent failure).
	ErrClosed = errors.New("publisher: client closed")
)

// Sentinels matched (with errors.Is) by a *RejectedError carrying the matching close code.
var (
	ErrUnauthorized = errors.New("unauthorized")
	ErrForbidden    = errors.New("forbidden")
	ErrSlotNotFound = errors.New("slot not found")
	ErrBadRequest   = errors.New("bad request")
)

// RejectedError is a permanent failure: the gateway refused the connection with a close code
// (or an HTTP status) that retrying cannot fix. The client stops and reports it.
type RejectedError struct {
	Code   int    // WebSocket close code (4400, 4401, 4403, 4404)
	Reason string // the server's close reason or error message, if any
}

// Sentence is a human explanation of the failure, suitable for showing to a streamer.
func (e *RejectedError) Sentence() string {
	switch e.Code {
	case vibe.CloseUnauthorized:
		return "the token was rejected: check it is valid, not expired and not revoked"
	case vibe.CloseForbidden:
		if e.Reason == "" || strings.Contains(strings.ToLower(e.Reason), "scope") {
			return "the token lacks the vibe_coding_publish scope: create a token with that scope"
		}
		return "access to the slot was denied: " + e.Reason
	case vibe.CloseNotFound:
		return "slot not found or not yours: check the slot id or slug and that the token belongs to the slot's owner"
	case vibe.CloseBadRequest:
		if e.Reason == vibe.ReasonSlugMismatch {
			return "the slot slug does not match the managed stream id: pass one or check both"
		}
		if e.Reason != "" {
			return "the gateway rejected the connection request: " + e.Reason
		}
		return "the gateway rejected the connection request as malformed"
	}
	return fmt.Sprintf("the gateway refused the connection (code %d)", e.Code)
}

func (e *RejectedError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("%s (close %d)", e.Sentence(), e.Code)
	}
	return fmt.Sprintf("%s (close %d: %s)", e.Sentence(), e.Code, e.Reason)
}

// Is lets errors.Is(err, ErrUnauthorized) and friends match.
func (e *RejectedError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Code == vibe.CloseUnauthorized
	case ErrForbidden:
		return e.Code == vibe.CloseForbidden
	case ErrSlotNotFound:
		return e.Code == vibe.CloseNotFound
	case ErrBadRequest:
		return e.Code == vibe.CloseBadRequest
	}
	return false
}

// permanentCode maps a close code or an HTTP handshake status to a permanent close code, or 0.
func permanentCode(code int) int {
	switch code {
	case vibe.CloseBadRequest, vibe.CloseUnauthorized, vibe.CloseForbidden, vibe.CloseNotFound:
		return code
	case 400, 401, 403, 404:
		return code + 4000
	}
	return 0
}

// EventError is a vibe-coding.error the gateway sent about one event. The event is not
// resent: the same bytes would be rejected again.
type EventError struct {
	EventID string
	Message string
}

func (e *EventError) Error() string {
	return fmt.Sprintf("event %s rejected: %s", e.EventID, e.Message)
}

// ServerError is a vibe-coding.error not tied to one event.
type ServerError struct {
	Message string
}

func (e *ServerError) Error() string { return "gateway error: " + e.Message }
