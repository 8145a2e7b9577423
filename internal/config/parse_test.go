package config

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/limits"

	"github.com/modebox/modebox/internal/codes"
)

// fullExample is the example of the format from the design, every section
// filled in.
const fullExample = `{
  "$schema": "./modebox.schema.json",
  "limits": {"timeout": "30s", "memory": "64MiB", "fuel": 0, "maxCalls": 1000, "maxConcurrency": 16, "maxValue": "4MiB", "maxLog": "256KiB"},
  "tools": {"github.*": {"policy": "ask"}, "github.delete_repo": {"policy": "deny"}, "sh": {"policy": "ask"}, "fs.*": {"policy": "allow"}},
  "flows": {"sources": ["github.get_*", "fs.read"], "sinks": ["slack.*", "fetch"]},
  "mcpServers": {
    "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {"K": "V"}, "cwd": "/tmp"},
    "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}}
  },
  "shell": {}, "fetch": {}, "fs": {}, "mcp": {}
}`

func TestParseFullExample(t *testing.T) {
	cfg, err := Parse([]byte(fullExample), "modebox.json")
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		File:   "modebox.json",
		Schema: "./modebox.schema.json",
		Limits: Limits{Limits: limits.Limits{
			Timeout:        30 * time.Second,
			Memory:         64 << 20,
			MaxCalls:       1000,
			MaxConcurrency: 16,
			MaxValue:       4 << 20,
			MaxLog:         256 << 10,
		}},
		Tools: map[string]ToolRule{
			"github.*":           {Policy: "ask"},
			"github.delete_repo": {Policy: "deny"},
			"sh":                 {Policy: "ask"},
			"fs.*":               {Policy: "allow"},
		},
		Flows: Flows{
			Sources: []string{"github.get_*", "fs.read"},
			Sinks:   []string{"slack.*", "fetch"},
		},
		MCPServers: map[string]Server{
			"everything": {
				Command: "npx",
				Args:    []string{"-y", "@modelcontextprotocol/server-everything"},
				Env:     map[string]string{"K": "V"},
				Cwd:     "/tmp",
			},
			"remote": {
				URL:     "https://example.com/mcp",
				Headers: map[string]string{"Authorization": "Bearer x"},
			},
		},
		Shell: json.RawMessage(`{}`),
		Fetch: json.RawMessage(`{}`),
		FS:    json.RawMessage(`{}`),
		MCP:   json.RawMessage(`{}`),
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got  %+v\nwant %+v", cfg, want)
	}
	if got := cfg.MCPServers["everything"].Transport(); got != "stdio" {
		t.Errorf("everything transport = %q", got)
	}
	if got := cfg.MCPServers["remote"].Transport(); got != "http" {
		t.Errorf("remote transport = %q", got)
	}
}

func TestParseEmptyObjectIsDefault(t *testing.T) {
	for _, doc := range []string{`{}`, " \n\t{ }\r\n", "\uFEFF{}"} {
		cfg, err := Parse([]byte(doc), "x.json")
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		d := Default()
		d.File = "x.json"
		if !reflect.DeepEqual(cfg, d) {
			t.Errorf("%q: got %+v, want the default", doc, cfg)
		}
	}
}

// TestPastedClientEntries checks entries as MCP clients write them.
func TestPastedClientEntries(t *testing.T) {
	doc := `{"mcpServers": {
	  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]},
	  "github": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "<token>"}},
	  "typed-stdio": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"], "disabled": true, "timeout": 60000},
	  "remote-http": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer t"}},
	  "remote-streamable": {"type": "streamable-http", "url": "http://localhost:8080/mcp", "timeout": "2m"},
	  "legacy-sse": {"type": "sse", "url": "https://example.com/sse"}
	}}`
	cfg, err := Parse([]byte(doc), "modebox.json")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.MCPServers["typed-stdio"]
	if s.Type != "stdio" || !s.Disabled || s.Timeout != time.Minute || s.Transport() != "stdio" {
		t.Errorf("typed-stdio = %+v", s)
	}
	if s := cfg.MCPServers["remote-streamable"]; s.Timeout != 2*time.Minute || s.Transport() != "http" {
		t.Errorf("remote-streamable = %+v", s)
	}
	if s := cfg.MCPServers["legacy-sse"]; s.Type != "sse" || s.Transport() != "http" {
		t.Errorf("legacy-sse = %+v", s)
	}
}

