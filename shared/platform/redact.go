package platform

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"reflect"
	"strings"
	"time"
)

// Redacted replaces the value of a secret that is set.
const Redacted = "[redacted]"

// Redact returns the effective configuration of cfg keyed by environment variable name, for
// display. Fields tagged `secret:"true"` show Redacted when set and "" when not; a URL with a
// password shows it masked whether or not the field is tagged.
func Redact(cfg any) map[string]any {
	out := map[string]any{}
	for _, f := range walkConfig(cfg) {
		out[f.key] = displayValue(f)
	}
	return out
}

// WriteConfig writes the redacted configuration of every cfg as one indented JSON object.
// When two configs declare the same variable, the later one wins (they read the same value).
func WriteConfig(w io.Writer, cfgs ...any) error {
	merged := map[string]any{}
	for _, c := range cfgs {
		maps.Copy(merged, Redact(c))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(merged)
}

func displayValue(f configField) any {
	v := f.value
	if f.secret {
		if v.IsZero() {
			return ""
		}
		return Redacted
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch x := v.Interface().(type) {
	case time.Duration:
		return x.String()
	case url.URL:
		return x.Redacted()
	case string:
		return redactURLPassword(x)
	case fmt.Stringer:
		return redactURLPassword(x.String())
	}
	return v.Interface()
}

// redactURLPassword masks the password of s when s is a URL that carries one.
func redactURLPassword(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		// Unparseable but URL-shaped: it may still hold credentials.
		if strings.Contains(s, "@") {
			return Redacted
		}
		return s
	}
	if _, ok := u.User.Password(); ok {
		return u.Redacted()
	}
	return s
}
