// Command replay is an MCP server over stdio that lists the tools of a
// JSON file (an array of tools/list entries, as toolcorpus makes them)
// exactly as written, and answers a call to any of them with a line of
// text. Tests start it for the servers of generated toolboxes, which exist
// only as renamed copies of captured lists.
//
// Usage: replay tools.json
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: replay tools.json")
		os.Exit(2)
	}
	if err := serve(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}

func serve(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(b, &tools); err != nil {
		return err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "replay", Version: "1"}, nil)
	for _, raw := range tools {
		var t mcp.Tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return err
		}
		// The schemas as written, not re-encoded from maps.
		var schemas struct {
			In  json.RawMessage `json:"inputSchema"`
			Out json.RawMessage `json:"outputSchema"`
		}
		if err := json.Unmarshal(raw, &schemas); err != nil {
			return err
		}
		t.InputSchema, t.OutputSchema = schemas.In, nil
		if len(schemas.Out) > 0 {
			t.OutputSchema = schemas.Out
		}
		name := t.Name
		srv.AddTool(&t, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "replayed " + name}}}, nil
		})
	}
	return srv.Run(context.Background(), &mcp.StdioTransport{})
}
