package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// maskedRow is a text and the secret in it that must not come out.
type maskedRow struct{ in, secret string }

// requireKept fails unless every text comes out of a session of its own unchanged.
func requireKept(t *testing.T, san *Sanitizer, texts ...string) {
	t.Helper()
	for _, in := range texts {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}

// requireMasked fails when a row's secret comes out of a session of its own.
func requireMasked(t *testing.T, san *Sanitizer, rows []maskedRow) {
	t.Helper()
	for _, r := range rows {
		require.NotContains(t, san.NewSession(SessionHints{}).SanitizeText(r.in), r.secret, "in %q", r.in)
	}
}
