package config_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
	"github.com/modebox/modebox/mcpclient"
)

type addIn struct {
	A, B float64
}

type addOut struct {
	Sum float64 `json:"sum"`
}

// startCalculator serves a real MCP server (the go-sdk's, over Streamable
// HTTP on loopback) with one tool, "add". In a real deployment this is
// any MCP server: a "command" entry for a stdio server, a "url" entry for
// a remote one.
func startCalculator() *httptest.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "calculator", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add", Description: "Adds a and b."},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	return httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
}

// A modebox.json with an MCP server: load it, start the servers, give
// their tools to the engine, run a program that calls one.
func Example() {
	calc := startCalculator()
	defer calc.Close()
	dir, err := os.MkdirTemp("", "modebox-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "modebox.json")
	file := `{
	  "limits": {"timeout": "20s"},
	  "mcpServers": {"calc": {"url": "` + calc.URL + `"}},
	  "tools": {"calc.*": {"policy": "allow"}}
	}`
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	f, err := config.Load(path)
	if err != nil {
		log.Fatal(err) // a *config.Error, as `modebox config check` prints it
	}
	servers, err := mcpclient.Start(ctx, f.MCPServers, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer servers.Close() // stops the servers
	ec := f.Engine
	ec.Tools = append(ec.Tools, servers.Tools()...)
	eng, err := modebox.New(ec)
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()

	res, err := eng.Run(ctx, `return (await tools.calc.add({A: 2, B: 3})).sum`, modebox.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output: ok 5
}

// A file with a mistake gets the error the CLI prints: the file, the JSON
// Pointer of the value and a suggestion.
func ExampleParse() {
	_, err := config.Parse([]byte(`{"limts": {"timeout": "10s"}}`), "modebox.json")
	fmt.Println(err)
	// Output: modebox.json: /limts: unknown key (did you mean "limits"?)
}
