package platform

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type testConfig struct {
	Common
	DatabaseURL string        `env:"OPENVIBE_DATABASE_URL"`
	JWTSecret   string        `env:"OPENVIBE_JWT_SECRET" secret:"true"`
	APIKey      string        `env:"OPENVIBE_TEST_API_KEY" secret:"true"`
	Enabled     bool          `env:"OPENVIBE_TEST_ENABLED" envDefault:"true"`
	Interval    time.Duration `env:"OPENVIBE_TEST_INTERVAL" envDefault:"5s"`
	Limits      struct {
		Max int `env:"MAX" envDefault:"10"`
	} `envPrefix:"OPENVIBE_TEST_LIMITS_"`
}

func (c testConfig) Validate() error {
	var p Problems
	p.Add(c.Common.Validate())
	p.Check(len(c.JWTSecret) >= 8, "OPENVIBE_JWT_SECRET: must be at least 8 bytes")
	p.Check(c.Limits.Max > 0, "OPENVIBE_TEST_LIMITS_MAX: must be positive")
	return p.Err()
}

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaultsAndValues(t *testing.T) {
	t.Parallel()
	var cfg testConfig
	err := LoadConfig(&cfg, mapEnv(map[string]string{
		"OPENVIBE_JWT_SECRET":      "0123456789",
		"OPENVIBE_TEST_ENABLED":    "false",
		"OPENVIBE_TEST_LIMITS_MAX": "3",
		"OPENVIBE_LOG_LEVEL":       "", // empty counts as unset
	}))
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8080", cfg.Addr)
	require.Equal(t, "info", cfg.LogLevel)
	require.Equal(t, "0123456789", cfg.JWTSecret)
	require.False(t, cfg.Enabled)
	require.Equal(t, 5*time.Second, cfg.Interval)
	require.Equal(t, 3, cfg.Limits.Max)
	require.Equal(t, int64(1<<20), cfg.BodyLimit)
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	d := Defaults[testConfig]()
	require.Equal(t, Common{
		Addr: "127.0.0.1:8080", LogLevel: "info", LogFormat: "json",
		ShutdownTimeout: 20 * time.Second, BodyLimit: 1 << 20,
	}, d.Common)
	require.True(t, d.Enabled)
	require.Equal(t, 5*time.Second, d.Interval)
	require.Equal(t, 10, d.Limits.Max)
	require.Empty(t, d.JWTSecret)

	// The defaults are what loading an environment without the variables gives.
	var loaded testConfig
	require.NoError(t, LoadConfig(&loaded, mapEnv(map[string]string{"OPENVIBE_JWT_SECRET": "0123456789"})))
	loaded.JWTSecret = ""
	require.Equal(t, d, loaded)

	// A required variable has no default; Defaults leaves it empty rather than failing.
	require.Empty(t, Defaults[mainConfig]().JWTSecret)
}

func TestDefaultsPanicOnATagThatDoesNotParse(t *testing.T) {
	t.Parallel()
	type broken struct {
		Every time.Duration `env:"OPENVIBE_TEST_EVERY" envDefault:"often"`
	}
	require.PanicsWithValue(t, `platform: the defaults of platform.broken do not parse: OPENVIBE_TEST_EVERY: invalid value: unable to parse duration: time: invalid duration "often"`,
		func() { Defaults[broken]() })
}

func TestLoadConfigFromFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	require.NoError(t, os.WriteFile(secret, []byte("  file-secret-value\n"), 0o600))
	max := filepath.Join(dir, "max")
	require.NoError(t, os.WriteFile(max, []byte("7\n"), 0o600))

	var cfg testConfig
	require.NoError(t, LoadConfig(&cfg, mapEnv(map[string]string{
		"OPENVIBE_JWT_SECRET_FILE":      secret,
		"OPENVIBE_TEST_LIMITS_MAX_FILE": max,
	})))
	require.Equal(t, "file-secret-value", cfg.JWTSecret)
	require.Equal(t, 7, cfg.Limits.Max)
}

func TestLoadConfigReportsEveryProblem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var cfg testConfig
	err := LoadConfig(&cfg, mapEnv(map[string]string{
		"OPENVIBE_JWT_SECRET":        "x",
		"OPENVIBE_JWT_SECRET_FILE":   filepath.Join(dir, "whatever"),
		"OPENVIBE_TEST_API_KEY_FILE": filepath.Join(dir, "missing"),
		"OPENVIBE_TEST_ENABLED":      "maybe",
		"OPENVIBE_TEST_INTERVAL":     "soon",
	}))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	msg := err.Error()
	for _, want := range []string{
		"OPENVIBE_JWT_SECRET and OPENVIBE_JWT_SECRET_FILE are both set",
		"OPENVIBE_TEST_API_KEY_FILE: reading",
		"OPENVIBE_TEST_ENABLED: invalid value",
		"OPENVIBE_TEST_INTERVAL: invalid value",
	} {
		require.Contains(t, msg, want)
	}
	require.Len(t, ce.Problems, 4, msg)
}

