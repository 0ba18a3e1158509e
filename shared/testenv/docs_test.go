package testenv

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDocumentedDefaults(t *testing.T) {
	t.Parallel()
	got, err := DocumentedDefaults(filepath.Join("testdata", "config.md"))
	require.NoError(t, err)
	values := map[string]string{}
	for k, d := range got {
		values[k] = d.Value
		require.Equal(t, d.Value != "", d.Fixed, k)
	}
	require.Equal(t, map[string]string{
		"OPENVIBE_ADDR": "127.0.0.1:8080", "OPENVIBE_JWT_SECRET": "",
		"OPENVIBE_JWT_ISSUER": "openvibe.live", "OPENVIBE_JWT_AUDIENCE": "openvibe.live",
		"OPENVIBE_CHAT_RATE": "1", "OPENVIBE_CHAT_BURST": "5", "OPENVIBE_CHAT_ALLOWED_ORIGINS": "",
		"OPENVIBE_CHAT_RETENTION": "0", "OPENVIBE_CHAT_PING_INTERVAL": "25s", "OPENVIBE_CHAT_PONG_TIMEOUT": "10s",
		"OPENVIBE_CHAT_HISTORY": "",
	}, values)
	require.Equal(t, filepath.Join("testdata", "config.md")+":7", got["OPENVIBE_ADDR"].Where)
}

// recordingT collects the failures RequireDocumentedDefaults reports.
type recordingT struct {
	testing.TB
	errors []string
}

func (r *recordingT) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestRequireDocumentedDefaults(t *testing.T) {
	t.Parallel()
	doc := filepath.Join("testdata", "config.md")
	type matching struct {
		Addr      string        `env:"OPENVIBE_ADDR" envDefault:"127.0.0.1:8080"`
		Secret    string        `env:"OPENVIBE_JWT_SECRET"`
		Rate      float64       `env:"OPENVIBE_CHAT_RATE" envDefault:"1.0"`
		Origins   []string      `env:"OPENVIBE_CHAT_ALLOWED_ORIGINS" envSeparator:","`
		Retention time.Duration `env:"OPENVIBE_CHAT_RETENTION" envDefault:"0s"`
		Pong      time.Duration `env:"OPENVIBE_CHAT_PONG_TIMEOUT" envDefault:"10s"`
		Extra     int           `env:"OPENVIBE_CHAT_EXTRA" envDefault:"3"`
	}
	r := &recordingT{TB: t}
	require.Equal(t, []string{"OPENVIBE_CHAT_EXTRA"}, RequireDocumentedDefaults(r, &matching{}, doc))
	require.Empty(t, r.errors)

	type drifted struct {
		Addr    string        `env:"OPENVIBE_ADDR" envDefault:"0.0.0.0:8080"`
		Secret  string        `env:"OPENVIBE_JWT_SECRET" envDefault:"changeme"`
		Origins []string      `env:"OPENVIBE_CHAT_ALLOWED_ORIGINS" envDefault:"*"`
		Pong    time.Duration `env:"OPENVIBE_CHAT_PONG_TIMEOUT" envDefault:"10ms"`
		Burst   int           `env:"OPENVIBE_CHAT_BURST"`
	}
	r = &recordingT{TB: t}
	require.Empty(t, RequireDocumentedDefaults(r, &drifted{}, doc))
	require.Equal(t, []string{
		doc + `:7: OPENVIBE_ADDR documented with default "127.0.0.1:8080", the code's is "0.0.0.0:8080"`,
		doc + `:8: OPENVIBE_JWT_SECRET documented with default none, the code's is "changeme"`,
		doc + `:16: OPENVIBE_CHAT_ALLOWED_ORIGINS documented with default none, the code's is "*"`,
		doc + `:23: OPENVIBE_CHAT_PONG_TIMEOUT documented with default "10s", the code's is "10ms"`,
		doc + `:15: OPENVIBE_CHAT_BURST documented with default "5", the code's is none`,
	}, r.errors)
}