func TestLimitsValues(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want Limits
	}{
		{`{"timeout": "500ms"}`, Limits{Limits: limits.Limits{Timeout: 500 * time.Millisecond}}},
		{`{"approvalTimeout": "2m"}`, Limits{ApprovalTimeout: 2 * time.Minute}},
		{`{"timeout": "1m30s"}`, Limits{Limits: limits.Limits{Timeout: 90 * time.Second}}},
		{`{"timeout": 1500}`, Limits{Limits: limits.Limits{Timeout: 1500 * time.Millisecond}}},
		{`{"timeout": 0.5}`, Limits{Limits: limits.Limits{Timeout: 500 * time.Microsecond}}},
		{`{"timeout": 9223372036854}`, Limits{Limits: limits.Limits{Timeout: 9223372036854 * time.Millisecond}}},
		{`{"timeout": "0"}`, Limits{}},
		{`{"memory": "64MiB"}`, Limits{Limits: limits.Limits{Memory: 64 << 20}}},
		{`{"memory": "2GiB"}`, Limits{Limits: limits.Limits{Memory: 2 << 30}}},
		{`{"memory": 1048576}`, Limits{Limits: limits.Limits{Memory: 1 << 20}}},
		{`{"memory": 1e6}`, Limits{Limits: limits.Limits{Memory: 1000000}}},
		{`{"maxValue": "10MB"}`, Limits{Limits: limits.Limits{MaxValue: 10_000_000}}},
		{`{"maxValue": "512KiB"}`, Limits{Limits: limits.Limits{MaxValue: 512 << 10}}},
		{`{"maxValue": "512 kb"}`, Limits{Limits: limits.Limits{MaxValue: 512_000}}},
		{`{"maxLog": "1.5K"}`, Limits{Limits: limits.Limits{MaxLog: 1536}}},
		{`{"maxLog": "100"}`, Limits{Limits: limits.Limits{MaxLog: 100}}},
		{`{"maxLog": "7B"}`, Limits{Limits: limits.Limits{MaxLog: 7}}},
		{`{"fuel": 9007199254740991}`, Limits{Limits: limits.Limits{Fuel: 1<<53 - 1}}},
		{`{"maxCalls": 5, "maxConcurrency": 2.0}`, Limits{Limits: limits.Limits{MaxCalls: 5, MaxConcurrency: 2}}},
		{`{"maxClockReads": 5e6, "maxTimers": 100}`, Limits{Limits: limits.Limits{MaxClockReads: 5_000_000, MaxTimers: 100}}},
	} {
		cfg, err := Parse([]byte(`{"limits": `+tc.doc+`}`), "m.json")
		if err != nil {
			t.Errorf("%s: %v", tc.doc, err)
			continue
		}
		if cfg.Limits != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.doc, cfg.Limits, tc.want)
		}
	}
}

// errorCase is a document Parse rejects, with the rendered error and its
// position.
type errorCase struct {
	name, doc, want string
	line, col       int
}

