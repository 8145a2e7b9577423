package pgstore_test

import (
	"context"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/mcpserver"
	"github.com/modebox/modebox/pgstore"
)

// A replica of an MCP server: the engine's used-token record and the
// server's retry cache in one PostgreSQL store, with the keys every
// replica shares. (This is the snippet of docs/scaling.md.)
func Example() {
	ctx := context.Background()
	var tools []modebox.Tool // the replica's tools

	pg, err := pgstore.Open(ctx, os.Getenv("MODEBOX_TOKEN_STORE"), pgstore.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer pg.Close()
	// the same keys on every replica
	keys, err := modebox.LoadKeys(modebox.KeySource{Secret: os.Getenv("MODEBOX_SECRET")})
	if err != nil {
		log.Fatal(err)
	}
	eng, err := modebox.New(modebox.EngineConfig{Tools: tools,
		Continuations: &modebox.Continuations{Keys: keys, Store: pg}})
	if err != nil {
		log.Fatal(err)
	}
	srv := mcpserver.New(eng, mcpserver.Options{Shared: &mcpserver.Shared{Store: pg, Keys: keys}})
	h, err := srv.HTTPHandler(mcpserver.HTTPOptions{Bearer: os.Getenv("MODEBOX_MCP_TOKEN")})
	if err != nil {
		log.Fatal(err)
	}
	_ = h // serve it with net/http at mcpserver.DefaultPath
}

// The snippet of docs/scaling.md is the example's code, line for line.
func TestDocSnippetIsTheExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/scaling.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n```go\n")
	block, _, ok2 := strings.Cut(rest, "\n```\n")
	if !ok || !ok2 {
		t.Fatal("docs/scaling.md has no go block")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), indent(block)) {
		t.Errorf("the snippet of docs/scaling.md is not the code of Example:\n%s", block)
	}
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "\t" + l
	}
	return strings.Join(lines, "\n")
}
