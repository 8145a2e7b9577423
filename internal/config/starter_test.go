package config

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/limits"
)

func TestStarter(t *testing.T) {
	data := Starter()
	if !json.Valid(data) {
		t.Fatal("starter is not valid JSON")
	}
	cfg, err := Parse(data, "modebox.json")
	if err != nil {
		t.Fatal(err)
	}
	// The limits written out are the engine's defaults.
	want := Limits{Limits: limits.Limits{Timeout: 30 * time.Second, Memory: 64 << 20, MaxCalls: 1000, MaxConcurrency: 16, MaxValue: 4 << 20, MaxLog: 256 << 10}}
	if cfg.Limits != want {
		t.Errorf("limits = %+v, want %+v", cfg.Limits, want)
	}
	s, ok := cfg.MCPServers["everything"]
	// shown as an example, started by nothing until "disabled" goes
	if !ok || s.Transport() != "stdio" || s.Command != "npx" || !s.Disabled {
		t.Errorf("everything server = %+v", s)
	}
	for key, want := range map[string]string{
		"everything.echo": "allow", "everything.add": "ask", "github.delete_repo": "deny",
		"sh": "ask", "fetch": "ask", "fs.read": "ask",
	} {
		if got, _ := cfg.PolicyFor(key); got != want {
			t.Errorf("PolicyFor(%q) = %q, want %q", key, got, want)
		}
	}
	if !cfg.IsSource("fs.read") || !cfg.IsSink("fetch") {
		t.Error("starter flows")
	}
	for name, raw := range map[string]json.RawMessage{"shell": cfg.Shell, "fetch": cfg.Fetch, "fs": cfg.FS, "mcp": cfg.MCP} {
		if string(raw) != "{}" {
			t.Errorf("%s = %s, want {}", name, raw)
		}
	}
	if err := compileSchema(t).ValidateJSON(data); err != nil {
		t.Errorf("schema rejects the starter: %v", err)
	}
	// Callers get a copy.
	data[0] = 'x'
	if Starter()[0] != '{' {
		t.Error("Starter returned shared memory")
	}
}

func TestSchemaIsJSON(t *testing.T) {
	data := Schema()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", doc["$schema"])
	}
	data[0] = 'x'
	if !bytes.HasPrefix(Schema(), []byte("{")) {
		t.Error("Schema returned shared memory")
	}
}
