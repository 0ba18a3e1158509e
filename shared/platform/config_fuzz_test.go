package platform

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

type fuzzConfig struct {
	Common
	Port    int           `env:"OPENVIBE_FZ_PORT" envDefault:"8080"`
	Rate    float64       `env:"OPENVIBE_FZ_RATE" envDefault:"1.5"`
	On      bool          `env:"OPENVIBE_FZ_ON" envDefault:"false"`
	Wait    time.Duration `env:"OPENVIBE_FZ_WAIT" envDefault:"1s"`
	Origins []string      `env:"OPENVIBE_FZ_ORIGINS" envSeparator:","`
	Secret  string        `env:"OPENVIBE_FZ_SECRET" secret:"true"`
}

// FuzzLoadConfig: any environment (values and a _FILE secret) loads without a panic into
// either a *ConfigError or a config whose every field is what its variable says (or its
// default when unset), and a secret read from a file is its trimmed content.
func FuzzLoadConfig(f *testing.F) {
	f.Add("9090", "2.5", "true", "250ms", "a.example,b.example", "s3cret", "", "info")
	f.Add("", "", "", "", "", "", "  file secret \n", "")
	f.Add("-1", "NaN", "yes", "1h2m", ",,", "x", "y", "debug")
	f.Add("99999999999999999999", "1e400", "T", "-5s", "é,ü", "", "", "nope")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, port, rate, on, wait, origins, secret, secretFile, level string) {
		envs := map[string]string{
			"OPENVIBE_FZ_PORT": port, "OPENVIBE_FZ_RATE": rate, "OPENVIBE_FZ_ON": on, "OPENVIBE_FZ_WAIT": wait,
			"OPENVIBE_FZ_ORIGINS": origins, "OPENVIBE_FZ_SECRET": secret, "OPENVIBE_LOG_LEVEL": level,
		}
		if secretFile != "" {
			path := filepath.Join(dir, "secret")
			if err := os.WriteFile(path, []byte(secretFile), 0o600); err != nil {
				t.Fatal(err)
			}
			envs["OPENVIBE_FZ_SECRET_FILE"] = path
		}
		var cfg fuzzConfig
		err := LoadConfig(&cfg, func(k string) string { return envs[k] })
		if err != nil {
			if _, ok := errors.AsType[*ConfigError](err); !ok {
				t.Fatalf("not a *ConfigError: %T %v", err, err)
			}
			return
		}
		if port != "" {
			if n, perr := strconv.Atoi(port); perr != nil || n != cfg.Port {
				t.Fatalf("port %q loaded as %d", port, cfg.Port)
			}
		} else if cfg.Port != 8080 {
			t.Fatalf("default port is %d", cfg.Port)
		}
		if on != "" {
			if b, perr := strconv.ParseBool(on); perr != nil || b != cfg.On {
				t.Fatalf("bool %q loaded as %v", on, cfg.On)
			}
		}
		if wait != "" {
			if d, perr := time.ParseDuration(wait); perr != nil || d != cfg.Wait {
				t.Fatalf("duration %q loaded as %v", wait, cfg.Wait)
			}
		}
		if secretFile != "" && secret != "" {
			t.Fatalf("both %s and its _FILE were accepted", "OPENVIBE_FZ_SECRET")
		}
		if secretFile != "" && cfg.Secret != strings.TrimSpace(secretFile) {
			t.Fatalf("secret file %q loaded as %q", secretFile, cfg.Secret)
		}
	})
}
