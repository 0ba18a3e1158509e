package vibe

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Value coercions of the canonicaliser. Each reads one JSON value (valid JSON, never empty)
// and reports the canonical value, whether the value already had the canonical form (exact),
// and whether it could be read at all (ok).

func isJSONNumber(v json.RawMessage) bool { return v[0] == '-' || (v[0] >= '0' && v[0] <= '9') }

// maxSafeInt is the largest integer every JSON reader keeps exactly (2^53).
const maxSafeInt = 1 << 53

// asInt reads an integer: a JSON integer as is; a number with a fraction or an exponent,
// rounded; a string holding a number, trimmed.
func asInt(v json.RawMessage) (n int64, exact, ok bool) {
	if isJSONNumber(v) {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && n >= -maxSafeInt && n <= maxSafeInt {
			return n, true, true // the common form: plain digits
		}
		f, err := strconv.ParseFloat(string(v), 64)
		n, ok := roundInt(f, err)
		return n, ok && f == math.Trunc(f), ok // 17.0 and 1.7e1 are the integer 17
	}
	if v[0] == '"' {
		s, _ := jsonString(v)
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		n, ok := roundInt(f, err)
		return n, false, ok
	}
	return 0, false, false
}

func roundInt(f float64, err error) (int64, bool) {
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxSafeInt {
		return 0, false
	}
	return int64(math.Round(f)), true
}

// asBool reads a boolean: true/false as is; 0/1 and the strings "true", "false", "yes", "no",
// "on", "off", "1", "0" (any case).
func asBool(v json.RawMessage) (b, exact, ok bool) {
	switch string(v) {
	case "true":
		return true, true, true
	case "false":
		return false, true, true
	}
	n, ok := parseBool(v)
	return n == 1, false, ok
}

// asText reads text: a string as is; a number or boolean as its literal; an array of strings
// or of parts with a "text" (or "content") string, as in chat APIs, joined by newlines; an
// object with a "text" (or "content") string.
func asText(v json.RawMessage) (s string, exact, ok bool) {
	switch {
	case v[0] == '"':
		s, ok := jsonString(v)
		return s, ok, ok
	case v[0] == '[':
		return arrayText(v)
	case v[0] == '{':
		s, ok := partText(v)
		return s, false, ok
	case string(v) == "null":
		return "", false, false
	}
	return string(v), false, true // a number, true or false
}

func arrayText(v json.RawMessage) (string, bool, bool) {
	var parts []json.RawMessage
	if json.Unmarshal(v, &parts) != nil {
		return "", false, false
	}
	var lines []string
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		switch p[0] {
		case '"':
			if s, ok := jsonString(p); ok {
				lines = append(lines, s)
			}
		case '{':
			if s, ok := partText(p); ok {
				lines = append(lines, s)
			}
		}
	}
	return strings.Join(lines, "\n"), false, len(lines) > 0
}

// partText is the "text" (or else "content") string of an object.
func partText(v json.RawMessage) (string, bool) {
	obj, ok := splitObject(v)
	if !ok {
		return "", false
	}
	for _, k := range []string{"text", "content"} {
		if s := obj.get(k); len(s) > 0 && s[0] == '"' {
			return jsonString(s)
		}
	}
	return "", false
}

// asIdent reads an identifier: a string as is, a number as its literal.
func asIdent(v json.RawMessage) (s string, exact, ok bool) {
	switch {
	case v[0] == '"':
		s, ok := jsonString(v)
		return s, ok, ok
	case isJSONNumber(v):
		return string(v), false, true
	}
	return "", false, false
}

// Epoch numbers above these are taken as milliseconds, microseconds and nanoseconds; below,
// as seconds. 1e11 seconds is the year 5138, 1e11 milliseconds is 1973.
const (
	epochMillis = 1e11
	epochMicros = 1e14
	epochNanos  = 1e17
)

// timeLayouts are the date forms read besides RFC 3339; a form without a zone is UTC. A
// fractional second after the seconds is read whatever the layout says.
var timeLayouts = []string{
	"2006-01-02T15:04:05",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05Z07", // PostgreSQL's text form: +00
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 -0700 MST", // Go's time.Time.String
	"2006-01-02 15:04:05 MST",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006/01/02 15:04:05",
	"2006-01-02",
	time.RFC1123, time.RFC1123Z, time.RFC850, time.RFC822, time.RFC822Z,
	time.ANSIC, time.UnixDate, time.RubyDate,
	"Mon Jan 02 2006 15:04:05 GMT-0700", // JavaScript's Date.prototype.toString, zone name cut
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 MST",
	"January 2, 2006 15:04:05",
	"Jan 2, 2006 15:04:05",
}

// canonicalTimeFormat is how a converted time is written: UTC, milliseconds, as the server's
// own timestamps.
const canonicalTimeFormat = "2006-01-02T15:04:05.000Z"

// asTime reads a time: an RFC 3339 string as is; epoch seconds, milliseconds, microseconds or
// nanoseconds (a number or a numeric string); or one of timeLayouts. Converted times are
// written in canonicalTimeFormat.
func asTime(v json.RawMessage) (s string, exact, ok bool) {
	var f float64
	switch {
	case isJSONNumber(v):
		var err error
		if f, err = strconv.ParseFloat(string(v), 64); err != nil {
			return "", false, false
		}
	case v[0] == '"':
		raw, _ := jsonString(v)
		if _, err := time.Parse(time.RFC3339Nano, raw); err == nil {
			return raw, true, true
		}
		t, ok := parseTimeString(strings.TrimSpace(raw))
		if !ok {
			return "", false, false
		}
		return t.UTC().Format(canonicalTimeFormat), false, true
	default:
		return "", false, false
	}
	t, ok := epochTime(f)
	if !ok {
		return "", false, false
	}
	return t.UTC().Format(canonicalTimeFormat), false, true
}

func parseTimeString(s string) (time.Time, bool) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return epochTime(f)
	}
	if t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err == nil {
		return t, true // a lowercase t or z
	}
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i] // "… GMT+0200 (Central European Summer Time)"
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func epochTime(f float64) (time.Time, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 {
		return time.Time{}, false
	}
	var t time.Time
	switch {
	case f >= epochNanos:
		t = time.Unix(0, int64(f))
	case f >= epochMicros:
		t = time.UnixMicro(int64(f))
	case f >= epochMillis:
		t = time.UnixMilli(int64(f))
	default: // seconds, to the microsecond: 1776813001.099 is .099, not .098999…
		t = time.UnixMicro(int64(math.Round(f * 1e6)))
	}
	if t.Year() > 9999 {
		return time.Time{}, false
	}
	return t, true
}
