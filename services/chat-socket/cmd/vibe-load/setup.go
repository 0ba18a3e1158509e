package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// setup makes sure the load user and its slots exist, live-ready (enabled, no delay), and
// returns them.
func setup(ctx context.Context, st store.Store, username string, slots int) (store.User, []store.ManagedStream, error) {
	u, err := st.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		hash, herr := auth.HashPassword("vibe-load-" + time.Now().String())
		if herr != nil {
			return u, nil, herr
		}
		u, err = st.CreateUser(ctx, username, hash)
	}
	if err != nil {
		return u, nil, fmt.Errorf("load user: %w", err)
	}
	s := vibe.DefaultSettings()
	var out []store.ManagedStream
	for i := 1; i <= slots; i++ {
		slug := fmt.Sprintf("load-%d", i)
		ms, err := st.ManagedStreamBySlug(ctx, u.ID, slug)
		if errors.Is(err, store.ErrNotFound) {
			ms, err = st.CreateManagedStream(ctx, u.ID, slug, "Load test "+slug, nil)
		}
		if err != nil {
			return u, nil, fmt.Errorf("slot %s: %w", slug, err)
		}
		ms, err = st.UpdateBroadcastSettings(ctx, ms.ID, store.SettingsOnly(func(cur json.RawMessage) (json.RawMessage, error) {
			return vibe.BroadcastWithSettings(cur, s)
		}))
		if err != nil {
			return u, nil, fmt.Errorf("slot %s settings: %w", slug, err)
		}
		out = append(out, ms)
	}
	return u, out, nil
}

// publishToken issues an API token with the publish scope for gateway mode.
func publishToken(ctx context.Context, st store.Store, u store.User) (string, error) {
	tok, hash, hint, err := auth.NewAPIToken()
	if err != nil {
		return "", err
	}
	exp := time.Now().Add(time.Hour)
	_, err = st.CreateAPIToken(ctx, store.APIToken{
		UserID: u.ID, Name: "vibe-load", Hash: hash, Hint: hint,
		Scopes: []string{store.ScopeVibeCodingPublish}, ExpiresAt: &exp, CreatedAt: time.Now().UTC(),
	})
	if err != nil {
		return "", fmt.Errorf("create token: %w", err)
	}
	return tok, nil
}
