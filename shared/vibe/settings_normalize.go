package vibe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// BroadcastKey is the key of the vibe-coding settings inside a slot's broadcast_settings.
// The original platform's workspace also writes them under broadcastKeyCamel; a stored
// object with only that key is read from it, and writing the settings removes it, so one
// copy is the truth.
const (
	BroadcastKey      = "vibe_coding"
	broadcastKeyCamel = "vibeCoding"
)

// Widget title bounds, in characters.
const (
	DefaultWidgetTitle = "Vibe Coding"
	MaxWidgetTitle     = 80
)

// SettingsError reports every invalid field of a settings patch. Fields maps a field name to
// what is wrong with it ("must be an integer", "unknown field"); the empty name stands for the
// patch as a whole.
type SettingsError struct {
	Fields map[string]string
}

func (e *SettingsError) add(field, problem string) {
	if e.Fields == nil {
		e.Fields = make(map[string]string)
	}
	e.Fields[field] = problem
}

// Messages lists one sentence per problem: known fields in alphabetical order, then unknown
// fields.
func (e *SettingsError) Messages() []string {
	var known, unknown []string
	for f := range e.Fields {
		if _, ok := settingsFields[f]; ok || f == "" {
			known = append(known, f)
		} else {
			unknown = append(unknown, f)
		}
	}
	sort.Strings(known)
	sort.Strings(unknown)
	out := make([]string, 0, len(e.Fields))
	for _, f := range known {
		if f == "" {
			out = append(out, e.Fields[f])
			continue
		}
		out = append(out, f+" "+e.Fields[f])
	}
	for _, f := range unknown {
		out = append(out, "unknown field "+f)
	}
	return out
}

func (e *SettingsError) Error() string {
	return "invalid settings: " + strings.Join(e.Messages(), "; ")
}

type fieldKind int

const (
	kindBool fieldKind = iota
	kindInt
	kindDepth
	kindTitle
)

type settingsField struct {
	kind     fieldKind
	min, max int
	ptrInt   func(*Settings) *int
	ptrStr   func(*Settings) *string
}

func boolField(p func(*Settings) *int) settingsField {
	return settingsField{kind: kindBool, min: 0, max: 1, ptrInt: p}
}

func intField(lo, hi int, p func(*Settings) *int) settingsField {
	return settingsField{kind: kindInt, min: lo, max: hi, ptrInt: p}
}

// settingsFields describes the 21 settings keys and their rules.
var settingsFields = map[string]settingsField{
	"enabled":              boolField(func(s *Settings) *int { return &s.Enabled }),
	"widget_title":         {kind: kindTitle, ptrStr: func(s *Settings) *string { return &s.WidgetTitle }},
	"viewer_depth":         {kind: kindDepth, ptrStr: func(s *Settings) *string { return &s.ViewerDepth }},
	"show_prompts":         boolField(func(s *Settings) *int { return &s.ShowPrompts }),
	"show_responses":       boolField(func(s *Settings) *int { return &s.ShowResponses }),
	"show_thinking":        boolField(func(s *Settings) *int { return &s.ShowThinking }),
	"show_tool_calls":      boolField(func(s *Settings) *int { return &s.ShowToolCalls }),
	"show_tool_arguments":  boolField(func(s *Settings) *int { return &s.ShowToolArguments }),
	"show_file_events":     boolField(func(s *Settings) *int { return &s.ShowFileEvents }),
	"show_file_snippets":   boolField(func(s *Settings) *int { return &s.ShowFileSnippets }),
	"redact_file_paths":    boolField(func(s *Settings) *int { return &s.RedactFilePaths }),
	"redact_personal_data": boolField(func(s *Settings) *int { return &s.RedactPersonalData }),
	"paused":               boolField(func(s *Settings) *int { return &s.Paused }),
	"delay_ms":             intField(0, 120000, func(s *Settings) *int { return &s.DelayMs }),
	"max_events":           intField(1, 100, func(s *Settings) *int { return &s.MaxEvents }),
	"max_prompt_chars":     intField(60, 1200, func(s *Settings) *int { return &s.MaxPromptChars }),
	"max_response_chars":   intField(80, 2400, func(s *Settings) *int { return &s.MaxResponseChars }),
	"max_thinking_chars":   intField(40, 1200, func(s *Settings) *int { return &s.MaxThinkingChars }),
	"max_tool_chars":       intField(40, 1200, func(s *Settings) *int { return &s.MaxToolChars }),
	"max_snippet_chars":    intField(40, 1200, func(s *Settings) *int { return &s.MaxSnippetChars }),
	"show_custom_events":   boolField(func(s *Settings) *int { return &s.ShowCustomEvents }),
}

