package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

type slotInfo struct {
	ID    int64  `json:"id"`
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// resolveSlot finds the numeric id of the caller's slot with the given slug through
// GET /api/managed-streams.
func resolveSlot(ctx context.Context, hc *http.Client, server, token, slug string) (int64, error) {
	u, err := url.Parse(server)
	if err != nil {
		return 0, fmt.Errorf("server URL: %w", err)
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	u.Path, u.RawQuery = strings.TrimRight(u.Path, "/")+"/api/managed-streams", ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("look up slot %q: %w", slug, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return 0, fmt.Errorf("look up slot %q: %w", slug, err)
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return 0, &publisher.RejectedError{Code: vibe.CloseUnauthorized}
	case http.StatusForbidden:
		return 0, &publisher.RejectedError{Code: vibe.CloseForbidden, Reason: errorField(body)}
	default:
		return 0, fmt.Errorf("look up slot %q: %s %s (pass --managed-stream-id to skip the lookup)", slug, resp.Status, errorField(body))
	}
	var slots []slotInfo
	if err := json.Unmarshal(body, &slots); err != nil {
		var wrapped struct {
			ManagedStreams []slotInfo `json:"managed_streams"`
		}
		if err := json.Unmarshal(body, &wrapped); err != nil {
			return 0, fmt.Errorf("look up slot %q: unexpected response: %w", slug, err)
		}
		slots = wrapped.ManagedStreams
	}
	var names []string
	for _, s := range slots {
		if s.Slug == slug {
			return s.ID, nil
		}
		names = append(names, s.Slug)
	}
	if len(names) == 0 {
		return 0, fmt.Errorf("slot %q not found: this account has no slots yet", slug)
	}
	return 0, fmt.Errorf("slot %q not found among your slots (%s)", slug, strings.Join(names, ", "))
}

func errorField(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Error
}
