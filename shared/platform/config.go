package platform

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/caarlos0/env/v11"
)

// fileSuffix names the companion variable that holds a path to read a value from.
const fileSuffix = "_FILE"

// ConfigError lists every problem found while loading or validating a configuration.
type ConfigError struct {
	Problems []error
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("invalid configuration:")
	for _, p := range e.Problems {
		b.WriteString("\n  - ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap returns the individual problems.
func (e *ConfigError) Unwrap() []error { return e.Problems }

// Defaults returns a T (an env-tagged struct, as LoadConfig takes) holding the defaults its
// envDefault tags declare: what LoadConfig gives for an empty environment, unvalidated. The
// tags are the one place a default is written; a service's DefaultConfig is Defaults of its
// Config. A tag that does not parse is a programming error and panics.
func Defaults[T any]() T {
	var cfg T
	err := env.ParseWithOptions(&cfg, env.Options{Environment: map[string]string{}})
	for _, e := range parseProblems(&cfg, err) {
		if !errors.As(e, new(env.VarIsNotSetError)) {
			panic(fmt.Sprintf("platform: the defaults of %T do not parse: %v", cfg, e))
		}
	}
	return cfg
}

// LoadConfig fills cfg, a pointer to a struct tagged `env:"OPENVIBE_X" envDefault:"…"`
// (github.com/caarlos0/env/v11 semantics), from getenv. Every variable X may instead be given as
// X_FILE, the path of a file whose trimmed content is the value; setting both is an error.
// An empty variable counts as unset. If cfg has a Validate() error method it is called too,
// even when some values failed to load (minus its problems about those variables, recognized
// by name), so that every problem is reported at once, as a *ConfigError.
func LoadConfig(cfg any, getenv func(string) string) error {
	fields, err := env.GetFieldParamsWithOptions(cfg, env.Options{Environment: map[string]string{}})
	if err != nil {
		return &ConfigError{Problems: []error{err}}
	}
	environ, problems := resolveEnvironment(fields, getenv)
	if err := env.ParseWithOptions(cfg, env.Options{Environment: environ}); err != nil {
		problems = append(problems, parseProblems(cfg, err)...)
	}
	if v, ok := cfg.(interface{ Validate() error }); ok {
		problems = append(problems, unrelated(flatten(v.Validate()), problems, fields)...)
	}
	if len(problems) > 0 {
		return &ConfigError{Problems: problems}
	}
	return nil
}

// resolveEnvironment reads each key the struct declares, directly or through its _FILE twin.
func resolveEnvironment(fields []env.FieldParams, getenv func(string) string) (map[string]string, []error) {
	environ := make(map[string]string, len(fields))
	var problems []error
	for _, f := range fields {
		v, err := lookupWithFile(f.Key, getenv)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if v != "" {
			environ[f.Key] = v
		}
	}
	return environ, problems
}

func lookupWithFile(key string, getenv func(string) string) (string, error) {
	v, path := getenv(key), getenv(key+fileSuffix)
	switch {
	case path == "":
		return v, nil
	case v != "":
		return "", fmt.Errorf("%s and %s are both set: use only one", key, key+fileSuffix)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: reading %s: %w", key+fileSuffix, path, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// unrelated drops the validation problems that name a variable which already has a loading
// problem: its value never loaded, so what Validate says about it only repeats that.
func unrelated(validation, loading []error, fields []env.FieldParams) []error {
	var bad []string
	for _, f := range fields {
		for _, p := range loading {
			if mentions(p.Error(), f.Key) || mentions(p.Error(), f.Key+fileSuffix) {
				bad = append(bad, f.Key)
				break
			}
		}
	}
	var out []error
	for _, v := range validation {
		if !slices.ContainsFunc(bad, func(k string) bool { return mentions(v.Error(), k) }) {
			out = append(out, v)
		}
	}
	return out
}

// mentions reports whether msg names the variable key (not merely a longer one starting
// with it).
func mentions(msg, key string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], key)
		if j < 0 {
			return false
		}
		end := i + j + len(key)
		if end == len(msg) || !isEnvNameByte(msg[end]) {
			return true
		}
		i = end
	}
}

func isEnvNameByte(b byte) bool {
	return b == '_' || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// parseProblems turns env's aggregate error into one problem per variable, naming variables
// rather than Go fields.
func parseProblems(cfg any, err error) []error {
	byField := map[string]string{}
	for _, f := range walkConfig(cfg) {
		if _, dup := byField[f.fieldName]; !dup {
			byField[f.fieldName] = f.key
		}
	}
	var out []error
	for _, e := range flatten(err) {
		var pe env.ParseError
		if errors.As(e, &pe) && byField[pe.Name] != "" {
			e = fmt.Errorf("%s: invalid value: %w", byField[pe.Name], pe.Err)
		}
		out = append(out, e)
	}
	return out
}

// flatten expands joined errors (errors.Join, env.AggregateError) into a list.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	var agg env.AggregateError
	if errors.As(err, &agg) {
		return agg.Errors
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// configField is one env-tagged leaf of a config struct.
type configField struct {
	key       string
	fieldName string
	secret    bool
	value     reflect.Value
}

// walkConfig lists the env-tagged fields of cfg (a struct or a pointer to one), following
// nested and embedded structs and their envPrefix.
func walkConfig(cfg any) []configField {
	v := reflect.ValueOf(cfg)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var out []configField
	walkStruct(v, "", &out)
	return out
}

func walkStruct(v reflect.Value, prefix string, out *[]configField) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		fv := v.Field(i)
		key, _, _ := strings.Cut(sf.Tag.Get("env"), ",")
		if key == "-" {
			continue
		}
		if key == "" {
			if inner, ok := nestedStruct(fv); ok {
				walkStruct(inner, prefix+sf.Tag.Get("envPrefix"), out)
			}
			continue
		}
		*out = append(*out, configField{
			key:       prefix + key,
			fieldName: sf.Name,
			secret:    sf.Tag.Get("secret") == "true",
			value:     fv,
		})
	}
}

func nestedStruct(v reflect.Value) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return v, false
		}
		v = v.Elem()
	}
	return v, v.Kind() == reflect.Struct
}
