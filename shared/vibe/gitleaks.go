package vibe

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// gitleaksGenericRule is the gitleaks rule this package replaces by its own keyword rule: with
// Go's regexp it costs most of the scan time (see docs/sanitizer.md for the measurement).
const gitleaksGenericRule = "generic-api-key"

// buggyGlobalAllow is a global allowlist regex of the default gitleaks config that lacks a
// group: it allows every secret that starts with "true", contains "false" or ends with
// "null". It is replaced by the grouped form it was meant to be.
const (
	buggyGlobalAllow = `'''(?i)^true|false|null$'''`
	fixedGlobalAllow = `'''(?i)^(?:true|false|null)$'''`
)

// lazyIdentPrefix opens about a hundred default rules. It only widens the match to the left
// (the secret is a capture group after it), and Go's regexp pays for it at every position:
// removing it makes those rules 10-50 times faster without changing the secrets found.
const lazyIdentPrefix = `[\w.-]{0,50}?`

var silenceGitleaks sync.Once

// newGitleaksDetector builds a gitleaks detector from the embedded default config with a
// fresh viper instance (the global one is not safe for concurrent use), its logger silenced
// (trace logs print secrets), gitleaks:allow comments ignored, no decoding (done here, so that
// encoded secrets are masked in their encoded form) and without the rules in drop.
func newGitleaksDetector(drop ...string) (*detect.Detector, error) {
	silenceGitleaks.Do(func() { logging.Logger = zerolog.Nop() })

	cfgText := strings.Replace(config.DefaultConfig, buggyGlobalAllow, fixedGlobalAllow, 1)
	cfgText = strings.ReplaceAll(cfgText, lazyIdentPrefix, "")
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(cfgText)); err != nil {
		return nil, fmt.Errorf("read gitleaks config: %w", err)
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return nil, fmt.Errorf("decode gitleaks config: %w", err)
	}
	cfg, err := vc.Translate()
	if err != nil {
		return nil, fmt.Errorf("translate gitleaks config: %w", err)
	}
	for _, id := range drop {
		delete(cfg.Rules, id)
	}
	cfg.Keywords = make(map[string]struct{})
	for _, r := range cfg.Rules {
		for _, k := range r.Keywords {
			cfg.Keywords[strings.ToLower(k)] = struct{}{}
		}
	}
	d := detect.NewDetectorContext(context.Background(), cfg)
	d.IgnoreGitleaksAllow = true
	d.Redact = 0
	d.MaxDecodeDepth = 0
	return d, nil
}

// gitleaksFindings runs the detector over text and reports each secret with its rule id.
func gitleaksFindings(ctx context.Context, d *detect.Detector, text string, add func(rule, secret string)) {
	for _, f := range d.DetectContext(ctx, detect.Fragment{Raw: text}) {
		secret := f.Secret
		if secret == "" {
			secret = f.Match
		}
		add(f.RuleID, secret)
		if f.Match != secret && strings.HasPrefix(f.RuleID, "private-key") {
			add(f.RuleID, f.Match)
		}
	}
}