// SettingsFromBroadcast reads the vibe-coding settings out of a slot's broadcast_settings
// object. It never fails: anything missing or malformed falls back to the defaults.
func SettingsFromBroadcast(broadcast json.RawMessage) Settings {
	return NormalizeSettings(BroadcastVibeSettings(broadcast))
}

// BroadcastVibeSettings returns the raw vibe-coding settings object inside a slot's
// broadcast_settings: its vibe_coding key, or else its vibeCoding key (the original
// platform's workspace form); nil when neither holds an object.
func BroadcastVibeSettings(broadcast json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(broadcast, &obj) != nil {
		return nil
	}
	for _, k := range []string{BroadcastKey, broadcastKeyCamel} {
		if v := bytes.TrimSpace(obj[k]); len(v) > 0 && v[0] == '{' {
			return v
		}
	}
	return nil
}

// NormalizeSettings reads a stored vibe_coding object tolerantly: every field that is missing
// or holds junk keeps its default, numbers are rounded and clamped, and unknown keys are
// ignored.
func NormalizeSettings(raw json.RawMessage) Settings {
	return MergeSettings(DefaultSettings(), raw)
}

// MergeSettings applies a settings object to cur as tolerantly as NormalizeSettings reads
// one: every field present and readable replaces cur's, anything else keeps cur's value. It
// is how settings saved by the original platform's workspace (inside its broadcast settings,
// unvalidated) are taken.
func MergeSettings(cur Settings, raw json.RawMessage) Settings {
	s := cur.normalized()
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return s
	}
	for name, v := range obj {
		f, ok := settingsFields[name]
		if !ok || isNull(v) {
			continue
		}
		_ = f.apply(&s, v, false) // junk keeps the current value
	}
	return s.normalized()
}

// ApplySettingsPatch applies a settings patch from the API strictly. Missing keys keep their
// current value and null resets a key to its default. Every bad field — a value of the wrong
// type, an unknown depth, an unknown key — is reported in one *SettingsError, and cur is
// returned unchanged.
func ApplySettingsPatch(cur Settings, patch json.RawMessage) (Settings, error) {
	orig := cur
	cur = cur.normalized()
	var obj map[string]json.RawMessage
	trimmed := bytes.TrimSpace(patch)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &obj) != nil {
		e := &SettingsError{}
		e.add("", "settings must be a JSON object")
		return orig, e
	}
	e := &SettingsError{}
	defaults := DefaultSettings()
	for name, v := range obj {
		f, ok := settingsFields[name]
		if !ok {
			e.add(name, "unknown field")
			continue
		}
		if isNull(v) {
			f.copy(&cur, &defaults)
			continue
		}
		if problem := f.apply(&cur, v, true); problem != "" {
			e.add(name, problem)
		}
	}
	if len(e.Fields) > 0 {
		return orig, e
	}
	return cur.normalized(), nil
}

// BroadcastWithSettings returns broadcast (a slot's broadcast_settings object) with its
// vibe_coding key replaced by s, keeping every other key. A missing or non-object
// broadcast_settings value is replaced by a new object.
func BroadcastWithSettings(broadcast json.RawMessage, s Settings) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(broadcast, &obj) != nil || obj == nil {
		obj = make(map[string]json.RawMessage, 1)
	}
	b, err := json.Marshal(s.normalized())
	if err != nil {
		return nil, fmt.Errorf("encode vibe-coding settings: %w", err)
	}
	obj[BroadcastKey] = b
	delete(obj, broadcastKeyCamel)
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode broadcast settings: %w", err)
	}
	return out, nil
}

