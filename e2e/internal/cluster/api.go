package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// API is a small typed client of the api service. Methods fail the test on any error
// unless they return one.
type API struct {
	t     testing.TB
	base  string
	Token string // the session JWT after Register
	User  User
	http  *http.Client
}

// User is an account.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
}

// Slot is a managed stream.
type Slot struct {
	ID   int64  `json:"id"`
	Slug string `json:"slug"`
}

// FeedEvent is one event of the public feed.
type FeedEvent struct {
	Seq       int64  `json:"seq"`
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
}

// HistoryEvent is one row of the owner history.
type HistoryEvent struct {
	Seq              int64   `json:"seq"`
	EventID          string  `json:"event_id"`
	Withheld         bool    `json:"withheld"`
	RetractedAt      *string `json:"retracted_at"`
	FirstDeliveredAt *string `json:"first_delivered_at"`
	ViewerStatus     string  `json:"viewer_status"`
}

// NewAPI returns a client for the api at base (http://host:port).
func NewAPI(t testing.TB, base string) *API {
	return &API{t: t, base: base, http: &http.Client{Timeout: 15 * time.Second}}
}

// Do sends a JSON request with the session token and decodes a JSON answer into out (when
// not nil). It returns the status; transport errors fail the test.
func (a *API) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.Token != "" {
		req.Header.Set("Authorization", "Bearer "+a.Token)
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(data))
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: decode: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

func (a *API) must(method, path string, body, out any) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if _, err := a.Do(ctx, method, path, body, out); err != nil {
		a.t.Fatal(err)
	}
}

// Register creates an account and keeps its session token.
func (a *API) Register(username, password string) User {
	a.t.Helper()
	var out struct {
		User  User   `json:"user"`
		Token string `json:"token"`
	}
	a.must(http.MethodPost, "/api/auth/register", map[string]string{"username": username, "password": password}, &out)
	a.Token, a.User = out.Token, out.User
	return out.User
}

// CreateSlot creates a managed stream.
func (a *API) CreateSlot(slug string) Slot {
	a.t.Helper()
	var s Slot
	a.must(http.MethodPost, "/api/managed-streams", map[string]string{"slug": slug, "title": slug}, &s)
	return s
}

// CreateToken mints an hbt_ API token with the publish scope.
func (a *API) CreateToken(name string) string {
	a.t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	a.must(http.MethodPost, "/api/tokens", map[string]any{"name": name, "scopes": []string{"vibe_coding_publish"}}, &out)
	return out.Token
}

// GoLive starts a live stream on the slot and returns its id.
func (a *API) GoLive(slot int64) int64 {
	a.t.Helper()
	var out struct {
		LiveStreamID int64 `json:"live_stream_id"`
	}
	a.must(http.MethodPost, "/api/managed-streams/"+strconv.FormatInt(slot, 10)+"/live", nil, &out)
	return out.LiveStreamID
}

// Settings applies a partial settings change.
func (a *API) Settings(slot int64, patch map[string]any) {
	a.t.Helper()
	a.must(http.MethodPut, "/api/vibe-coding/managed/"+strconv.FormatInt(slot, 10)+"/settings", map[string]any{"settings": patch}, nil)
}

// Feed reads the public feed of a slot (up to 100 events).
func (a *API) Feed(ctx context.Context, username, slug string) ([]FeedEvent, error) {
	var out struct {
		Events []FeedEvent `json:"events"`
	}
	_, err := a.Do(ctx, http.MethodGet, "/api/vibe-coding/channel/"+url.PathEscape(username)+"/"+url.PathEscape(slug)+"/events?limit=100", nil, &out)
	return out.Events, err
}

// MustFeed is Feed failing the test on error.
func (a *API) MustFeed(username, slug string) []FeedEvent {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	evs, err := a.Feed(ctx, username, slug)
	if err != nil {
		a.t.Fatal(err)
	}
	return evs
}

// History reads the owner history, newest first (up to 200 events).
func (a *API) History(slot int64) []HistoryEvent {
	a.t.Helper()
	var out struct {
		Events []HistoryEvent `json:"events"`
	}
	a.must(http.MethodGet, "/api/vibe-coding/managed/"+strconv.FormatInt(slot, 10)+"/events?limit=200", nil, &out)
	return out.Events
}

// Retract withdraws one event.
func (a *API) Retract(slot int64, eventID string) {
	a.t.Helper()
	a.must(http.MethodDelete, "/api/vibe-coding/managed/"+strconv.FormatInt(slot, 10)+"/events/"+url.PathEscape(eventID), nil, nil)
}

// PanicResult is the panic button's answer.
type PanicResult struct {
	Withheld int64 `json:"withheld"`
}

// Panic presses the panic button.
func (a *API) Panic(slot int64) PanicResult {
	a.t.Helper()
	var out PanicResult
	a.must(http.MethodPost, "/api/vibe-coding/managed/"+strconv.FormatInt(slot, 10)+"/panic", nil, &out)
	return out
}
