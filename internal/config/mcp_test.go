package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// The "mcp" section is checked like the others, case-sensitively: a key in
// another case (which encoding/json would take for approveTool) or an
// unknown key is refused with its pointer, by Parse and by ParseMCP.
func TestMCPSectionStrict(t *testing.T) {
	for _, tc := range []struct{ section, path, msg string }{
		{`{"approveTool": false, "APPROVETOOL": true}`, "/mcp/APPROVETOOL", "unknown key"},
		{`{"approvalTool": true}`, "/mcp/approvalTool", "unknown key"},
		{`{"approveTool": "true"}`, "/mcp/approveTool", ""},
		{`{"approveTool": true, "approveTool": false}`, "/mcp/approveTool", ""},
	} {
		for name, parse := range map[string]func() error{
			"Parse":    func() error { _, err := Parse([]byte(`{"mcp": `+tc.section+`}`), "m.json"); return err },
			"ParseMCP": func() error { _, err := ParseMCP([]byte(tc.section)); return err },
		} {
			err := parse()
			var e *Error
			if !errors.As(err, &e) || e.Code != codes.ConfigInvalid || e.Path != tc.path || tc.msg != "" && e.Message != tc.msg {
				t.Errorf("%s(%s): got %v, want CONFIG_INVALID at %s", name, tc.section, err, tc.path)
			}
		}
	}
	cfg, err := Parse([]byte(`{"mcp": {"approveTool": true}}`), "m.json")
	if err != nil || !cfg.MCPSettings.ApproveTool {
		t.Fatalf("approveTool: %+v %v", cfg, err)
	}
	if m, err := ParseMCP([]byte(`{"approveTool": true}`)); err != nil || !m.ApproveTool {
		t.Fatalf("ParseMCP: %+v %v", m, err)
	}
	if m, err := ParseMCP(nil); err != nil || m.ApproveTool {
		t.Fatalf("ParseMCP(nil): %+v %v", m, err)
	}
}

// A server's header names that differ only in case are refused: which
// one would be sent was left to chance.
func TestServerHeadersCaseTwice(t *testing.T) {
	_, err := Parse([]byte(`{"mcpServers": {"r": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer a", "authorization": "Bearer b"}}}}`), "m.json")
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.ConfigInvalid || e.Path != "/mcpServers/r/headers/authorization" || !strings.Contains(e.Message, "given twice (names are case-insensitive)") {
		t.Fatalf("got %v", err)
	}
	if _, err := Parse([]byte(`{"mcpServers": {"r": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer a", "X-Key": "k"}}}}`), "m.json"); err != nil {
		t.Fatal(err)
	}
}

// A relative "cwd" is relative to the configuration file's directory, as
// the fs mounts are; one that does not exist is refused naming it (not
// for a disabled server).
func TestServerCwdRelativeToFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "modebox.json")
	cfg, err := Parse([]byte(`{"mcpServers": {"c": {"command": "x", "cwd": "sub"}}}`), file)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.MCPServers["c"].Cwd; got != filepath.Join(dir, "sub") {
		t.Errorf("cwd %q, want %q", got, filepath.Join(dir, "sub"))
	}
	_, err = Parse([]byte(`{"mcpServers": {"c": {"command": "x", "cwd": "nosuch"}}}`), file)
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.ConfigInvalid || e.Path != "/mcpServers/c/cwd" || !strings.Contains(e.Message, filepath.Join(dir, "nosuch")) || !strings.Contains(e.Message, "does not exist") {
		t.Errorf("missing cwd: %v", err)
	}
	if _, err := Parse([]byte(`{"mcpServers": {"c": {"command": "x", "cwd": "nosuch", "disabled": true}}}`), file); err != nil {
		t.Errorf("disabled server: %v", err)
	}
}

// A relative "command" that names a path starts the program beside the
// configuration file (or in the server's cwd), whatever directory modebox
// runs in; "~/" is the home directory, in command and cwd; a bare name is
// left for PATH. The attack: a file in another directory naming
// "./server.sh" started the server.sh of modebox's working directory.
func TestServerCommandRelativeToFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	file := filepath.Join(dir, "modebox.json")
	for _, c := range []struct{ entry, command, cwd string }{
		{`{"command": "./server.sh"}`, filepath.Join(dir, "server.sh"), ""},
		{`{"command": "bin/server"}`, filepath.Join(dir, "bin", "server"), ""},
		{`{"command": "./server.sh", "cwd": "sub"}`, filepath.Join(dir, "sub", "server.sh"), filepath.Join(dir, "sub")},
		{`{"command": "npx"}`, "npx", ""},
		{`{"command": "/usr/bin/env"}`, "/usr/bin/env", ""},
		{`{"command": "~/bin/server"}`, filepath.Join(home, "bin", "server"), ""},
		{`{"command": "npx", "cwd": "~"}`, "npx", home},
	} {
		cfg, err := Parse([]byte(`{"mcpServers": {"c": `+c.entry+`}}`), file)
		if err != nil {
			t.Errorf("%s: %v", c.entry, err)
			continue
		}
		if s := cfg.MCPServers["c"]; s.Command != c.command || s.Cwd != c.cwd {
			t.Errorf("%s: command %q cwd %q, want %q %q", c.entry, s.Command, s.Cwd, c.command, c.cwd)
		}
	}

	// The file named relatively, as `modebox --config m.json` does: the
	// command stays a path (Join(".", "./server.sh") was the bare name
	// "server.sh", which exec looked up on PATH), and a relative cwd is
	// absolute (exec reads a relative command against it).
	t.Chdir(dir)
	for _, c := range []struct{ entry, command, cwd string }{
		{`{"command": "./server.sh"}`, filepath.Join(dir, "server.sh"), ""},
		{`{"command": "./server.sh", "cwd": "sub"}`, filepath.Join(dir, "sub", "server.sh"), filepath.Join(dir, "sub")},
		{`{"command": "npx", "cwd": "sub"}`, "npx", filepath.Join(dir, "sub")},
	} {
		cfg, err := Parse([]byte(`{"mcpServers": {"c": `+c.entry+`}}`), "modebox.json")
		if err != nil {
			t.Errorf("%s: %v", c.entry, err)
			continue
		}
		if s := cfg.MCPServers["c"]; s.Command != c.command || s.Cwd != c.cwd {
			t.Errorf("relative file, %s: command %q cwd %q, want %q %q", c.entry, s.Command, s.Cwd, c.command, c.cwd)
		}
	}
}
