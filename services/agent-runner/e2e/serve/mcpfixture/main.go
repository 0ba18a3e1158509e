// Command mcpfixture is an MCP server over stdio, built on the official go-sdk, that the
// end-to-end tests configure as a local server. Its tools report where and how it was
// started, and one of them writes a file, so a test can tell which agents may call what.
//
//	whereami     the working directory (read-only)
//	argv         the arguments it was started with (read-only)
//	peek         says "peeked" (read-only)
//	count_lines  counts lines of a text it is given; not annotated (treated as a writer)
//	write_note   writes name with text in the working directory (annotated as a writer)
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type noteIn struct {
	Name string `json:"name" jsonschema:"file name, relative to the working directory"`
	Text string `json:"text" jsonschema:"what to write"`
}

type linesIn struct {
	Text string `json:"text" jsonschema:"the text to count"`
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func main() {
	srv := sdk.NewServer(&sdk.Implementation{Name: "mcpfixture", Version: "1.0.0"}, nil)
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true}
	sdk.AddTool(srv, &sdk.Tool{Name: "whereami", Description: "The server's working directory", Annotations: readOnly},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			wd, err := os.Getwd()
			return text(wd), nil, err
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "argv", Description: "The server's arguments", Annotations: readOnly},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return text(strings.Join(os.Args[1:], " ")), nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "peek", Description: "Looks without touching", Annotations: readOnly},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return text("peeked"), nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "count_lines", Description: "Counts the lines of a text"},
		func(_ context.Context, _ *sdk.CallToolRequest, in linesIn) (*sdk.CallToolResult, any, error) {
			return text(fmt.Sprint(strings.Count(in.Text, "\n") + 1)), nil, nil
		})
	destructive := true
	sdk.AddTool(srv, &sdk.Tool{Name: "write_note", Description: "Writes a note file",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &destructive}},
		func(_ context.Context, _ *sdk.CallToolRequest, in noteIn) (*sdk.CallToolResult, any, error) {
			if err := os.WriteFile(filepath.Clean(in.Name), []byte(in.Text), 0o644); err != nil {
				return nil, nil, err
			}
			return text("wrote " + in.Name), nil, nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
