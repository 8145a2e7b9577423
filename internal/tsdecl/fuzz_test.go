package tsdecl

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/fuzzcorpus"
)

// fuzzSchemaSeeds are the seeds of FuzzSchema (input schema, output
// schema, description), also committed under testdata/fuzz/FuzzSchema.
var fuzzSchemaSeeds = map[string][3]string{
	"empty":       {``, ``, ``},
	"object":      {`{"type":"object","properties":{"a":{"type":"string"},"b-c":{"type":["integer","null"]}},"required":["a"]}`, `{"type":"array","items":{"type":"number"}}`, "Adds."},
	"self-ref":    {`{"$ref":"#"}`, `{"type":"object","properties":{"next":{"$ref":"#"}}}`, ""},
	"ref-cycle":   {`{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`, `{"$ref":"#/definitions/x","definitions":{"x":{"anyOf":[{"$ref":"#/definitions/x"},{"type":"null"}]}}}`, ""},
	"ref-pointer": {`{"properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"},"c":{"$ref":"#/properties/c"}}}`, `{"$ref":"#/$defs/a~1b","$defs":{"a/b":{"const":"x"}}}`, ""},
	"ref-missing": {`{"$ref":"other.json#/x"}`, `{"$ref":"#/$defs/nope"}`, ""},
	"comment":     {`{"type":"object","description":"*/ declare const x: 1; /*","properties":{"*/":{"description":"a */ b","type":"string"}}}`, `true`, "ends */ here\n@param x\r\n\u2028"},
	"enum":        {`{"enum":["a",1,null,true,{"k":[1]},"\u2028\"'` + "`" + `"]}`, `{"const":{"a":[1,2]}}`, ""},
	"keys":        {`{"type":"object","properties":{"":{},"0":{},"constructor":{},"__proto__":{},"a b":{},"\u0000":{}}}`, `false`, ""},
	"tuple":       {`{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":1}`, `{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"boolean"}}`, ""},
	"combinators": {`{"allOf":[{"type":"object","properties":{"a":{}}},{"oneOf":[{"required":["a"]},{"not":{}}]}]}`, `{"anyOf":[]}`, ""},
	"weird-types": {`{"type":["object","array","string","null","bogus"],"items":{},"properties":{"x":5}}`, `{"type":7}`, ""},
	"scalars":     {`5`, `"string"`, ""},
	"null":        {`null`, `[]`, ""},
	"deep":        {strings.Repeat(`{"type":"array","items":`, 40) + `{}` + strings.Repeat(`}`, 40), strings.Repeat(`[`, 500) + strings.Repeat(`]`, 500), ""},
	"invalid":     {`{"type":`, `{`, ""},
	"additional":  {`{"type":"object","additionalProperties":{"$ref":"#"},"patternProperties":{"^x":{"type":"string"}}}`, `{"type":"object","additionalProperties":false}`, ""},
}

// FuzzSchema renders arbitrary input and output schemas (with an
// arbitrary description) as a tool declaration, and checks that:
//
//   - rendering never panics, and fails only when a schema is not JSON;
//   - it finishes quickly and the output stays bounded, whatever the
//     nesting and $ref cycles;
//   - the output is valid TypeScript holding only declarations (esbuild
//     parses it and strips it to nothing);
//   - the one-line signature stays short.
func FuzzSchema(f *testing.F) {
	for _, s := range fuzzSchemaSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), s[2])
	}
	f.Fuzz(func(t *testing.T, in, out []byte, desc string) {
		if len(in)+len(out) > 64<<10 {
			return // big inputs test esbuild, not the renderer
		}
		tool := Tool{Namespace: "ns", Name: "tool", OriginalName: "to-ol", Description: desc, Input: in, Output: out, Policy: "ask"}
		start := time.Now()
		decl, err := Declaration(tool)
		sig := Signature(tool)
		if d := time.Since(start); d > time.Minute { // a hang guard, not a speed test
			t.Fatalf("rendering took %v", d)
		}
		valid := func(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 || json.Valid(b) }
		if err != nil {
			if valid(in) && valid(out) {
				t.Fatalf("valid schemas refused: %v", err)
			}
			return
		}
		if !valid(in) || !valid(out) {
			t.Fatalf("invalid JSON accepted as a schema")
		}
		if len(decl) > 2_000_000 {
			t.Fatalf("declaration is %d bytes", len(decl))
		}
		if n := utf8.RuneCountInString(sig); n > 250 {
			t.Fatalf("signature is %d runes: %s", n, sig)
		}
		// Whatever the input, the declaration is UTF-8 (TestInvalidUTF8).
		if !utf8.ValidString(decl) {
			t.Fatalf("declaration is not UTF-8")
		}
		if p := tsProblems(decl); len(p) > 0 {
			t.Fatalf("not valid TypeScript:\n%s\n%v", decl, p)
		}
		// Determinism: the same tool renders the same text.
		if again, _ := Declaration(tool); again != decl {
			t.Fatalf("rendering is not deterministic")
		}
	})
}

// TestFuzzSchemaCorpus checks that the committed corpus of FuzzSchema
// holds every seed above, and rewrites it when $MODEBOX_WRITE_CORPUS is
// set.
func TestFuzzSchemaCorpus(t *testing.T) {
	files := map[string]string{}
	for name, s := range fuzzSchemaSeeds {
		files[name] = fuzzcorpus.Entry([]byte(s[0]), []byte(s[1]), s[2])
	}
	fuzzcorpus.Check(t, "FuzzSchema", files)
}

// TestInvalidUTF8 is the regression test of a bug found by FuzzSchema:
// invalid UTF-8 in a Go tool's description (or in a string of its schema,
// which is valid JSON to encoding/json) was copied into the .d.ts as it
// was. Invalid bytes now become U+FFFD.
func TestInvalidUTF8(t *testing.T) {
	for _, tool := range []Tool{
		{Name: "a", Description: "bad \xf7 byte"},
		{Name: "b", Input: json.RawMessage("{\"type\":\"object\",\"properties\":{\"x\":{\"description\":\"\xff\"}}}")},
	} {
		decl, err := Declaration(tool)
		if err != nil || !utf8.ValidString(decl) {
			t.Errorf("%s: %v, UTF-8 %v:\n%q", tool.Name, err, utf8.ValidString(decl), decl)
		}
	}
}
