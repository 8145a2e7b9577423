package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

const twoServers = `"mcpServers": {"filesystem": {"command": "x"}, "memory": {"command": "y", "disabled": true}}`

// A rule or flow pattern whose namespace is a near miss of a configured
// server (a typo, another case) would match no tool: refused with the
// server it likely means, as is a "tools." prefix.
func TestRuleNamespaceNearMissRefused(t *testing.T) {
	for _, tc := range []struct{ doc, path, want string }{
		{`{` + twoServers + `, "flows": {"sinks": ["memroy.*"]}}`, "/flows/sinks/0", `did you mean "memory"?`},
		{`{` + twoServers + `, "tools": {"Memory.*": {"policy": "ask"}}}`, "/tools/Memory.*", `did you mean "memory"?`},
		{`{"tools": {"filesystm.write_file": {"policy": "deny"}}, ` + twoServers + `}`, "/tools/filesystm.write_file", `did you mean "filesystem"?`},
		{`{"flows": {"sources": ["filesystem.read_*"], "sinks": ["FileSystem.write_file"]}, ` + twoServers + `}`, "/flows/sinks/0", `did you mean "filesystem"?`},
		{`{"tools": {"tools.memory.x": {"policy": "deny"}}}`, "/tools/tools.memory.x", `write "memory.x"`},
		{`{"flows": {"sinks": ["tools.fetch"]}}`, "/flows/sinks/0", `write "fetch"`},
	} {
		_, err := Parse([]byte(tc.doc), "m.json")
		var e *Error
		if !errors.As(err, &e) || e.Code != codes.ConfigInvalid || e.Path != tc.path || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want CONFIG_INVALID at %s saying %s", tc.doc, err, tc.path, tc.want)
		}
	}
}

// Rules for configured servers (disabled too), built-ins, wildcards and
// namespaces far from every server (a Go tool namespace) are accepted.
func TestRuleNamespacesAccepted(t *testing.T) {
	doc := `{` + twoServers + `, "tools": {"memory.*": {"policy": "ask"}, "filesystem.write_file": {"policy": "deny"},
		"sh": {"policy": "ask"}, "fs.write": {"policy": "deny"}, "*": {"policy": "allow"}, "*.delete_*": {"policy": "deny"},
		"billing.refund": {"policy": "ask"}}, "flows": {"sources": ["filesystem.read_*"], "sinks": ["memory.*", "fetch"]}}`
	if _, err := Parse([]byte(doc), "m.json"); err != nil {
		t.Fatal(err)
	}
}
