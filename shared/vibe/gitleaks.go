package vibe

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

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
	prefilter *acMatcher
	keywords  []string // the prefilter's patterns
	byKeyword [][]int  // keyword (by its index in the prefilter) → indexes into ids
	rows      []uint64 // prefilter state → the rules of the keywords it reports (acMatcher.stateRows)
	ids       []string // rule ids, by index
	always    []int    // rules without keywords: gitleaks runs them on every text

	anchored map[string]*anchoredRule             // rule id → how to find its matches from its literals
	allowRe  map[*config.Allowlist]*regexp.Regexp // allowlists whose expressions all open with ^, as one anchored expression

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
	sc := &gitleaksScanner{cfg: cfg, template: full, bySet: map[gitleaksSet]*detect.Detector{}, anchored: map[string]*anchoredRule{},
		allowRe: map[*config.Allowlist]*regexp.Regexp{}}
	sc.anchorAllowlists(cfg.Allowlists)
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
		if a := newAnchoredRule(r.Regex); a != nil {
			sc.anchored[id] = a
		}
		sc.anchorAllowlists(r.Allowlists)
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
	sc.prefilter, sc.keywords = newACMatcher(keywords), keywords
	sc.rows = sc.prefilter.stateRows(len(gitleaksSet{}), func(p int, row []uint64) {
		for _, i := range sc.byKeyword[p] {
			row[i>>6] |= 1 << (i & 63)
		}
	})
	return sc
}

// findings reports each secret the rules find in text, with its rule id; lower is
// strings.ToLower(text).
func (sc *gitleaksScanner) findings(ctx context.Context, text, lower string, add func(rule, secret string)) {
	var set gitleaksSet
	for _, i := range sc.always {
		set[i>>6] |= 1 << (i & 63)
	}
	found := sc.prefilter.union(lower, sc.rows, set[:])
	if !found && len(sc.always) == 0 {
		return
	}
	if sc.composite(set) {
		gitleaksFindings(ctx, sc.detector(set), text, add)
		return
	}
	sc.run(ctx, set, text, add)
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
		reportGitleaksFinding(add, f.RuleID, f.Secret, f.Match)
	}
}

// reportGitleaksFinding reports a finding's secret, and a private key's whole block too.
func reportGitleaksFinding(add func(rule, secret string), rule, secret, match string) {
	if secret == "" {
		secret = match
	}
	if strings.HasPrefix(rule, "private-key") && pemPlaceholderBlocks(match) {
		return // -----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY----- and its kin, one or more
	}
	add(rule, secret)
	if match != secret && strings.HasPrefix(rule, "private-key") {
		add(rule, match)
	}
}

// composite reports whether a set holds a rule that needs other rules' findings; gitleaks'
// own detector runs those sets (the default config has no such rule).
func (sc *gitleaksScanner) composite(set gitleaksSet) bool {
	for i, id := range sc.ids {
		if set[i>>6]&(1<<(i&63)) != 0 && len(sc.cfg.Rules[id].RequiredRules) > 0 {
			return true
		}
	}
	return false
}

