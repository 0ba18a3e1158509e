package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

const (
	demoUser  = "demo"
	demoSlug  = "live-demo"
	demoToken = "demo publisher"
)

// demo seeds a demo account, slot and publish token, then publishes a scripted coding session
// through the real gateway, over and over, so the viewer page has something to show.
type demo struct {
	st        store.Store
	jwt       *auth.JWT
	san       *vibe.Sanitizer
	listening <-chan string
	dataDir   string
	out       io.Writer
	log       *slog.Logger
}

func newDemo(st store.Store, jwt *auth.JWT, san *vibe.Sanitizer, listening <-chan string, dataDir string, out io.Writer, log *slog.Logger) *demo {
	return &demo{st: st, jwt: jwt, san: san, listening: listening, dataDir: dataDir, out: out, log: log}
}

func (d *demo) Register(*echo.Echo)                {}
func (d *demo) Shutdown(ctx context.Context) error { return nil }

// Run waits for the server to listen, seeds, and publishes until ctx ends.
func (d *demo) Run(ctx context.Context) error {
	var base string
	select {
	case <-ctx.Done():
		return nil
	case base = <-d.listening:
	}
	slot, token, password, err := d.seed(ctx)
	if err != nil {
		return fmt.Errorf("demo seed: %w", err)
	}
	fmt.Fprintf(d.out, "  Demo viewer page: %s/%s/%s\n  Demo studio login: %s / %s\n  Demo publish token: %s\n\n",
		base, demoUser, demoSlug, demoUser, password, token)
	client, err := publisher.New(publisher.Config{
		Server: base, Token: token, ManagedStreamID: slot.ID, SlotSlug: slot.Slug, Sanitizer: d.san,
		Publisher: vibe.Publisher{IntegrationID: "openvibe-demo", IntegrationLabel: "openvibe demo",
			Vendor: "OpenVibe.Live", ClientType: "service", ClientName: "standalone --demo", ClientVersion: version,
			Capabilities: &vibe.Capabilities{Thinking: true, ToolCalls: true, WorkspaceFileEvents: true}},
		Logger: d.log,
	})
	if err != nil {
		return fmt.Errorf("demo publisher: %w", err)
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = client.Close(closeCtx)
	}()
	for turn := 0; ; turn++ {
		for _, ev := range demoScript(turn) {
			if err := client.Publish(ev); err != nil {
				d.log.WarnContext(ctx, "demo publish failed", "error", err)
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(1500 * time.Millisecond):
			}
		}
	}
}

// seed creates (or reuses) the demo account, slot and live stream and mints a new token,
// revoking the previous demo tokens.
func (d *demo) seed(ctx context.Context) (store.ManagedStream, string, string, error) {
	credPath := filepath.Join(d.dataDir, "demo-password")
	u, err := d.st.UserByUsername(ctx, demoUser)
	var password string
	switch {
	case errors.Is(err, store.ErrNotFound):
		password = randomHex(9)
		hash, err := auth.HashPassword(password)
		if err != nil {
			return store.ManagedStream{}, "", "", err
		}
		if u, err = d.st.CreateUser(ctx, demoUser, hash); err != nil {
			return store.ManagedStream{}, "", "", err
		}
		if err := os.WriteFile(credPath, []byte(password+"\n"), 0o600); err != nil {
			return store.ManagedStream{}, "", "", err
		}
	case err != nil:
		return store.ManagedStream{}, "", "", err
	default:
		b, _ := os.ReadFile(credPath)
		password = strings.TrimSpace(string(b))
	}
	slot, err := d.st.ManagedStreamBySlug(ctx, u.ID, demoSlug)
	if errors.Is(err, store.ErrNotFound) {
		slot, err = d.st.CreateManagedStream(ctx, u.ID, demoSlug, "openvibe demo: refactoring live", []byte(`{}`))
	}
	if err != nil {
		return store.ManagedStream{}, "", "", err
	}
	if _, _, err := d.st.StartLiveStream(ctx, slot.ID, time.Now()); err != nil {
		return store.ManagedStream{}, "", "", err
	}
	tokens, err := d.st.ListAPITokens(ctx, u.ID)
	if err != nil {
		return store.ManagedStream{}, "", "", err
	}
	for _, t := range tokens {
		if t.Name == demoToken && t.RevokedAt == nil {
			_ = d.st.RevokeAPIToken(ctx, u.ID, t.ID, time.Now())
		}
	}
	token, hash, hint, err := auth.NewAPIToken()
	if err != nil {
		return store.ManagedStream{}, "", "", err
	}
	if _, err := d.st.CreateAPIToken(ctx, store.APIToken{UserID: u.ID, Name: demoToken, Hash: hash, Hint: hint,
		Scopes: []string{store.ScopeVibeCodingPublish}}); err != nil {
		return store.ManagedStream{}, "", "", err
	}
	return slot, token, password, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// demoScript is one turn of a plausible coding session. It deliberately contains an API key
// and absolute home paths, which the sanitizer removes before anything is stored.
func demoScript(turn int) []vibe.Event {
	snippet := "func (l *Limiter) Allow() bool {\n\treturn l.bucket.Take(1)\n}"
	return []vibe.Event{
		{EventType: vibe.TypePrompt, Summary: "Add per-slot rate limiting to the gateway",
			Prompt: &vibe.TextBody{Text: fmt.Sprintf("Turn %d: add a per-slot token bucket to the publish gateway and test it.", turn+1)}},
		{EventType: vibe.TypeThinking, Thinking: &vibe.TextBody{Text: "The limiter must be shared by every connection of a slot, so it belongs in the slot registry, not the connection."}},
		{EventType: vibe.TypeToolCall, Summary: "Reading the slot registry",
			Tool: &vibe.ToolBody{Name: "read", Phase: "start", ArgumentsPreview: `{"path":"/home/ada/src/openvibe/services/publish-gateway/internal/slots.go"}`}},
		{EventType: vibe.TypeToolCall, Summary: "Running the tests",
			Tool: &vibe.ToolBody{Name: "bash", Phase: "end", ArgumentsPreview: "OPENAI_API_KEY=sk-proj-Zx81mQpL0vT4rN6wB2yK9dF3hJ7cA5sE go test ./...",
				ResultPreview: "ok  \topenvibe.live/backend/services/publish-gateway\t1.9s"}},
		{EventType: vibe.TypeFileChange, Summary: "Editing services/publish-gateway/internal/limit.go",
			File: &vibe.FileBody{Name: "limit.go", RelativePath: "services/publish-gateway/internal/limit.go", Operation: "edit", ChangeCount: 12, Snippet: &snippet}},
		{EventType: vibe.TypeResponse, Summary: "Added a per-slot token bucket",
			Response: &vibe.ResponseBody{Text: "Added a per-slot token bucket shared by every publisher connection of the slot; a connection over the limit is closed with 4429. Tests pass."}},
	}
}
