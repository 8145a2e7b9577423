package tsdecl

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestDeclarationsErrors(t *testing.T) {
	obj := raw(`{"type":"object"}`)
	cases := []struct {
		name    string
		tools   []Tool
		globals []string
		want    string
	}{
		{"bad name", []Tool{{Name: "get-sum"}}, nil, "not a JS identifier"},
		{"bad namespace", []Tool{{Namespace: "my ns", Name: "x"}}, nil, "not a JS identifier"},
		{"duplicate", []Tool{{Namespace: "a", Name: "x"}, {Namespace: "a", Name: "x"}}, nil, "appears twice"},
		{"clash", []Tool{{Namespace: "a", Name: "x"}, {Name: "a"}}, nil, "both a namespace and a tool"},
		{"deny", []Tool{{Name: "x", Policy: "deny"}}, nil, "policy"},
		{"bad input", []Tool{{Name: "x", Input: raw(`{"type":`)}}, nil, "input schema"},
		{"bad output", []Tool{{Name: "x", Input: obj, Output: raw(`[1,}`)}}, nil, "output schema"},
		{"reserved global", []Tool{{Namespace: "delete", Name: "x"}}, []string{"delete"}, "cannot be a global"},
		{"tools global", []Tool{{Namespace: "tools", Name: "x"}}, []string{"tools"}, "cannot be a global"},
	}
	for _, c := range cases {
		_, err := Declarations(c.tools, c.globals)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestDeclarationsDeterministic(t *testing.T) {
	tools := []Tool{
		{Namespace: "b", Name: "z", Input: raw(`{"type":"object","properties":{"q":{"type":"string"}}}`)},
		{Namespace: "a", Name: "y", Output: raw(`{"type":"integer"}`)},
		{Name: "x", Description: "top"},
		{Namespace: "a", Name: "c", Input: raw(`{"$ref":"#/$defs/In","$defs":{"In":{"type":"object","properties":{"n":{"type":"number"}}}}}`)},
	}
	first, err := Declarations(tools, []string{"b", "a", "unused"})
	if err != nil {
		t.Fatal(err)
	}
	checkTS(t, "deterministic", first)
	for i := 0; i < 20; i++ {
		shuffled := append([]Tool(nil), tools...)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := Declarations(shuffled, []string{"a", "unused", "b"})
		if err != nil || got != first {
			t.Fatalf("order changed the output (err %v):\n%s\nvs\n%s", err, got, first)
		}
	}
	if strings.Contains(first, "declare const unused") {
		t.Errorf("a global without tools was declared:\n%s", first)
	}
	for _, want := range []string{
		"declare const a: typeof tools.a;\ndeclare const b: typeof tools.b;\n",
		"c(args?: A_C_In): Promise<unknown>;",
		"y(args?: Record<string, unknown>): Promise<number>;",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("missing %q in\n%s", want, first)
		}
	}
}

func TestDeclarationMatchesDeclarations(t *testing.T) {
	tool := Tool{Namespace: "github", Name: "create_issue", Description: "Open an issue.",
		Input: raw(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)}
	one, err := Declaration(tool)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := Declarations([]Tool{tool}, nil)
	if one != all {
		t.Errorf("Declaration differs from Declarations of the one tool")
	}
	want := "interface Github_CreateIssueInput {\n  title: string;\n}\n\n" +
		"declare const tools: {\n  github: {\n    /** Open an issue. */\n" +
		"    create_issue(args: Github_CreateIssueInput): Promise<unknown>;\n  };\n};\n"
	if one != want {
		t.Errorf("got\n%s\nwant\n%s", one, want)
	}
}

func TestTypeNameCollisions(t *testing.T) {
	tools := []Tool{
		{Namespace: "gh", Name: "create_issue", Input: raw(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
		{Namespace: "gh", Name: "createIssue", Input: raw(`{"type":"object","properties":{"b":{"type":"string"}}}`)},
	}
	out, err := Declarations(tools, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkTS(t, "collisions", out)
	for _, want := range []string{"interface Gh_CreateIssueInput {", "interface Gh_CreateIssueInput2 {",
		"create_issue(args?: Gh_CreateIssueInput2)", "createIssue(args?: Gh_CreateIssueInput)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestSignature(t *testing.T) {
	cases := []struct {
		tool Tool
		want string
	}{
		{Tool{Namespace: "github", Name: "create_issue",
			Input: raw(`{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"}},"required":["owner","repo","title"]}`)},
			"tools.github.create_issue({owner: string, repo: string, title: string, body?: string}): Promise<unknown>"},
		{Tool{Name: "ping"}, "tools.ping(args?: Record<string, unknown>): Promise<unknown>"},
		{Tool{Name: "now", Input: raw(`{"type":"object","properties":{}}`), Output: raw(`{"type":"string"}`)},
			"tools.now(): Promise<string>"},
		{Tool{Name: "bad", Input: raw(`{`)}, "tools.bad(args?: unknown): Promise<unknown>"},
		{Tool{Name: "nest", Input: raw(`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"string"}}},"m":{"type":"object","additionalProperties":{"type":"number"}}}}`)},
			"tools.nest(args?: {o?: {…}, m?: Record<string, number>}): Promise<unknown>"},
		{Tool{Name: "pick", Input: raw(`{"type":"object","properties":{"c":{"enum":["a","b","c","d","e"]}},"required":["c"]}`)},
			`tools.pick({c: "a" | "b" | "c" | …}): Promise<unknown>`},
	}
	for _, c := range cases {
		if got := Signature(c.tool); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestSignatureLongLiterals: a long literal or property name (as the
// fuzzer wrote with invalid UTF-8, each byte a \ufffd escape) made the
// signature as long as it; it is cut to maxSignature runes with ….
func TestSignatureLongLiterals(t *testing.T) {
	long := strings.Repeat("a", 300)
	cases := map[string]string{
		"enum":      `{"enum":["` + long + `"]}`,
		"const":     `{"const":"` + long + `"}`,
		"invalid":   "{\"enum\":[\"" + strings.Repeat("\xfd", 40) + "\"]}",
		"property":  `{"type":"object","properties":{"a":{"const":"` + long + `"}}}`,
		"name":      `{"type":"object","properties":{"` + long + `":{"type":"string"}}}`,
		"two names": `{"type":"object","properties":{"` + long + `":{"type":"string"},"b":{"type":"string"}},"required":["b"]}`,
	}
	for name, in := range cases {
		tool := Tool{Namespace: "ns", Name: "tool", Input: raw(in), Output: raw(`{"const":"` + long + `"}`)}
		sig := Signature(tool)
		if n := utf8.RuneCountInString(sig); n > maxSignature || !strings.HasPrefix(sig, "tools.ns.tool(") ||
			!strings.HasSuffix(sig, "…): Promise<…>") || !utf8.ValidString(sig) {
			t.Errorf("%s: %d runes: %s", name, n, sig)
		}
	}
	// a signature short enough is not cut
	if sig := Signature(Tool{Name: "x", Input: raw(`{"enum":["` + long[:150] + `"]}`)}); strings.Contains(sig, "…") {
		t.Errorf("cut: %s", sig)
	}
}

// TestBounded checks that schemas built to explode stay small and fast.
func TestBounded(t *testing.T) {
	// Seven levels of five-way branching, inline: 5^7 leaves.
	var build func(depth int) string
	build = func(depth int) string {
		if depth == 0 {
			return `{"type":"string"}`
		}
		inner := build(depth - 1)
		var props []string
		for i := 0; i < 5; i++ {
			props = append(props, fmt.Sprintf(`"p%d":%s`, i, inner))
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	}
	wide := build(7)
	// A chain of definitions, each referring to the next twice.
	var defs []string
	for i := 0; i < 200; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}}}`, i, i+1, i+1))
	}
	chain := `{"$ref":"#/$defs/d0","$defs":{` + strings.Join(defs, ",") + `}}`
	for name, schema := range map[string]string{"wide": wide, "chain": chain} {
		start := time.Now()
		tool := Tool{Name: "x", Input: raw(schema), Output: raw(schema)}
		out, err := Declaration(tool)
		if err != nil {
			t.Fatal(err)
		}
		sig := Signature(tool)
		// A hang guard, not a speed test: exponential rendering would
		// take hours; the bounded renderer takes milliseconds, so a
		// minute holds on any loaded machine.
		if d := time.Since(start); d > time.Minute {
			t.Errorf("%s: took %v", name, d)
		}
		if len(out) > 2_000_000 || len([]rune(sig)) > 250 {
			t.Errorf("%s: output %d bytes, signature %d runes", name, len(out), len([]rune(sig)))
		}
		checkTS(t, name, out)
	}
}

// TestRandomSchemas renders random mixes of keywords: rendering never
// fails and always gives valid TypeScript.
func TestRandomSchemas(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"a", "b-c", "2d", "$e", "*/"}
	var gen func(depth int) any
	gen = func(depth int) any {
		if depth > 4 || rng.IntN(5) == 0 {
			return []any{true, false, map[string]any{}, map[string]any{"type": "string"}}[rng.IntN(4)]
		}
		s := map[string]any{}
		switch rng.IntN(12) {
		case 0:
			s["type"] = []any{"string", "null", "integer", "object", "array", "bogus"}[rng.IntN(6)]
		case 1:
			s["type"] = []any{"object", "null"}
			s["properties"] = map[string]any{keys[rng.IntN(5)]: gen(depth + 1)}
		case 2:
			s["enum"] = []any{"x", 1.5, nil, true, map[string]any{"k": []any{1}}}[:1+rng.IntN(5)]
		case 3:
			s["const"] = keys[rng.IntN(5)]
		case 4:
			s["oneOf"] = []any{gen(depth + 1), gen(depth + 1)}
		case 5:
			s["allOf"] = []any{gen(depth + 1), gen(depth + 1)}
		case 6:
			s["items"] = []any{gen(depth + 1), gen(depth + 1)}
			s["additionalItems"] = gen(depth + 1)
			s["minItems"] = rng.IntN(3)
		case 7:
			s["prefixItems"] = []any{gen(depth + 1)}
			s["items"] = gen(depth + 1)
		case 8:
			s["$ref"] = []any{"#", "#/$defs/A", "#/$defs/missing", "other.json", "#/properties/a"}[rng.IntN(5)]
		case 9:
			s["additionalProperties"] = gen(depth + 1)
			s["patternProperties"] = map[string]any{"^x": gen(depth + 1)}
			s["properties"] = map[string]any{keys[rng.IntN(5)]: gen(depth + 1)}
		case 10:
			s["anyOf"] = []any{map[string]any{"required": []any{"a"}}, gen(depth + 1)}
			s["nullable"] = true
		case 11:
			s["type"] = "array"
			s["items"] = gen(depth + 1)
			s["description"] = "has */ inside\nand @tags"
			s["default"] = []any{1, "*/"}
		}
		return s
	}
	for i := 0; i < 300; i++ {
		root := map[string]any{
			"type":       "object",
			"properties": map[string]any{"a": gen(0), "b-c": gen(0)},
			"$defs":      map[string]any{"A": gen(0)},
		}
		if rng.IntN(4) == 0 {
			root = map[string]any{"$defs": map[string]any{"A": gen(0)}, "oneOf": []any{gen(0), map[string]any{"$ref": "#/$defs/A"}}}
		}
		in, _ := json.Marshal(root)
		out, _ := json.Marshal(gen(0))
		tool := Tool{Namespace: "r", Name: fmt.Sprintf("t%d", i), Input: in, Output: out}
		decl, err := Declaration(tool)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if p := tsProblems(decl); len(p) > 0 {
			t.Fatalf("input %s\noutput %s\n%s\n%v", in, out, decl, p)
		}
		_ = Signature(tool)
	}
}