// run applies the rules of set to text as gitleaks' Detector.DetectContext does for a
// fragment without a path, a commit or decoding (the way newGitleaksDetector configures it,
// gitleaks:allow ignored), and reports the same findings in the order gitleaksFindings
// sorts them: rule by rule in the order of their ids, each rule's matches in text order.
// Going through DetectContext cost a second regexp scan of every rule that matched, a
// regexp scan for the line breaks, a logger, the text lower-cased again and its keywords
// searched again, per call.
func (sc *gitleaksScanner) run(ctx context.Context, set gitleaksSet, text string, add func(rule, secret string)) {
	var found []gitleaksFound
	var lines []int // positions of the line breaks, found on the first match
	for i, id := range sc.ids {
		if set[i>>6]&(1<<(i&63)) == 0 {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		r := sc.cfg.Rules[id]
		if r.SkipReport || r.Regex == nil || r.Path != nil && !r.Path.MatchString("") {
			continue
		}
		var matches [][]int
		if a := sc.anchored[id]; a != nil {
			matches = a.findAll(text)
		} else {
			matches = r.Regex.FindAllStringIndex(text, -1)
		}
		if len(matches) == 0 {
			continue
		}
		if lines == nil {
			lines = make([]int, 0, 64)
			for j := 0; j < len(text); j++ {
				if text[j] == '\n' {
					lines = append(lines, j)
				}
			}
		}
		for _, m := range matches {
			match := strings.Trim(text[m[0]:m[1]], "\n")
			line, startLine, startCol := gitleaksLine(lines, text, m[0], m[0]+len(match))
			secret := match
			if groups := r.Regex.FindStringSubmatch(match); len(groups) >= 2 {
				if r.SecretGroup > 0 {
					if len(groups) <= r.SecretGroup {
						continue
					}
					secret = groups[r.SecretGroup]
				} else {
					for _, g := range groups[1:] {
						if len(g) > 0 {
							secret = g
							break
						}
					}
				}
			}
			if r.Entropy != 0 && gitleaksEntropy(secret) <= r.Entropy {
				continue
			}
			if sc.allowed(sc.cfg.Allowlists, secret, match, line) || sc.allowed(r.Allowlists, secret, match, line) {
				continue
			}
			found = append(found, gitleaksFound{rule: id, secret: secret, match: match, line: startLine, col: startCol})
		}
	}
	// gitleaks drops a generic rule's finding that another rule found on the same line.
	for _, f := range found {
		if strings.Contains(strings.ToLower(f.rule), "generic") && slices.ContainsFunc(found, func(g gitleaksFound) bool {
			return g.line == f.line && g.rule != f.rule && strings.Contains(g.secret, f.secret) && !strings.Contains(strings.ToLower(g.rule), "generic")
		}) {
			continue
		}
		reportGitleaksFinding(add, f.rule, f.secret, f.match)
	}
}

type gitleaksFound struct {
	rule, secret, match string
	line, col           int
}

// gitleaksLine returns what gitleaks calls the line of a match at text[start:end] (from the
// line break before it, included, to the one after it), and the match's line and column
// numbers; breaks holds the positions of text's line breaks.
func gitleaksLine(breaks []int, text string, start, end int) (string, int, int) {
	if len(breaks) == 0 {
		breaks = []int{len(text)}
	}
	prev, lineNum := 0, 0
	startLine, startCol, startIdx, endIdx, set := 0, 0, 0, 0, false
	for n, b := range breaks {
		lineNum = n
		if prev <= start && start < b {
			set = true
			startLine, startCol, startIdx, endIdx = n, start-prev+1, prev, b
		}
		if prev < end && end <= b {
			endIdx = b
		}
		prev = b
	}
	if !set {
		startLine, startCol = lineNum+1, start-prev+1
		i := 0
		for end+i < len(text) && text[end+i] != '\n' && text[end+i] != '\r' {
			i++
		}
		endIdx = end + i
	}
	endIdx = max(endIdx, end)
	return text[startIdx:endIdx], startLine, startCol
}

// anchorAllowlists keeps, for each allowlist whose expressions all open with ^ (the default
// config's global one: stand-ins such as ${VAR}, {{ … }}, a single repeated letter), their
// union anchored at the start. gitleaks joins them unanchored, so the regexp engine tries the
// union at every position of the secret (about 50 µs for a 108-character key), though only
// a match at its start can succeed. The union is written as gitleaks writes it, (?:a|b|…),
// since a flag opening one expression carries into those after it.
func (sc *gitleaksScanner) anchorAllowlists(lists []*config.Allowlist) {
	for _, a := range lists {
		if len(a.Regexes) == 0 {
			continue
		}
		parts := make([]string, len(a.Regexes))
		for i, re := range a.Regexes {
			parts[i] = re.String()
		}
		union := "(?:" + strings.Join(parts, "|") + ")"
		if tree, err := syntax.Parse(union, syntax.Perl); err == nil && opensAtStart(tree) {
			sc.allowRe[a] = regexp.MustCompile("^" + union)
		}
	}
}

// opensAtStart reports whether every match of re begins with ^ (the start of the text).
func opensAtStart(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginText:
		return true
	case syntax.OpConcat:
		return len(re.Sub) > 0 && opensAtStart(re.Sub[0])
	case syntax.OpCapture:
		return opensAtStart(re.Sub[0])
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !opensAtStart(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// allowed applies allowlists to a finding as gitleaks does for a fragment without a path or
// commit.
func (sc *gitleaksScanner) allowed(lists []*config.Allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		var regexAllowed bool
		if re := sc.allowRe[a]; re != nil {
			regexAllowed = target != "" && re.MatchString(target)
		} else {
			regexAllowed = a.RegexAllowed(target)
		}
		stop, _ := a.ContainsStopWord(secret)
		if a.MatchCondition == config.AllowlistMatchAnd {
			ok := true
			if len(a.Commits) > 0 {
				c, _ := a.CommitAllowed("")
				ok = ok && c
			}
			if len(a.Paths) > 0 {
				ok = ok && a.PathAllowed("")
			}
			if len(a.Regexes) > 0 {
				ok = ok && regexAllowed
			}
			if len(a.StopWords) > 0 {
				ok = ok && stop
			}
			if ok {
				return true
			}
		} else if regexAllowed || stop {
			return true
		}
	}
	return false
}

// gitleaksEntropy is gitleaks' Shannon entropy of a secret, computed its way (over runes,
// summed in map order), so that a secret at a rule's threshold is judged alike.
func gitleaksEntropy(data string) (entropy float64) {
	if data == "" {
		return 0
	}
	counts := make(map[rune]int)
	for _, c := range data {
		counts[c]++
	}
	inv := 1.0 / float64(len(data))
	for _, n := range counts {
		freq := float64(n) * inv
		entropy -= freq * math.Log2(freq)
	}
	return entropy
}

// anchoredRule finds the matches of an expression every match of which opens with one of a
// few literals, after at most a word boundary (\b(?:hvs\.…|s\.…), \b(ey…): the expression
// runs, anchored, only where a literal occurs. Go's regexp finds the literal prefix of an
// expression itself, but not behind \b or in an alternation, and then tries the expression
// at every position: two such rules with keywords as common as "s." and "ey" (in "key")
// cost more than all of gitleaks' other rules together.
type anchoredRule struct {
	literals []string
	boundary bool           // a \b precedes the literals
	re       *regexp.Regexp // ^(?:expression)
}

// newAnchoredRule returns the anchored form of re, or nil when not every match of re is
// known to open with a literal of two bytes or more.
func newAnchoredRule(re *regexp.Regexp) *anchoredRule {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	a := &anchoredRule{}
	if tree.Op == syntax.OpConcat && len(tree.Sub) > 1 && tree.Sub[0].Op == syntax.OpWordBoundary {
		a.boundary = true
		tree = tree.Sub[1]
	}
	lits, ok := openingLiterals(tree)
	if !ok {
		return nil
	}
	a.literals = lits
	a.re = regexp.MustCompile(`^(?:` + re.String() + `)`)
	return a
}

// openingLiterals returns literals one of which opens every match of re, when re's form
// shows them: a case-sensitive literal of two bytes or more, or a concatenation, capture or
// alternation of such.
func openingLiterals(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(string(re.Rune)) < 2 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture:
		return openingLiterals(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		return openingLiterals(re.Sub[0])
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			lits, ok := openingLiterals(sub)
			if !ok {
				return nil, false
			}
			all = append(all, lits...)
		}
		return all, true
	}
	return nil, false
}

// findAll returns what FindAllStringIndex of the rule's expression returns: candidates are
// the literals' positions in order, each tried with the anchored expression unless it lies
// inside the previous match or fails the word boundary.
func (a *anchoredRule) findAll(text string) [][]int {
	var at []int
	for _, lit := range a.literals {
		for from := 0; ; {
			i := strings.Index(text[from:], lit)
			if i < 0 {
				break
			}
			at = append(at, from+i)
			from += i + 1
		}
	}
	if len(at) == 0 {
		return nil
	}
	if len(a.literals) > 1 {
		slices.Sort(at)
		at = slices.Compact(at)
	}
	var out [][]int
	end := 0
	for _, p := range at {
		if p < end {
			continue
		}
		if a.boundary && (p > 0 && isWordByte(text[p-1])) == isWordByte(text[p]) {
			continue
		}
		if m := a.re.FindStringIndex(text[p:]); m != nil {
			out = append(out, []int{p, p + m[1]})
			end = p + m[1]
		}
	}
	return out
}
