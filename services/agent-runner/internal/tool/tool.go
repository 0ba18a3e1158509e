// Package tool defines what a tool is to the agent — a name, a description, a JSON Schema for
// its parameters (generated from a typed params struct), and a Run that gets a Context and
// returns a Result — and holds the built-in tools (bash, read, write, edit, glob, grep,
// web_fetch, the todo tools and task, one file each), the shell and sandbox bash runs in, and
// the registry of the tools a runner offers.
package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

// Kind classifies what a tool does; read-only agents only get KindRead and KindDelegate
// tools.
type Kind string

// Kinds.
const (
	KindRead    Kind = "read"
	KindWrite   Kind = "write"
	KindExecute Kind = "execute"
	// KindDelegate runs a subagent, which is read-only itself.
	KindDelegate Kind = "delegate"
)

// Result is what a tool returns: a title for people, output for the model.
type Result struct {
	Title    string         `json:"title"`
	Output   string         `json:"output"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Tool is one capability the agent can invoke.
type Tool interface {
	Name() string
	Description() string
	Kind() Kind
	// Schema is the JSON Schema of the parameters object.
	Schema() map[string]any
	// Permission describes the call for the permission check made before Run.
	Permission(tc *Context, input json.RawMessage) Perm
	// Run executes the call. An error is reported to the model as the call's failure.
	Run(ctx context.Context, tc *Context, input json.RawMessage) (Result, error)
}

// Perm is what a call is checked against: rules match the tool name and Pattern.
type Perm struct {
	Pattern string
	Kind    permission.Kind
	// Always is the pattern a remembered approval saves ("*" when empty; each command
	// exactly for KindCommand).
	Always string
	Title  string
}

// InputError is an error in the model's arguments; its message is written for the model.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Errorf returns an *InputError.
func Errorf(format string, args ...any) error { return &InputError{Msg: fmt.Sprintf(format, args...)} }

// Def describes a typed tool.
type Def[P any] struct {
	Name        string
	Description string
	Kind        Kind
	// Perm describes a call for the permission check; nil means pattern "*".
	Perm func(tc *Context, p P) Perm
	Run  func(ctx context.Context, tc *Context, p P) (Result, error)
}

type typed[P any] struct {
	def    Def[P]
	schema map[string]any
}

// New builds a Tool from a typed definition; the params schema is generated from P's fields
// (json tags name them, `jsonschema_description:"…"` describes them — the `jsonschema` tag
// splits its options at commas, so a description there would be cut —, fields without
// omitempty are required).
func New[P any](def Def[P]) Tool {
	return &typed[P]{def: def, schema: SchemaFor[P]()}
}

// SchemaFor generates the inline JSON Schema of P.
func SchemaFor[P any]() map[string]any {
	r := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, AllowAdditionalProperties: false}
	var zero P
	s := r.ReflectFromType(reflect.TypeOf(zero))
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tool schema: %v", err)) // programming error in a params struct
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(fmt.Sprintf("tool schema: %v", err))
	}
	delete(m, "$schema")
	delete(m, "$id")
	if _, ok := m["properties"]; !ok {
		m["properties"] = map[string]any{}
	}
	return m
}

func (t *typed[P]) Name() string           { return t.def.Name }
func (t *typed[P]) Description() string    { return t.def.Description }
func (t *typed[P]) Kind() Kind             { return t.def.Kind }
func (t *typed[P]) Schema() map[string]any { return t.schema }

func (t *typed[P]) Permission(tc *Context, input json.RawMessage) Perm {
	var p P
	if t.def.Perm == nil || json.Unmarshal(input, &p) != nil {
		return Perm{Pattern: "*", Title: t.def.Name}
	}
	return t.def.Perm(tc, p)
}

func (t *typed[P]) Run(ctx context.Context, tc *Context, input json.RawMessage) (Result, error) {
	var p P
	if len(strings.TrimSpace(string(input))) == 0 {
		input = json.RawMessage("{}")
	}
	if err := json.Unmarshal(input, &p); err != nil {
		return Result{}, Errorf("invalid arguments for %s: %v. Expected JSON matching the schema %s", t.def.Name, err, t.schemaString())
	}
	if missing := missingRequired(t.schema, input); len(missing) > 0 {
		return Result{}, Errorf("invalid arguments for %s: missing required field(s) %s", t.def.Name, strings.Join(missing, ", "))
	}
	return t.def.Run(ctx, tc, p)
}

func (t *typed[P]) schemaString() string {
	b, _ := json.Marshal(t.schema)
	return string(b)
}

func missingRequired(schema map[string]any, input json.RawMessage) []string {
	req, _ := schema["required"].([]any)
	var got map[string]json.RawMessage
	if err := json.Unmarshal(input, &got); err != nil {
		return nil
	}
	var missing []string
	for _, r := range req {
		if name, ok := r.(string); ok {
			if _, ok := got[name]; !ok {
				missing = append(missing, name)
			}
		}
	}
	return missing
}

// IsInputError reports whether err is the model's fault.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}
