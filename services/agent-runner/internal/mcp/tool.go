package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// MaxOutputBytes caps the text a tool result gives the model.
const MaxOutputBytes = 64 << 10

// remoteTool is one server tool in the registry. Calls go through the permission check like
// any tool (rules match the namespaced name), then to the server's current session.
type remoteTool struct {
	srv    *server
	remote string // the tool's name on the server
	name   string
	desc   string
	kind   tool.Kind
	schema map[string]any
}

func newRemoteTool(s *server, t *sdk.Tool) *remoteTool {
	kind := tool.KindExecute
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		kind = tool.KindRead
	}
	schema := map[string]any{}
	if b, err := json.Marshal(t.InputSchema); err == nil {
		_ = json.Unmarshal(b, &schema)
	}
	if schema == nil {
		schema = map[string]any{}
	}
	schema["type"] = "object"
	if _, ok := schema["properties"]; !ok {
		schema["properties"] = map[string]any{}
	}
	delete(schema, "$schema")
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	return &remoteTool{srv: s, remote: t.Name, name: ToolName(s.name, t.Name),
		desc: fmt.Sprintf("[MCP server %s] %s", s.name, desc), kind: kind, schema: schema}
}

func (t *remoteTool) Name() string           { return t.name }
func (t *remoteTool) Description() string    { return t.desc }
func (t *remoteTool) Kind() tool.Kind        { return t.kind }
func (t *remoteTool) Schema() map[string]any { return t.schema }

func (t *remoteTool) Permission(_ *tool.Context, input json.RawMessage) tool.Perm {
	return tool.Perm{Pattern: compact(input, 200), Kind: permission.KindText, Always: "*",
		Title: fmt.Sprintf("MCP %s: %s", t.srv.name, t.remote)}
}

func (t *remoteTool) Run(ctx context.Context, _ *tool.Context, input json.RawMessage) (tool.Result, error) {
	t.srv.mu.Lock()
	cs := t.srv.session
	t.srv.mu.Unlock()
	if cs == nil {
		return tool.Result{}, fmt.Errorf("MCP server %q is not connected (it is being reconnected); try again later or use another tool", t.srv.name)
	}
	args := json.RawMessage("{}")
	if len(strings.TrimSpace(string(input))) > 0 {
		if !json.Valid(input) {
			return tool.Result{}, tool.Errorf("invalid arguments for %s: not valid JSON", t.name)
		}
		args = input
	}
	cctx, cancel := context.WithTimeout(ctx, t.srv.cfg.timeout())
	defer cancel()
	res, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: t.remote, Arguments: args})
	if err != nil {
		if errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			t.srv.drop(cs, fmt.Errorf("tool %s timed out after %s", t.remote, t.srv.cfg.timeout()))
			return tool.Result{}, fmt.Errorf("MCP server %q did not answer within %s; it is being restarted", t.srv.name, t.srv.cfg.timeout())
		}
		if ctx.Err() != nil {
			return tool.Result{}, context.Cause(ctx)
		}
		return tool.Result{}, fmt.Errorf("MCP server %q: %v", t.srv.name, err)
	}
	out := renderContent(res)
	if res.IsError {
		return tool.Result{}, tool.Errorf("%s", out)
	}
	return tool.Result{Title: fmt.Sprintf("%s: %s", t.srv.name, t.remote), Output: out,
		Metadata: map[string]any{"mcp_server": t.srv.name, "mcp_tool": t.remote}}, nil
}

// renderContent turns a result's content into text for the model.
func renderContent(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		switch v := c.(type) {
		case *sdk.TextContent:
			b.WriteString(v.Text)
		case *sdk.ImageContent:
			fmt.Fprintf(&b, "[image %s, %d bytes]", v.MIMEType, len(v.Data))
		case *sdk.AudioContent:
			fmt.Fprintf(&b, "[audio %s, %d bytes]", v.MIMEType, len(v.Data))
		case *sdk.ResourceLink:
			fmt.Fprintf(&b, "[resource %s %s]", v.Name, v.URI)
		case *sdk.EmbeddedResource:
			if v.Resource != nil {
				if v.Resource.Text != "" {
					b.WriteString(v.Resource.Text)
				} else {
					fmt.Fprintf(&b, "[resource %s, %d bytes]", v.Resource.URI, len(v.Resource.Blob))
				}
			}
		default:
			if raw, err := json.Marshal(c); err == nil {
				b.Write(raw)
			}
		}
	}
	if b.Len() == 0 && res.StructuredContent != nil {
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			b.Write(raw)
		}
	}
	s := b.String()
	if len(s) > MaxOutputBytes {
		s = s[:MaxOutputBytes] + fmt.Sprintf("\n… (output truncated: %d bytes in all)", len(s))
	}
	return s
}

func compact(input json.RawMessage, n int) string {
	s := strings.Join(strings.Fields(string(input)), " ")
	if len(s) > n {
		s = s[:n]
	}
	if s == "" {
		s = "{}"
	}
	return s
}

// Server is the name of the server the tool belongs to.
func (t *remoteTool) Server() string { return t.srv.name }

// ServerOf returns the MCP server a registry tool comes from, or "" for any other tool.
func ServerOf(t tool.Tool) string {
	if s, ok := t.(interface{ Server() string }); ok {
		return s.Server()
	}
	return ""
}
