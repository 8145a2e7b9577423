package mcpclient

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDoesNotLinkTheServer checks the dependency direction: a program
// that attaches downstream servers does not link modebox's MCP server
// (forwarded questions reach it through internal/forward instead).
func TestDoesNotLinkTheServer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/modebox/modebox/mcpserver" || strings.HasPrefix(p, "github.com/modebox/modebox/mcpserver/") || p == "github.com/modebox/modebox/cli" {
			t.Errorf("mcpclient depends on %s", p)
		}
	}
}
