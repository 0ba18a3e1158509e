package platform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

type mainConfig struct {
	Common
	JWTSecret string `env:"OPENVIBE_JWT_SECRET,required" secret:"true"`
	Retries   int    `env:"OPENVIBE_TEST_RETRIES" envDefault:"3"`
}

func (c mainConfig) Validate() error {
	var p Problems
	p.Add(c.Common.Validate())
	p.Check(c.Retries >= 0, "OPENVIBE_TEST_RETRIES: must not be negative")
	return p.Err()
}

type mainRun struct {
	err            error
	stdout, stderr string
	served         bool
}

func runMain(t *testing.T, app App, env map[string]string, args ...string) mainRun {
	t.Helper()
	var out, errOut bytes.Buffer
	var res mainRun
	if app.Serve == nil {
		app.Serve = func(ctx context.Context, log *slog.Logger) error {
			res.served = true
			log.InfoContext(ctx, "serving")
			return nil
		}
	}
	res.err = Main(t.Context(), app, args, mapEnv(env), &out, &errOut)
	res.stdout, res.stderr = out.String(), errOut.String()
	return res
}

func testApp() App {
	return App{Name: "openvibe-test", Version: "1.2.3", Config: &mainConfig{}}
}

var validEnv = map[string]string{"OPENVIBE_JWT_SECRET": "s3cret-s3cret", "OPENVIBE_LOG_FORMAT": "json"}

func TestMainServeIsDefault(t *testing.T) {
	t.Parallel()
	app := testApp()
	res := runMain(t, app, validEnv)
	require.NoError(t, res.err)
	require.True(t, res.served)
	require.Contains(t, res.stderr, `"service":"openvibe-test"`)
	require.Equal(t, "s3cret-s3cret", app.Config.(*mainConfig).JWTSecret, "config loaded before serve")
}

func TestMainServeErrorIsLoggedAndReturned(t *testing.T) {
	t.Parallel()
	app := testApp()
	app.Serve = func(context.Context, *slog.Logger) error { return errors.New("boom") }
	res := runMain(t, app, validEnv, "serve")
	require.ErrorContains(t, res.err, "boom")
	require.Contains(t, res.stderr, `"msg":"serve failed"`)
}

func TestMainReportsAllConfigProblems(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"serve", "migrate", "config", "healthcheck"} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			res := runMain(t, testApp(), map[string]string{
				"OPENVIBE_ADDR":         "nowhere",
				"OPENVIBE_TEST_RETRIES": "-1",
			}, cmd)
			require.Error(t, res.err)
			require.False(t, res.served)
			require.Empty(t, res.stdout)
			for _, want := range []string{"OPENVIBE_JWT_SECRET", "OPENVIBE_ADDR", "OPENVIBE_TEST_RETRIES"} {
				require.Contains(t, res.stderr, want)
			}
			require.Equal(t, 1, bytes.Count([]byte(res.stderr), []byte("OPENVIBE_ADDR")),
				"a problem of the embedded Common is reported once")
		})
	}
}

func TestMainConfigRedactsSecrets(t *testing.T) {
	t.Parallel()
	res := runMain(t, testApp(), validEnv, "config", "--addr", "127.0.0.1:9999")
	require.NoError(t, res.err)
	require.NotContains(t, res.stdout, "s3cret")
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &got))
	require.Equal(t, Redacted, got["OPENVIBE_JWT_SECRET"])
	require.Equal(t, "127.0.0.1:9999", got["OPENVIBE_ADDR"], "flags override the environment")
	require.InDelta(t, 3, got["OPENVIBE_TEST_RETRIES"], 0)
}

func TestMainVersion(t *testing.T) {
	t.Parallel()
	res := runMain(t, testApp(), nil, "version") // needs no configuration
	require.NoError(t, res.err)
	require.Contains(t, res.stdout, "openvibe-test 1.2.3 "+runtime.Version()+" revision ")
}

func TestMainUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-h"}, {"help"}, {"serve", "-h"}} {
		res := runMain(t, testApp(), nil, args...)
		require.NoError(t, res.err, args)
		require.False(t, res.served)
		require.Contains(t, res.stdout, "Usage: openvibe-test")
		require.Contains(t, res.stdout, "healthcheck")
		require.Contains(t, res.stdout, "OPENVIBE_JWT_SECRET")
		require.Contains(t, res.stdout, "required")
		require.Contains(t, res.stdout, `default "127.0.0.1:8080"`)
	}
}

func TestMainBadInvocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown flag", []string{"serve", "--nope"}, "flag provided but not defined"},
		{"stray argument", []string{"config", "extra"}, "unexpected arguments: extra"},
		{"migrate unsupported", []string{"migrate"}, "migrate is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := runMain(t, testApp(), validEnv, tt.args...)
			require.ErrorContains(t, res.err, tt.want)
			require.Contains(t, res.stderr, tt.want)
			require.False(t, res.served)
		})
	}
}

func TestMainMigrate(t *testing.T) {
	t.Parallel()
	app := testApp()
	migrated := false
	app.Migrate = func(context.Context, *slog.Logger) error { migrated = true; return nil }
	res := runMain(t, app, validEnv, "migrate")
	require.NoError(t, res.err)
	require.True(t, migrated)
}

func TestMainHealthcheck(t *testing.T) {
	t.Parallel()
	r := startServe(t, ServeOptions{})
	_, port, err := net.SplitHostPort(r.addr)
	require.NoError(t, err)

	for _, addr := range []string{r.addr, "0.0.0.0:" + port, ":" + port} {
		env := map[string]string{"OPENVIBE_JWT_SECRET": "x", "OPENVIBE_ADDR": addr}
		res := runMain(t, testApp(), env, "healthcheck")
		require.NoError(t, res.err, addr)
		require.Equal(t, "ok\n", res.stdout)
	}

	r.cancel()
	require.NoError(t, r.wait(t))
	res := runMain(t, testApp(), map[string]string{"OPENVIBE_JWT_SECRET": "x", "OPENVIBE_ADDR": r.addr}, "healthcheck")
	require.ErrorContains(t, res.err, "healthcheck")
	require.Contains(t, res.stderr, "healthcheck")
}
