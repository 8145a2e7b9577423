package config

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/schema"
)

func compileSchema(t testing.TB) *schema.Validator {
	t.Helper()
	v, err := schema.Compile(Schema())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// goodDocs are accepted by both Parse and the schema.
var goodDocs = []string{
	`{}`,
	fullExample,
	starter,
	`{"$schema": "https://example.com/modebox.schema.json"}`,
	`{"limits": {}}`,
	`{"limits": {"timeout": 0, "memory": 0, "fuel": 0, "maxCalls": 0, "maxConcurrency": 0, "maxValue": 0, "maxLog": 0}}`,
	`{"limits": {"timeout": "1h2m3.5s", "memory": "2GiB", "maxValue": "10MB", "maxLog": "1.5 KiB"}}`,
	`{"limits": {"timeout": ".5s", "memory": "512k", "maxValue": "1g", "maxLog": "100b"}}`,
	`{"limits": {"timeout": "10µs", "memory": 2147483648, "maxValue": 1e3}}`,
	`{"limits": {"timeout": 0.25, "fuel": 9007199254740991, "maxCalls": 2.0}}`,
	`{"limits": {"maxClockReads": 0, "maxTimers": 0}}`,
	`{"limits": {"maxClockReads": 5e6, "maxTimers": 100}}`,
	`{"tools": {}}`,
	`{"tools": {"*": {"policy": "deny"}, "a-b_c.d-e_f": {"policy": "allow"}, "*x*.*y*": {"policy": "ask"}}}`,
	`{"tools": {"github.*": {"policy": "ask"}, "*.delete_*": {"policy": "deny"}, "sh": {"policy": "ask"}, "fetch": {"policy": "allow"}}}`,
	`{"flows": {}}`,
	`{"flows": {"sources": [], "sinks": []}}`,
	`{"flows": {"sources": ["*"], "sinks": ["a.b.c", "x*"]}}`,
	`{"mcpServers": {}}`,
	`{"mcpServers": {"a": {"command": "x"}}}`,
	`{"mcpServers": {"a": {"url": "http://localhost:3000"}}}`,
	`{"mcpServers": {"a": {"url": "HTTPS://Example.com/mcp?x=1#f"}}}`,
	`{"mcpServers": {"a": {"command": "x", "args": [], "env": {}, "cwd": "", "type": "stdio", "disabled": false, "timeout": "30s"}}}`,
	`{"mcpServers": {"a": {"url": "https://x", "headers": {"A": "b"}, "type": "sse", "disabled": true, "timeout": 1000}}}`,
	`{"mcpServers": {"a": {"url": "https://x", "type": "http"}, "b": {"url": "https://y", "type": "streamable-http"}}}`,
	`{"mcpServers": {"shell": {"command": "x"}, "fs_mcp": {"command": "y"}, "0": {"command": "z"}}}`,
	`{"shell": {"enabled": false}, "fetch": {}, "fs": {"deny": ["x"]}, "mcp": {"approveTool": false}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "timeout": "5s", "maxTimeout": 60000, "maxOutput": "2MiB", "limits": {"processes": 64, "openFiles": 256, "fileSize": "1GiB", "memory": 4294967296, "tmpSize": "512 MiB"}}}`,
	`{"fetch": {"enabled": true, "maxBytes": "1MiB", "maxHeaderBytes": 4096, "maxRequestBody": "64KiB", "timeout": 10000, "maxRequests": 7, "maxRedirects": 0}}`,
	`{"fetch": {"enabled": true, "maxRedirects": 100}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w", "mode": "rw"}], "allowWrite": {"/w": ["*", ".vscode", "modebox.json", "..."]}, "deny": ["app/token", "/build/key"]}}`,
	`{"tokenStore": "postgres://modebox@db.example.com:5432/modebox?sslmode=verify-full"}`,
	`{"tokenStore": "postgresql:///modebox"}`,
	`{"tokenStore": "/var/lib/modebox/used-tokens"}`,
}

// moreBadDocs are rejected by both, beyond errorCases.
var moreBadDocs = []string{
	`null`, `"x"`, `1`, `true`,
	`{"limits": null}`,
	`{"limits": {"timeout": "1d"}}`,
	`{"limits": {"timeout": "+1s"}}`,
	`{"limits": {"timeout": "1s "}}`,
	`{"limits": {"timeout": "s"}}`,
	`{"limits": {"timeout": ""}}`,
	`{"limits": {"timeout": 9007199254740992}}`,
	`{"limits": {"timeout": null}}`,
	`{"limits": {"memory": ""}}`,
	`{"limits": {"memory": "1TiB"}}`,
	`{"limits": {"memory": "1.KiB"}}`,
	`{"limits": {"memory": " 1KiB"}}`,
	`{"limits": {"memory": "1  KiB"}}`,
	`{"limits": {"memory": "1ki"}}`,
	`{"limits": {"memory": -1}}`,
	`{"limits": {"maxValue": 9007199254740992}}`,
	`{"limits": {"maxValue": {}}}`,
	`{"limits": {"maxConcurrency": true}}`,
	`{"limits": {"maxCalls": -0.5}}`,
	`{"limits": {"maxClockReads": "1000"}}`,
	`{"limits": {"maxTimers": -1}}`,
	`{"tools": []}`,
	`{"tools": {"*.": {"policy": "ask"}}}`,
	`{"tools": {".a": {"policy": "ask"}}}`,
	`{"tools": {"a b": {"policy": "ask"}}}`,
	`{"tools": {"a.**.b": {"policy": "ask"}}}`,
	`{"tools": {"sh": {"policy": "allow", "why": "x"}}}`,
	`{"tools": {"sh": {"policy": null}}}`,
	`{"tools": {"sh": null}}`,
	`{"flows": []}`,
	`{"flows": {"sources": [null]}}`,
	`{"flows": {"sinks": [""]}}`,
	`{"flows": {"sinks": ["é"]}}`,
	`{"mcpServers": []}`,
	`{"mcpServers": {"a": {}}}`,
	`{"mcpServers": {"a": null}}`,
	`{"mcpServers": {"": {"command": "x"}}}`,
	`{"mcpServers": {"a b": {"command": "x"}}}`,
	`{"mcpServers": {"fs": {"command": "x"}}}`,
	`{"mcpServers": {"sh": {"command": "x"}}}`,
	`{"mcpServers": {"a": {"command": 1}}}`,
	`{"mcpServers": {"a": {"command": "x", "env": []}}}`,
	`{"mcpServers": {"a": {"command": "x", "env": {"A": null}}}}`,
	`{"mcpServers": {"a": {"command": "x", "cwd": 1}}}`,
	`{"mcpServers": {"a": {"command": "x", "timeout": "1x"}}}`,
	`{"mcpServers": {"a": {"command": "x", "timeout": 999}}}`,
	`{"mcpServers": {"a": {"command": "x", "timeout": true}}}`,
	`{"mcpServers": {"a": {"command": "x", "type": "sse"}}}`,
	`{"mcpServers": {"a": {"command": "x", "type": "streamable-http"}}}`,
	`{"mcpServers": {"a": {"url": "https://x", "env": {}}}}`,
	`{"mcpServers": {"a": {"url": "https://x", "cwd": "/"}}}`,
	`{"mcpServers": {"a": {"url": "https://x", "headers": {"A": 1}}}}`,
	`{"mcpServers": {"a": {"url": ""}}}`,
	`{"mcpServers": {"a": {"url": "https://"}}}`,
	`{"mcpServers": {"a": {"url": "example.com/mcp"}}}`,
	`{"mcpServers": {"a": {"url": "https://x/ y"}}}`,
	`{"mcpServers": {"a": {"url": 5}}}`,
	`{"shell": []}`, `{"fetch": "on"}`, `{"fs": 1}`, `{"mcp": false}`, `{"mcp": {"APPROVETOOL": true}}`, `{"mcp": {"approveTool": "yes"}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w", "allowWrite": [".vscode"]}]}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w"}], "allowWrite": {"/w": [".vscode/tasks.json"]}}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w"}], "allowWrite": {"/w": [""]}}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w"}], "allowWrite": {"/w": [".."]}}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w"}], "allowWrite": {"/w": ["a\u0000"]}}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w"}], "allowWrite": {"/w": ".vscode"}}}`,
	`{"fs": {"mounts": [{"host": ".", "guest": "/w"}], "allowWrite": [".vscode"]}}`,
	// the shell's and fetch's sizes, durations and counts: the shared
	// definitions, as for "limits"
	`{"shell": {"enabled": true, "workspace": ["."], "timeout": "1d"}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "maxTimeout": -1}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "maxOutput": "1 parsec"}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "maxOutput": 1.5}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "limits": {"processes": 9007199254740992}}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "limits": {"openFiles": "10"}}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "limits": {"tmpSize": 1e300}}}`,
	`{"shell": {"enabled": true, "workspace": ["."], "limits": {"fileSize": "1KiBB"}}}`,
	`{"fetch": {"enabled": true, "maxBytes": -1}}`,
	`{"fetch": {"enabled": true, "maxHeaderBytes": "x"}}`,
	`{"fetch": {"enabled": true, "maxRequestBody": 0.5}}`,
	`{"fetch": {"enabled": true, "timeout": 9223372036855}}`,
	`{"fetch": {"enabled": true, "timeout": "5 s"}}`,
	`{"fetch": {"enabled": true, "maxRequests": 1.5}}`,
	`{"fetch": {"enabled": true, "maxRedirects": 9007199254740992}}`,
	`{"fetch": {"enabled": true, "maxRedirects": 101}}`,
}

// goOnly are the errorCases a JSON Schema cannot express; Parse rejects
// them and the schema accepts them. Schema's doc comment lists them.
var goOnly = []string{
	"invalid utf8",             // encoding/json replaces bad bytes
	"duplicate key",            // JSON Schema sees the decoded object
	"duplicate in raw section", // idem
	"duration overflow",        // a pattern cannot bound the value
	"size too large",           // idem
	"memory too large",         // idem, for "memory" written as a string
	"memory string too small",  // idem
	"duration below 1ns",       // idem, below one unit
	"size below a byte",        // idem
	"shell size below a byte",  // idem
	"server unparsable url",    // matches the URL pattern, fails url.Parse
}

// TestSchemaAgrees validates documents with both Parse and the JSON Schema
// and checks that they accept and reject the same ones.
func TestSchemaAgrees(t *testing.T) {
	v := compileSchema(t)
	check := func(name, doc string, wantOK bool) {
		t.Helper()
		_, goErr := Parse([]byte(doc), "m.json")
		schemaErr := v.ValidateJSON([]byte(doc))
		if (goErr == nil) != wantOK {
			t.Errorf("%s: Parse: %v (want ok=%v)\n%s", name, goErr, wantOK, doc)
		}
		if (schemaErr == nil) != wantOK {
			t.Errorf("%s: schema: %v (want ok=%v)\n%s", name, schemaErr, wantOK, doc)
		}
	}
	for i, doc := range goodDocs {
		check("good "+itoa(i), doc, true)
	}
	for i, doc := range moreBadDocs {
		check("bad "+itoa(i), doc, false)
	}
	for _, tc := range errorCases {
		if slices.Contains(goOnly, tc.name) {
			continue
		}
		check(tc.name, tc.doc, false)
	}
}

// TestSchemaLooserOnlyWhereDocumented pins the cases only Parse rejects, so
// that the list in Schema's doc comment stays true.
func TestSchemaLooserOnlyWhereDocumented(t *testing.T) {
	v := compileSchema(t)
	seen := 0
	for _, tc := range errorCases {
		if !slices.Contains(goOnly, tc.name) {
			continue
		}
		seen++
		if _, err := Parse([]byte(tc.doc), "m.json"); err == nil {
			t.Errorf("%s: Parse accepts it", tc.name)
		}
		if err := v.ValidateJSON([]byte(tc.doc)); err != nil {
			t.Errorf("%s: the schema rejects it too (%v); remove it from goOnly", tc.name, err)
		}
	}
	if seen != len(goOnly) {
		t.Errorf("goOnly names %d cases, found %d in errorCases", len(goOnly), seen)
	}
}

// TestSchemaPatternsMatchGo checks that the regular expressions in the
// schema are the ones Parse uses.
func TestSchemaPatternsMatchGo(t *testing.T) {
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	text := string(Schema())
	for name, re := range map[string]string{
		"pattern": patternRE, "serverName": serverNameRE, "duration": durationRE, "size": sizeRE, "url": urlRE,
	} {
		quoted, _ := json.Marshal(re)
		want := `"pattern": ` + strings.ReplaceAll(string(quoted), `\u0026`, "&")
		if !strings.Contains(text, want) {
			t.Errorf("%s: the schema does not contain %s", name, want)
		}
	}
	for _, def := range []string{"pattern", "serverName", "duration", "size", "limits", "toolRule", "flows", "server"} {
		if _, ok := doc.Defs[def]; !ok {
			t.Errorf("$defs/%s missing", def)
		}
	}
	// Every key Parse allows is in the schema, and no other.
	var top struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(Schema(), &top); err != nil {
		t.Fatal(err)
	}
	assertKeys(t, "top level", top.Properties, topKeys)
	for def, keys := range map[string][]string{"limits": limitKeys, "toolRule": ruleKeys, "flows": flowKeys, "server": serverKeys} {
		var d struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(doc.Defs[def], &d); err != nil {
			t.Fatal(err)
		}
		assertKeys(t, def, d.Properties, keys)
	}
}

func assertKeys(t *testing.T, where string, props map[string]json.RawMessage, keys []string) {
	t.Helper()
	var got []string
	for k := range props {
		got = append(got, k)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(keys))
	if !slices.Equal(got, want) {
		t.Errorf("%s: schema keys %v, Go keys %v", where, got, want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
