package vibe

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"
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

// gitleaksScanner runs gitleaks' rules over a text with a detector made of just the rules
// whose keywords occur in it. gitleaks' own Detector scans a text with every rule whose
// keywords occur; but each call also walks all of its two hundred rules and lowercases each
// rule's keywords, which for a one-line text costs far more than the scan itself, and a
// detector per rule would lowercase the text and search its keywords once per rule. Here
// one keyword search over the lowercased text picks the rules, and a detector of exactly
// those rules (built once per set of rules and kept) runs: the same rules over the same
// text, so the same secrets are found.
type gitleaksScanner struct {
	cfg       config.Config
	prefilter *ahocorasick.Trie
	byKeyword [][]int  // keyword (by its index in the prefilter) → indexes into ids
	ids       []string // rule ids, by index
	always    []int    // rules without keywords: gitleaks runs them on every text

	mu       sync.RWMutex
	bySet    map[gitleaksSet]*detect.Detector
	template *detect.Detector // the settings each detector copies
}

// gitleaksSet is a set of rules by index; the default config has fewer than 256.
type gitleaksSet [4]uint64

// maxGitleaksSets bounds the detectors kept; past it the cache starts over.
const maxGitleaksSets = 2048

// newGitleaksScanner indexes a configured detector's rules by keyword. A rule that needs
// other rules' findings (a composite rule) runs with those rules.
func newGitleaksScanner(full *detect.Detector) *gitleaksScanner {
	cfg := full.Config
	ids := slices.Sorted(maps.Keys(cfg.Rules))
	sc := &gitleaksScanner{cfg: cfg, template: full, bySet: map[gitleaksSet]*detect.Detector{}}
	if len(ids) > 64*len(gitleaksSet{}) {
		panic("vibe: more gitleaks rules than a gitleaksSet holds")
	}
	var keywords []string
	index := map[string]int{}
	for _, id := range ids {
		r := cfg.Rules[id]
		if r.Regex == nil && len(r.Keywords) == 0 {
			// A path-only rule (pkcs12-file) matches file names, and texts here have none.
			continue
		}
		i := len(sc.ids)
		sc.ids = append(sc.ids, id)
		if len(r.Keywords) == 0 {
			sc.always = append(sc.always, i)
		}
		for _, k := range r.Keywords {
			k = strings.ToLower(k)
			ki, ok := index[k]
			if !ok {
				ki = len(keywords)
				index[k] = ki
				keywords = append(keywords, k)
				sc.byKeyword = append(sc.byKeyword, nil)
			}
			if !slices.Contains(sc.byKeyword[ki], i) {
				sc.byKeyword[ki] = append(sc.byKeyword[ki], i)
			}
		}
	}
	sc.prefilter = ahocorasick.NewTrieBuilder().AddStrings(keywords).Build()
	return sc
}

// findings reports each secret the rules find in text, with its rule id; lower is
// strings.ToLower(text).
func (sc *gitleaksScanner) findings(ctx context.Context, text, lower string, add func(rule, secret string)) {
	var set gitleaksSet
	for _, i := range sc.always {
		set[i>>6] |= 1 << (i & 63)
	}
	found := len(sc.always) > 0
	sc.prefilter.Walk(stringBytes(lower), func(_, _, p int64) bool {
		for _, i := range sc.byKeyword[p] {
			set[i>>6] |= 1 << (i & 63)
			found = true
		}
		return true
	})
	if !found {
		return
	}
	gitleaksFindings(ctx, sc.detector(set), text, add)
}

// detector returns the detector of a set of rules, building it the first time.
func (sc *gitleaksScanner) detector(set gitleaksSet) *detect.Detector {
	sc.mu.RLock()
	d := sc.bySet[set]
	sc.mu.RUnlock()
	if d != nil {
		return d
	}
	one := sc.cfg
	one.Rules = map[string]config.Rule{}
	one.Keywords = map[string]struct{}{}
	for i, id := range sc.ids {
		if set[i>>6]&(1<<(i&63)) == 0 {
			continue
		}
		r := sc.cfg.Rules[id]
		one.Rules[id] = r
		for _, req := range r.RequiredRules {
			if rr, ok := sc.cfg.Rules[req.RuleID]; ok {
				one.Rules[req.RuleID] = rr
			}
		}
	}
	for _, r := range one.Rules {
		for _, k := range r.Keywords {
			one.Keywords[strings.ToLower(k)] = struct{}{}
		}
	}
	d = detect.NewDetectorContext(context.Background(), one)
	d.IgnoreGitleaksAllow, d.Redact, d.MaxDecodeDepth = sc.template.IgnoreGitleaksAllow, sc.template.Redact, sc.template.MaxDecodeDepth
	sc.mu.Lock()
	if len(sc.bySet) >= maxGitleaksSets {
		clear(sc.bySet)
	}
	sc.bySet[set] = d
	sc.mu.Unlock()
	return d
}

// gitleaksFindings runs a detector over text and reports each secret with its rule id.
func gitleaksFindings(ctx context.Context, d *detect.Detector, text string, add func(rule, secret string)) {
	fs := d.DetectContext(ctx, detect.Fragment{Raw: text})
	// gitleaks visits its rules in map order; the first rule to report a secret names it,
	// so the findings are put in a fixed order first.
	slices.SortFunc(fs, func(a, b report.Finding) int {
		return cmp.Or(strings.Compare(a.RuleID, b.RuleID), cmp.Compare(a.StartLine, b.StartLine),
			cmp.Compare(a.StartColumn, b.StartColumn), strings.Compare(a.Secret, b.Secret), strings.Compare(a.Match, b.Match))
	})
	for _, f := range fs {
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
