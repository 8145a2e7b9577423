package toolcorpus

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestReplaceWord(t *testing.T) {
	for _, c := range []struct{ in, old, new, want string }{
		{"read_file", "file", "object", "read_object"},
		{"a file, or files", "file", "object", "a object, or files"},
		{"profile filesystem file2 file", "file", "object", "profile filesystem file2 object"},
		{"get-pull-request", "pull", "merge", "get-merge-request"},
		{"", "x", "y", ""},
		{"file", "file", "object", "object"},
	} {
		if got := replaceWord(c.in, c.old, c.new); got != c.want {
			t.Errorf("replaceWord(%q, %q, %q) = %q, want %q", c.in, c.old, c.new, got, c.want)
		}
	}
}

// TestGrow: 500 distinct tools, the originals first, every copy renamed in
// its service's words and still a valid tools/list entry.
func TestGrow(t *testing.T) {
	orig, err := Load("../../testdata/mcp-schemas")
	if err != nil {
		t.Fatal(err)
	}
	if len(orig) != 62 {
		t.Fatalf("%d captured tools, want 62 (everything 13, filesystem 14, memory 9, github 26)", len(orig))
	}
	tools, err := Grow(orig, 500)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 500 {
		t.Fatalf("%d tools", len(tools))
	}
	seen := map[string]bool{}
	for i, tl := range tools {
		key := tl.Server + "." + tl.Name
		if seen[key] {
			t.Errorf("%s twice", key)
		}
		seen[key] = true
		if i < len(orig) && (tl.Server != orig[i].Server || tl.Name != orig[i].Name) {
			t.Errorf("tool %d is %s, want the original %s.%s", i, key, orig[i].Server, orig[i].Name)
		}
		var m map[string]any
		if err := json.Unmarshal(tl.Raw, &m); err != nil || m["name"] != tl.Name {
			t.Errorf("%s: raw %s: %v", key, tl.Raw, err)
		}
		if in, _ := m["inputSchema"].(map[string]any); in["type"] != "object" {
			t.Errorf("%s: input schema %v", key, in)
		}
		if tl.Server == "gitlab" && strings.Contains(string(tl.Raw), "GitHub") {
			t.Errorf("gitlab copy still says GitHub: %s", tl.Raw)
		}
	}
	for _, want := range []string{"gitlab.create_merge_request", "gitlab.accept_merge_request", "s3.read_object", "crm.create_contacts", "gdrive.list_folder", "demo.get-sum"} {
		if !seen[want] {
			t.Errorf("no %s", want)
		}
	}
	if _, err := Grow(orig, 10000); err == nil {
		t.Error("Grow past its copies does not fail")
	}
}