// errorCases has one error of each kind. The schema test checks that the
// JSON Schema rejects them too.
var errorCases = []errorCase{
	// tokenStore.
	{"token store scheme", `{"tokenStore": "mysql://db/x"}`,
		`modebox.json: /tokenStore: expected a postgres:// URL or the absolute path of a directory, got a "mysql" URL (like "postgres://modebox@db.example.com/modebox" or "/var/lib/modebox/used-tokens")`, 1, 16},
	{"token store password", `{"tokenStore": "postgres://modebox:hunter2@db/x"}`,
		`modebox.json: /tokenStore: the URL holds a password; keep it out of modebox.json (set it in $PGPASSWORD or ~/.pgpass, or put the whole URL in $MODEBOX_TOKEN_STORE)`, 1, 16},
	{"token store type", `{"tokenStore": {"url": "postgres://db/x"}}`,
		`modebox.json: /tokenStore: expected a string: a postgres:// URL, or the absolute path of a directory, got an object`, 1, 16},
	// Syntax.
	{"trailing comma", "{\n  \"limits\": {\n    \"timeout\": \"1s\",\n  }\n}",
		`modebox.json:4:3: invalid JSON: unexpected '}' after ',' (trailing commas are not allowed in JSON)`, 4, 3},
	{"missing value", "{\n  \"limits\": {\n    \"timeout\": }\n}",
		`modebox.json:3:16: invalid JSON: unexpected '}', expected a value`, 3, 16},
	{"empty file", "  \n", `modebox.json:2:1: invalid JSON: the file is empty; it must hold a JSON object`, 2, 1},
	{"truncated", `{"limits": {`, `modebox.json:1:13: invalid JSON: unexpected end of input, expected a double-quoted key`, 1, 13},
	{"comment", "{\n  // limits\n}", `modebox.json:2:3: invalid JSON: unexpected '/' (comments are not allowed in JSON)`, 2, 3},
	{"single quotes", `{'limits': {}}`, `modebox.json:1:2: invalid JSON: unexpected '\'', expected a double-quoted key (JSON strings use double quotes)`, 1, 2},
	{"unquoted key", `{limits: {}}`, `modebox.json:1:2: invalid JSON: unexpected 'l', expected a double-quoted key`, 1, 2},
	{"missing comma", "{\"shell\": {}\n \"fs\": {}}", `modebox.json:2:2: invalid JSON: unexpected '"', expected ',' or '}' (missing comma?)`, 2, 2},
	{"missing colon", `{"shell" {}}`, `modebox.json:1:10: invalid JSON: unexpected '{', expected ':' after the key`, 1, 10},
	{"trailing data", `{} {}`, `modebox.json:1:4: invalid JSON: unexpected '{' after the end of the top-level value`, 1, 4},
	{"capital literal", `{"mcpServers": {"a": {"command": "x", "disabled": True}}}`,
		`modebox.json:1:51: invalid JSON: invalid literal "True" (JSON writes true, false and null in lower case)`, 1, 51},
	{"bare word", `{"limits": {"timeout": thirty}}`, `modebox.json:1:24: invalid JSON: unexpected 't', expected a value (strings must be double-quoted)`, 1, 24},
	{"unterminated string", "{\"limits\": {\"timeout\": \"30s}}\n", `modebox.json:1:30: invalid JSON: line break inside a string (unterminated string, or write \n)`, 1, 30},
	{"unterminated at eof", `{"a`, `modebox.json:1:2: invalid JSON: unterminated string`, 1, 2},
	{"bad escape", `{"a\q": 1}`, `modebox.json:1:4: invalid JSON: invalid escape \q in a string`, 1, 4},
	{"bad unicode escape", `{"a\u12": 1}`, `modebox.json:1:4: invalid JSON: invalid escape: \u must be followed by four hex digits`, 1, 4},
	{"number out of range", `{"limits": {"timeout": 1e1000001}}`,
		`modebox.json: /limits/timeout: number 1e1000001 is out of range (modebox reads numbers of up to 100000 digits times a power of ten of up to ±100000)`, 1, 24},
	{"number too small to read", `{"limits": {"fuel": 0.5e-100000}}`,
		`modebox.json: /limits/fuel: number 0.5e-100000 is out of range (modebox reads numbers of up to 100000 digits times a power of ten of up to ±100000)`, 1, 21},
	{"leading zero", `{"limits": {"fuel": 01}}`, `modebox.json:1:21: invalid JSON: invalid number: leading zeros are not allowed`, 1, 21},
	{"bad fraction", `{"limits": {"fuel": 1.}}`, `modebox.json:1:23: invalid JSON: unexpected '}', expected a digit after '.'`, 1, 23},
	{"trailing comma in array", `{"flows": {"sinks": ["a",]}}`, `modebox.json:1:26: invalid JSON: unexpected ']' after ',' (trailing commas are not allowed in JSON)`, 1, 26},
	{"invalid utf8", "{\"$schema\": \"caf\xe9\"}", `modebox.json:1:17: invalid JSON: invalid UTF-8 in a string (the file must be UTF-8 encoded)`, 1, 17},

	// Whole document.
	{"top-level array", `[]`, `modebox.json:1:1: expected a JSON object at the top level, got an array`, 1, 1},
	{"duplicate key", "{\"limits\": {},\n \"limits\": {}}", `modebox.json: /limits: duplicate key (first on line 1)`, 2, 2},
	{"duplicate in raw section", `{"fs": {"deny": [], "deny": []}}`, `modebox.json: /fs/deny: duplicate key (first on line 1)`, 1, 21},

	// Unknown keys.
	{"unknown top key", `{"limts": {}}`, `modebox.json: /limts: unknown key (did you mean "limits"?)`, 1, 2},
	{"unknown key case", `{"mcpservers": {}}`, `modebox.json: /mcpservers: unknown key (did you mean "mcpServers"?)`, 1, 2},
	{"unknown key hint", `{"servers": {}}`, `modebox.json: /servers: unknown key (MCP servers go under "mcpServers")`, 1, 2},
	{"unknown key far", `{"zzz": 1}`, `modebox.json: /zzz: unknown key`, 1, 2},
	{"unknown limit", `{"limits": {"timout": "1s"}}`, `modebox.json: /limits/timout: unknown key (did you mean "timeout"?)`, 1, 13},
	{"unknown rule key", `{"tools": {"sh": {"polcy": "ask"}}}`, `modebox.json: /tools/sh/polcy: unknown key (did you mean "policy"?)`, 1, 19},
	{"unknown flows key", `{"flows": {"source": []}}`, `modebox.json: /flows/source: unknown key (did you mean "sources"?)`, 1, 12},
	{"unknown server key", `{"mcpServers": {"a": {"command": "x", "arg": []}}}`, `modebox.json: /mcpServers/a/arg: unknown key (did you mean "args"?)`, 1, 39},
	{"windsurf serverUrl", `{"mcpServers": {"a": {"serverUrl": "https://x"}}}`, `modebox.json: /mcpServers/a/serverUrl: unknown key (did you mean "url"?)`, 1, 23},
	{"cline autoApprove", `{"mcpServers": {"a": {"command": "x", "autoApprove": []}}}`,
		`modebox.json: /mcpServers/a/autoApprove: unknown key (set tool policies under "tools" instead, like "NAME.*": {"policy": "allow"})`, 1, 39},

	// Wrong types.
	{"limits not object", `{"limits": []}`, `modebox.json: /limits: expected an object, got an array`, 1, 12},
	{"duration array", `{"limits": {"timeout": []}}`, `modebox.json: /limits/timeout: expected a string duration like "30s" or a number of milliseconds, got an array`, 1, 24},
	{"size bool", `{"limits": {"memory": true}}`, `modebox.json: /limits/memory: expected a size like "64MiB" or a number of bytes, got a boolean`, 1, 23},
	{"count string", `{"limits": {"maxCalls": "10"}}`, `modebox.json: /limits/maxCalls: expected a whole number, got a string (write it without quotes: 10)`, 1, 25},
	{"count fraction", `{"limits": {"maxCalls": 1.5}}`, `modebox.json: /limits/maxCalls: expected a whole number, got 1.5`, 1, 25},
	{"count negative", `{"limits": {"fuel": -1}}`, `modebox.json: /limits/fuel: must not be negative, got -1`, 1, 21},
	{"count too large", `{"limits": {"fuel": 9007199254740992}}`, `modebox.json: /limits/fuel: must be at most 9007199254740991, got 9007199254740992`, 1, 21},
	{"schema not string", `{"$schema": 1}`, `modebox.json: /$schema: expected a string (the URL or path of the JSON Schema), got a number`, 1, 13},
	{"rule string", `{"tools": {"sh": "ask"}}`, `modebox.json: /tools/sh: expected an object like {"policy": "ask"}, got a string (write {"policy": "ask"})`, 1, 18},
	{"rule missing policy", `{"tools": {"sh": {}}}`, `modebox.json: /tools/sh: missing "policy" ("allow", "ask" or "deny")`, 1, 18},
	{"flows not array", `{"flows": {"sinks": "fetch"}}`, `modebox.json: /flows/sinks: expected an array of tool patterns like ["github.*", "fetch"], got a string`, 1, 21},
	{"flows item number", `{"flows": {"sinks": ["a", 1]}}`, `modebox.json: /flows/sinks/1: expected a tool pattern string, got a number`, 1, 27},
	{"section not object", `{"shell": true}`, `modebox.json: /shell: expected an object, got a boolean`, 1, 11},
	{"section null", `{"mcp": null}`, `modebox.json: /mcp: expected an object, got null`, 1, 9},
	{"server not object", `{"mcpServers": {"a": "npx"}}`, `modebox.json: /mcpServers/a: expected an object like {"command": "npx", "args": [...]} or {"url": "https://..."}, got a string`, 1, 22},
	{"args not array", `{"mcpServers": {"a": {"command": "x", "args": "-y"}}}`, `modebox.json: /mcpServers/a/args: expected an array of strings, got a string`, 1, 47},
	{"args item", `{"mcpServers": {"a": {"command": "x", "args": ["-p", 80]}}}`, `modebox.json: /mcpServers/a/args/1: expected a string, got a number`, 1, 54},
	{"env number", `{"mcpServers": {"a": {"command": "x", "env": {"PORT": 8080}}}}`, `modebox.json: /mcpServers/a/env/PORT: expected a string, got a number (quote it: "8080")`, 1, 55},
	{"disabled string", `{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}`, `modebox.json: /mcpServers/a/disabled: expected true or false, got a string`, 1, 51},

	// Bad enums.
	{"bad policy", `{"tools": {"github.*": {"policy": "maybe"}}}`, `modebox.json: /tools/github.*/policy: expected "allow", "ask" or "deny", got "maybe"`, 1, 35},
	{"misspelt policy", `{"tools": {"github.*": {"policy": "alow"}}}`, `modebox.json: /tools/github.*/policy: expected "allow", "ask" or "deny", got "alow" (did you mean "allow"?)`, 1, 35},
	{"policy case", `{"tools": {"sh": {"policy": "Deny"}}}`, `modebox.json: /tools/sh/policy: expected "allow", "ask" or "deny", got "Deny" (did you mean "deny"?)`, 1, 29},
	{"policy type", `{"tools": {"sh": {"policy": true}}}`, `modebox.json: /tools/sh/policy: expected "allow", "ask" or "deny", got a boolean`, 1, 29},
	{"bad type", `{"mcpServers": {"a": {"type": "streamable_http", "url": "https://x"}}}`,
		`modebox.json: /mcpServers/a/type: expected "stdio", "http", "streamable-http" or "sse", got "streamable_http" (did you mean "streamable-http"?)`, 1, 31},

	// Bad durations and sizes.
	{"duration no unit", `{"limits": {"timeout": "30"}}`, `modebox.json: /limits/timeout: invalid duration "30": expected a number with a unit, like "30s", "1m30s" or "500ms" (units ns, us, ms, s, m, h)`, 1, 24},
	{"duration words", `{"limits": {"timeout": "30 seconds"}}`, `modebox.json: /limits/timeout: invalid duration "30 seconds": expected a number with a unit, like "30s", "1m30s" or "500ms" (units ns, us, ms, s, m, h)`, 1, 24},
	{"duration negative", `{"limits": {"timeout": "-1s"}}`, `modebox.json: /limits/timeout: must not be negative, got "-1s"`, 1, 24},
	{"shell without workspace", `{"shell": {"enabled": true}}`, `modebox.json: /shell: an enabled shell needs "workspace": the directories commands may write (for example "workspace": ["."])`, 1, 11},
	{"shell empty workspace", `{"shell": {"enabled": true, "workspace": []}}`, `modebox.json: /shell: an enabled shell needs "workspace": the directories commands may write (for example "workspace": ["."])`, 1, 11},
	{"duration negative number", `{"limits": {"timeout": -5}}`, `modebox.json: /limits/timeout: must not be negative, got -5`, 1, 24},
	{"duration below 1ns", `{"limits": {"timeout": "0.5ns"}}`, `modebox.json: /limits/timeout: duration "0.5ns" is less than 1ns (0 or absent: the default)`, 1, 24},
	{"duration number below 1ns", `{"limits": {"timeout": 1e-7}}`, `modebox.json: /limits/timeout: 1e-7 milliseconds is less than 1ns (0 or absent: the default)`, 1, 24},
	{"size below a byte", `{"limits": {"maxValue": "0.5"}}`, `modebox.json: /limits/maxValue: size "0.5" is less than one byte (0 or absent: the default)`, 1, 25},
	{"shell size below a byte", `{"shell": {"enabled": true, "workspace": ["."], "maxOutput": "0.9B"}}`, `modebox.json: /shell/maxOutput: size "0.9B" is less than one byte (0 or absent: the default)`, 1, 62},
	{"duration number past a Duration", `{"limits": {"timeout": 9223372036854.001}}`, `modebox.json: /limits/timeout: must be at most 9223372036854 milliseconds (about 292 years), got 9223372036854.001`, 1, 24},
	{"duration number 2^53-1 ms", `{"mcpServers": {"a": {"command": "x", "timeout": 9007199254740991}}}`, `modebox.json: /mcpServers/a/timeout: must be at most 9223372036854 milliseconds (about 292 years), got 9007199254740991`, 1, 50},
	{"duration overflow", `{"limits": {"timeout": "9999999999h"}}`, `modebox.json: /limits/timeout: invalid duration "9999999999h": too large`, 1, 24},
	{"size unit", `{"limits": {"maxLog": "64 megs"}}`, `modebox.json: /limits/maxLog: invalid size "64 megs": expected a number of bytes with an optional unit B, KB, MB, GB, KiB, MiB or GiB, like "64MiB"`, 1, 23},
	{"size negative", `{"limits": {"maxLog": "-1KiB"}}`, `modebox.json: /limits/maxLog: must not be negative, got "-1KiB"`, 1, 23},
	{"size number fraction", `{"limits": {"maxValue": 10.5}}`, `modebox.json: /limits/maxValue: expected a whole number, got 10.5`, 1, 25},
	{"size too large", `{"limits": {"maxValue": "9999999999GiB"}}`, `modebox.json: /limits/maxValue: size "9999999999GiB" is too large`, 1, 25},
	{"memory too large", `{"limits": {"memory": "4GiB"}}`, `modebox.json: /limits/memory: must be at most 2GiB, got "4GiB"`, 1, 23},
	{"memory too small", `{"limits": {"memory": 5}}`, `modebox.json: /limits/memory: must be at least 512KiB (0 or absent: the default, 64MiB), got 5 (a bare number is bytes: write "64MiB")`, 1, 23},
	{"memory string too small", `{"limits": {"memory": "100KiB"}}`, `modebox.json: /limits/memory: must be at least 512KiB (0 or absent: the default, 64MiB), got "100KiB" (a bare number is bytes: write "64MiB")`, 1, 23},
	{"memory number too large", `{"limits": {"memory": 2147483649}}`, `modebox.json: /limits/memory: must be at most 2GiB, got 2147483649`, 1, 23},
	{"server timeout seconds", `{"mcpServers": {"a": {"command": "x", "timeout": 60}}}`,
		`modebox.json: /mcpServers/a/timeout: a number is milliseconds, so 60 would be 60ms (write "60s" for seconds; numbers must be at least 1000)`, 1, 50},

	// Servers.
	{"server neither", `{"mcpServers": {"a": {"args": []}}}`, `modebox.json: /mcpServers/a: needs "command" (a program to start) or "url" (a remote endpoint)`, 1, 22},
	{"server both", `{"mcpServers": {"a": {"command": "x", "url": "https://x"}}}`,
		`modebox.json: /mcpServers/a: has both "command" and "url" (a server is either a program to start ("command") or a remote endpoint ("url"); keep one)`, 1, 22},
	{"server empty command", `{"mcpServers": {"a": {"command": ""}}}`, `modebox.json: /mcpServers/a/command: must not be empty`, 1, 34},
	{"server bad url", `{"mcpServers": {"a": {"url": "ftp://x"}}}`, `modebox.json: /mcpServers/a/url: invalid URL "ftp://x": expected an http or https URL like "https://example.com/mcp"`, 1, 30},
	{"server unparsable url", `{"mcpServers": {"a": {"url": "http://[::1"}}}`, `modebox.json: /mcpServers/a/url: invalid URL "http://[::1": expected an http or https URL like "https://example.com/mcp"`, 1, 30},
	{"stdio type with url", `{"mcpServers": {"a": {"type": "stdio", "url": "https://x"}}}`, `modebox.json: /mcpServers/a/type: type "stdio" needs "command"`, 1, 31},
	{"http type with command", `{"mcpServers": {"a": {"type": "http", "command": "x"}}}`, `modebox.json: /mcpServers/a/type: type "http" needs "url"`, 1, 31},
	{"args on url server", `{"mcpServers": {"a": {"url": "https://x", "args": []}}}`, `modebox.json: /mcpServers/a/args: "args" applies only to a server with "command"`, 1, 43},
	{"headers on command server", `{"mcpServers": {"a": {"command": "x", "headers": {}}}}`, `modebox.json: /mcpServers/a/headers: "headers" applies only to a server with "url"`, 1, 39},
	{"server name with dot", `{"mcpServers": {"my.server": {"command": "x"}}}`,
		`modebox.json: /mcpServers/my.server: invalid server name "my.server": the name becomes the namespace of the server's tools, so it may hold only letters, digits, "_" and "-"`, 1, 17},
	{"server name reserved", `{"mcpServers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}}`,
		`modebox.json: /mcpServers/fetch: the name "fetch" is taken by the built-in fetch tool (rename the server, for example to "fetch_mcp")`, 1, 17},
	{"server name with slash", `{"mcpServers": {"a/b": {"command": "x"}}}`,
		`modebox.json: /mcpServers/a~1b: invalid server name "a/b": the name becomes the namespace of the server's tools, so it may hold only letters, digits, "_" and "-"`, 1, 17},

	// Patterns.
	{"pattern double star", `{"tools": {"github.**": {"policy": "ask"}}}`, `modebox.json: /tools/github.**: invalid tool pattern "github.**": "**" is not needed, a single "*" matches any run of characters`, 1, 12},
	{"pattern empty segment", `{"tools": {"github..x": {"policy": "ask"}}}`, `modebox.json: /tools/github..x: invalid tool pattern "github..x": empty name between dots`, 1, 12},
	{"pattern bad char", `{"flows": {"sources": ["github/get"]}}`, `modebox.json: /flows/sources/0: invalid tool pattern "github/get": use "namespace.tool" made of letters, digits, "_", "-" and "*" wildcards, like "github.*"`, 1, 24},
	{"pattern empty", `{"tools": {"": {"policy": "ask"}}}`, `modebox.json: /tools/: invalid tool pattern "": empty`, 1, 12},
}

