package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPSectionCaseSensitive: a key of the "mcp" section in another case
// does not turn the approve tool on (encoding/json would have matched
// "APPROVETOOL" to approveTool): `config check` and `modebox mcp` both
// refuse it, as they refuse a misspelt key.
func TestMCPSectionCaseSensitive(t *testing.T) {
	for _, doc := range []string{
		`{"mcp": {"approveTool": false, "APPROVETOOL": true}}`,
		`{"mcp": {"approvalTool": true}}`,
	} {
		path := filepath.Join(t.TempDir(), "modebox.json")
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "", "config", "check", "--config", path); code != ExitConfig {
			t.Errorf("config check %s: exit %d %q %q", doc, code, out, errs)
		}
		if code, _, errs := runCLI(t, "", "mcp", "--config", path); code != ExitConfig || !strings.Contains(errs, "/mcp/") {
			t.Errorf("mcp %s: exit %d %q", doc, code, errs)
		}
	}
	m, err := parseMCPSection([]byte(`{"approveTool": true}`))
	if err != nil || !m.ApproveTool {
		t.Fatalf("approveTool: %+v %v", m, err)
	}
}