func TestLoadConfigRunsValidateWithAllProblems(t *testing.T) {
	t.Parallel()
	var cfg testConfig
	err := LoadConfig(&cfg, mapEnv(map[string]string{
		"OPENVIBE_ADDR":            "nonsense",
		"OPENVIBE_LOG_FORMAT":      "xml",
		"OPENVIBE_TEST_LIMITS_MAX": "0",
	}))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	require.Len(t, ce.Problems, 4, err.Error())
	for _, want := range []string{"OPENVIBE_ADDR", "OPENVIBE_LOG_FORMAT", "OPENVIBE_JWT_SECRET", "OPENVIBE_TEST_LIMITS_MAX"} {
		require.Contains(t, err.Error(), want)
	}
}

func TestLoadConfigValidatesDespiteLoadProblems(t *testing.T) {
	t.Parallel()
	var cfg testConfig
	err := LoadConfig(&cfg, mapEnv(map[string]string{
		"OPENVIBE_JWT_SECRET_FILE": filepath.Join(t.TempDir(), "missing"),
		"OPENVIBE_TEST_LIMITS_MAX": "-1",
		"OPENVIBE_TEST_INTERVAL":   "soon",
	}))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	// Loading problems for the secret file and the interval, and Validate's problem with the
	// limit; Validate's complaint about the (unloaded) secret is not repeated.
	require.Len(t, ce.Problems, 3, err.Error())
	require.Contains(t, err.Error(), "OPENVIBE_TEST_LIMITS_MAX: must be positive")
	require.NotContains(t, err.Error(), "at least 8 bytes")
}

func TestLoadConfigRejectsNonPointer(t *testing.T) {
	t.Parallel()
	require.Error(t, LoadConfig(testConfig{}, mapEnv(nil)))
}

func TestCommonValidate(t *testing.T) {
	t.Parallel()
	ok := Common{Addr: "127.0.0.1:0", LogLevel: "DEBUG", LogFormat: "text", ShutdownTimeout: time.Second, BodyLimit: 1}
	tests := []struct {
		name   string
		mutate func(*Common)
		want   string
	}{
		{"valid", func(*Common) {}, ""},
		{"bad addr", func(c *Common) { c.Addr = "8080" }, "OPENVIBE_ADDR"},
		{"bad port", func(c *Common) { c.Addr = ":99999" }, "invalid port"},
		{"bad level", func(c *Common) { c.LogLevel = "loud" }, "OPENVIBE_LOG_LEVEL"},
		{"zero timeout", func(c *Common) { c.ShutdownTimeout = 0 }, "OPENVIBE_SHUTDOWN_TIMEOUT"},
		{"drain too long", func(c *Common) { c.DrainDelay = 2 * time.Second }, "OPENVIBE_DRAIN_DELAY"},
		{"no body", func(c *Common) { c.BodyLimit = 0 }, "OPENVIBE_HTTP_BODY_LIMIT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := ok
			tt.mutate(&c)
			err := c.Validate()
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	require.NoError(t, CheckURL("K", "redis://localhost:6379/0", "redis", "rediss"))
	require.NoError(t, CheckURL("K", "unix:///run/redis.sock", "redis", "unix"))
	require.ErrorContains(t, CheckURL("K", "", "redis"), "K: not an absolute URL")
	require.ErrorContains(t, CheckURL("K", "redis://", "redis"), "K: not an absolute URL")
	err := CheckURL("K", "postgres://u:hunter2@h/db", "redis")
	require.ErrorContains(t, err, `scheme "postgres"`)
	require.NotContains(t, err.Error(), "hunter2")
}

func TestProblems(t *testing.T) {
	t.Parallel()
	var p Problems
	require.NoError(t, p.Err())
	p.Add(nil)
	p.Add(errors.Join(errors.New("a"), errors.New("b")))
	p.Check(true, "never")
	p.Check(false, "c %d", 1)
	require.Len(t, p, 3)
	require.EqualError(t, p.Err(), "a\nb\nc 1")
}

func TestRedact(t *testing.T) {
	t.Parallel()
	var cfg testConfig
	require.NoError(t, LoadConfig(&cfg, mapEnv(map[string]string{
		"OPENVIBE_JWT_SECRET":   "super-secret-value",
		"OPENVIBE_DATABASE_URL": "postgres://app:hunter2@db:5432/openvibe",
	})))
	got := Redact(&cfg)
	require.Equal(t, Redacted, got["OPENVIBE_JWT_SECRET"])
	require.Equal(t, "", got["OPENVIBE_TEST_API_KEY"], "an unset secret shows as empty")
	require.Equal(t, "postgres://app:xxxxx@db:5432/openvibe", got["OPENVIBE_DATABASE_URL"])
	require.Equal(t, "5s", got["OPENVIBE_TEST_INTERVAL"])
	require.Equal(t, 10, got["OPENVIBE_TEST_LIMITS_MAX"])
	require.Equal(t, "127.0.0.1:8080", got["OPENVIBE_ADDR"])

	var buf bytes.Buffer
	require.NoError(t, WriteConfig(&buf, &cfg))
	require.NotContains(t, buf.String(), "super-secret-value")
	require.NotContains(t, buf.String(), "hunter2")
	var decoded map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &decoded))
	require.Equal(t, true, decoded["OPENVIBE_TEST_ENABLED"])
}
