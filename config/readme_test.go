package config_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMESnippetIsTheExample keeps the README's snippet honest: each
// of its lines (comments aside) is a line of Example, in the same order,
// so the snippet is code that compiles and runs.
func TestREADMESnippetIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)### A modebox.json, with MCP servers, from Go\n.*?```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no Go snippet under \"A modebox.json, with MCP servers, from Go\"")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)
	body = body[strings.Index(body, "func Example() {"):]
	var example []string
	for _, l := range strings.Split(body, "\n") {
		example = append(example, code(l))
	}
	i := 0
	for _, l := range strings.Split(strings.TrimSpace(string(m[1])), "\n") {
		want := code(l)
		if want == "" {
			continue
		}
		for i < len(example) && example[i] != want {
			i++
		}
		if i == len(example) {
			t.Fatalf("README snippet line %q is not in Example (in this order)", want)
		}
	}
}

// code is a line without its comment and surrounding blanks.
func code(l string) string {
	if i := strings.Index(l, "//"); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}
