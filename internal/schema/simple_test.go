package schema

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// genSimpleSchema writes a random schema from the simple keywords, with
// now and then a keyword that is not simple (so that compileSimple must
// refuse the whole schema).
func genSimpleSchema(r *rand.Rand, depth int) string {
	var parts []string
	types := []string{"object", "array", "string", "number", "integer", "boolean", "null"}
	switch r.IntN(4) {
	case 0:
		parts = append(parts, fmt.Sprintf(`"type":%q`, types[r.IntN(len(types))]))
	case 1:
		i := r.IntN(len(types))
		j := (i + 1 + r.IntN(len(types)-1)) % len(types)
		parts = append(parts, fmt.Sprintf(`"type":[%q,%q]`, types[i], types[j]))
	}
	if depth < 3 && r.IntN(2) == 0 {
		var props []string
		for i := range r.IntN(4) {
			props = append(props, fmt.Sprintf(`"p%d":%s`, i, genSimpleSchema(r, depth+1)))
		}
		parts = append(parts, `"properties":{`+strings.Join(props, ",")+`}`)
	}
	if r.IntN(3) == 0 {
		parts = append(parts, `"required":["p0"`+map[bool]string{true: `,"p1"`, false: ""}[r.IntN(2) == 0]+`]`)
	}
	switch r.IntN(4) {
	case 0:
		parts = append(parts, `"additionalProperties":false`)
	case 1:
		parts = append(parts, `"additionalProperties":true`)
	case 2:
		if depth < 3 {
			parts = append(parts, `"additionalProperties":`+genSimpleSchema(r, depth+1))
		}
	}
	if depth < 3 && r.IntN(3) == 0 {
		parts = append(parts, `"items":`+genSimpleSchema(r, depth+1))
	}
	if r.IntN(5) == 0 {
		parts = append(parts, `"enum":["a","b","é"]`)
	}
	if r.IntN(4) == 0 {
		parts = append(parts, fmt.Sprintf(`"minLength":%d`, r.IntN(3)))
	}
	if r.IntN(4) == 0 {
		parts = append(parts, fmt.Sprintf(`"maxLength":%d`, r.IntN(4)))
	}
	if r.IntN(4) == 0 {
		parts = append(parts, `"description":"d","title":"t","default":1`)
	}
	if r.IntN(25) == 0 { // not simple
		parts = append(parts, []string{`"minimum":1`, `"pattern":"^a"`, `"format":"email"`, `"const":1`, `"minItems":1`, `"enum":[1,2]`}[r.IntN(6)])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// genInstance writes a random value that often comes close to the
// generated schemas: objects with keys p0..p3 and others, every type,
// integers written 1, 1.0 and 1e0, strings of 0 to 4 characters.
func genInstance(r *rand.Rand, depth int) string {
	switch n := r.IntN(9); {
	case n == 0 && depth < 4:
		var kv []string
		for i := range r.IntN(4) {
			k := fmt.Sprintf("p%d", i)
			if r.IntN(5) == 0 {
				k = "x"
			}
			kv = append(kv, fmt.Sprintf("%q:%s", k, genInstance(r, depth+1)))
		}
		return "{" + strings.Join(kv, ",") + "}"
	case n == 1 && depth < 4:
		var items []string
		for range r.IntN(4) {
			items = append(items, genInstance(r, depth+1))
		}
		return "[" + strings.Join(items, ",") + "]"
	case n == 2:
		return []string{`""`, `"a"`, `"b"`, `"é"`, `"abcd"`, `"😀😀"`, `"ab"`}[r.IntN(7)]
	case n == 3:
		return []string{"1", "1.0", "1e0", "-3", "0.5", "12345678901234567890", "-0"}[r.IntN(7)]
	case n == 4:
		return []string{"true", "false"}[r.IntN(2)]
	case n == 5:
		return "null"
	}
	return `"p0"`
}

// Whenever the simple check accepts a value, the full validator accepts
// it too, over generated schemas and values (decoded both ways); and the
// simple check does accept a good share of them.
func TestSimpleValidIsTheLibrarys(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	simple, accepted, checked := 0, 0, 0
	for range 3000 {
		raw := genSimpleSchema(r, 0)
		v, err := Compile(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if v.simple == nil {
			continue
		}
		simple++
		for range 20 {
			text := genInstance(r, 0)
			num, err := decodeJSON([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			var flt any
			if err := json.Unmarshal([]byte(text), &flt); err != nil {
				t.Fatal(err)
			}
			for _, inst := range []any{num, flt} {
				checked++
				if !simpleValid(v.simple, inst) {
					continue
				}
				accepted++
				if err := v.sch.Validate(inst); err != nil {
					t.Fatalf("schema %s, value %s: the simple check accepts it, the library says %v", raw, text, err)
				}
			}
		}
	}
	if simple < 1500 || accepted < checked/10 {
		t.Fatalf("%d simple schemas; %d of %d values accepted by the simple check", simple, accepted, checked)
	}
	t.Logf("%d simple schemas; %d of %d values accepted by the simple check", simple, accepted, checked)
}

// compileSimple refuses every keyword it does not check.
func TestCompileSimpleRefusesOtherKeywords(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"a":{"minimum":1}}}`, `{"pattern":"x"}`, `{"format":"email"}`,
		`{"$ref":"#/$defs/a","$defs":{"a":{}}}`, `{"enum":[1]}`, `{"const":"a"}`, `{"allOf":[{}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}`, `{"properties":{"a":true}}`,
		`{"items":[{}]}`, `{"minItems":1}`, `{"type":"object","unevaluatedProperties":false}`,
	} {
		doc, err := decodeJSON([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if compileSimple(doc) != nil {
			t.Errorf("%s is taken as simple", raw)
		}
	}
	doc, _ := decodeJSON([]byte(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`))
	if compileSimple(doc) == nil {
		t.Error("an inferred tool schema is not simple")
	}
}