// TestErrors checks the rendered text of one error of each kind.
func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), "modebox.json")
			if err == nil {
				t.Fatalf("accepted %s", tc.doc)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error: %v", err, err)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if e.Line != tc.line || e.Column != tc.col {
				t.Errorf("at %d:%d, want %d:%d", e.Line, e.Column, tc.line, tc.col)
			}
		})
	}
}

func TestErrorFields(t *testing.T) {
	_, err := Parse([]byte(`{"limts": {}}`), "m.json")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	want := &Error{Code: codes.ConfigInvalid, File: "m.json", Path: "/limts", Line: 1, Column: 2, Message: "unknown key", Suggestion: `did you mean "limits"?`}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("got %+v, want %+v", e, want)
	}
	// Without a file name the text starts at the path.
	_, err = Parse([]byte(`{"limts": {}}`), "")
	if got := err.Error(); got != `/limts: unknown key (did you mean "limits"?)` {
		t.Errorf("got %q", got)
	}
}

func TestRawSectionsKeptVerbatim(t *testing.T) {
	doc := `{"shell": {"enabled": true, "workspace": ["/w"]}, "fetch": {"enabled": false, "allow": ["*.example.com:443"]}, "fs": { }, "mcp": {"approveTool":  true}}`
	cfg, err := Parse([]byte(doc), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]json.RawMessage{
		`{"enabled": true, "workspace": ["/w"]}`:             cfg.Shell,
		`{"enabled": false, "allow": ["*.example.com:443"]}`: cfg.Fetch,
		`{ }`:                    cfg.FS,
		`{"approveTool":  true}`: cfg.MCP,
	} {
		if string(got) != name {
			t.Errorf("got %s, want %s", got, name)
		}
	}
	cfg, err = Parse([]byte(`{}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Shell != nil || cfg.Fetch != nil || cfg.FS != nil || cfg.MCP != nil {
		t.Errorf("absent sections should be nil: %+v", cfg)
	}
}

func TestStringEscapes(t *testing.T) {
	doc := `{"mcpServers": {"a": {"command": "C:\\Program Files\\x.exe", "args": ["\u00e9\ud83d\ude00", "tab\there", "a\/b"]}}}`
	cfg, err := Parse([]byte(doc), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.MCPServers["a"]
	if s.Command != `C:\Program Files\x.exe` || !reflect.DeepEqual(s.Args, []string{"é😀", "tab\there", "a/b"}) {
		t.Errorf("got %q %q", s.Command, s.Args)
	}
}

func TestDeepNesting(t *testing.T) {
	doc := `{"shell": ` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`
	_, err := Parse([]byte(doc), "m.json")
	if err == nil || !strings.Contains(err.Error(), "nesting too deep") {
		t.Errorf("got %v", err)
	}
}

func TestClosestNeedsAPlausibleTypo(t *testing.T) {
	if got := closest("fs", []string{"sh"}); got != "" {
		t.Errorf("closest(fs, sh) = %q, want none", got)
	}
}