// normalized clamps every field into its valid range; invalid strings take their defaults.
func (s Settings) normalized() Settings {
	d := DefaultSettings()
	for _, f := range settingsFields {
		switch f.kind {
		case kindBool, kindInt:
			p := f.ptrInt(&s)
			if f.kind == kindBool && *p != 0 && *p != 1 {
				*p = *f.ptrInt(&d)
			}
			*p = min(max(*p, f.min), f.max)
		case kindDepth:
			p := f.ptrStr(&s)
			if d, ok := parseDepth(*p); ok {
				*p = d
			} else {
				*p = DepthStandard
			}
		case kindTitle:
			p := f.ptrStr(&s)
			t, _ := cleanTitle(*p)
			if t == "" {
				t = DefaultWidgetTitle
			}
			*p = strings.TrimSpace(truncateRunes(t, MaxWidgetTitle, ""))
		}
	}
	return s
}

func (f settingsField) copy(dst, src *Settings) {
	if f.ptrInt != nil {
		*f.ptrInt(dst) = *f.ptrInt(src)
		return
	}
	*f.ptrStr(dst) = *f.ptrStr(src)
}

// apply decodes v into the field of s, returning what is wrong with v ("" when it was
// applied). Only strict mode rejects an over-long title (tolerant reads cut it).
func (f settingsField) apply(s *Settings, v json.RawMessage, strict bool) string {
	switch f.kind {
	case kindBool:
		b, ok := parseBool(v)
		if !ok {
			return "must be a boolean (true, false, 0 or 1)"
		}
		*f.ptrInt(s) = b
	case kindInt:
		n, ok := parseInt(v)
		if !ok {
			return "must be an integer"
		}
		*f.ptrInt(s) = int(max(min(n, float64(f.max)), float64(f.min)))
	case kindDepth:
		var str string
		if json.Unmarshal(v, &str) != nil {
			return "must be one of headline, standard, deep"
		}
		d, ok := parseDepth(str)
		if !ok {
			return "must be one of headline, standard, deep"
		}
		*f.ptrStr(s) = d
	case kindTitle:
		var str string
		if json.Unmarshal(v, &str) != nil {
			return "must be a string"
		}
		t, ok := cleanTitle(str)
		if !ok {
			if strict {
				return fmt.Sprintf("must be 1 to %d characters", MaxWidgetTitle)
			}
			if t == "" {
				return "must not be empty"
			}
		}
		*f.ptrStr(s) = t
	}
	return ""
}

func isNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}

// parseBool accepts true/false, 0/1 and the strings "0", "1", "true", "false", "yes", "no",
// "on", "off" (any case).
func parseBool(v json.RawMessage) (int, bool) {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return 0, false
	}
	switch t := x.(type) {
	case bool:
		if t {
			return 1, true
		}
		return 0, true
	case float64:
		switch t {
		case 0:
			return 0, true
		case 1:
			return 1, true
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "1", "true", "yes", "on":
			return 1, true
		case "0", "false", "no", "off":
			return 0, true
		}
	}
	return 0, false
}

// parseInt accepts a JSON number or a numeric string and rounds it to the nearest integer.
func parseInt(v json.RawMessage) (float64, bool) {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return 0, false
	}
	var n float64
	switch t := x.(type) {
	case float64:
		n = t
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil {
			return 0, false
		}
		n = f
	default:
		return 0, false
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, false
	}
	return math.Round(n), true
}

// parseDepth accepts a viewer depth in any case and surrounding space, or one of its
// synonyms ("verbose" for deep; see depthRule).
func parseDepth(s string) (string, bool) {
	d, ok := depthRule.synonyms[fold(s)]
	return d, ok
}

// cleanTitle trims a widget title and removes control characters; ok is false when the
// result is empty or longer than MaxWidgetTitle characters.
func cleanTitle(s string) (string, bool) {
	s = strings.TrimSpace(cleanControl(strings.ToValidUTF8(s, ""), false))
	n := utf8.RuneCountInString(s)
	return s, n >= 1 && n <= MaxWidgetTitle
}
