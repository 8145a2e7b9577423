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

// mutateText breaks a text now and then: cut short, a byte changed,
// something after it, an escape or a stray byte in a string.
func mutateText(r *rand.Rand, s string) string {
	const junk = "{}[]:,\"\\ 0-e\x00\x80"
	b := []byte(s)
	switch r.IntN(10) {
	case 0:
		if len(b) > 0 {
			return s[:r.IntN(len(b))]
		}
	case 1:
		if len(b) > 0 {
			b[r.IntN(len(b))] = junk[r.IntN(len(junk))]
			return string(b)
		}
	case 2:
		return s + []string{" ", "1", "}", "\n"}[r.IntN(4)]
	case 3:
		return strings.Replace(s, `"a"`, `"\u0061"`, 1)
	}
	return s
}

// simpleValidJSON on a text answers true only where decoding it and
// asking simpleValid does, and then the full validator accepts it too;
// and it answers true for most of what simpleValid accepts (over
// generated schemas and values, some broken).
func TestSimpleValidJSONIsSimpleValid(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	both, fast, checked := 0, 0, 0
	for range 3000 {
		raw := genSimpleSchema(r, 0)
		v, err := Compile(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if v.simple == nil {
			continue
		}
		for range 20 {
			text := mutateText(r, genInstance(r, 0))
			checked++
			inst, derr := decodeJSON([]byte(text))
			slow := derr == nil && simpleValid(v.simple, inst)
			if slow {
				both++
			}
			if !simpleValidJSON(v.simple, []byte(text)) {
				continue
			}
			fast++
			if !slow {
				t.Fatalf("schema %s, text %q: simpleValidJSON accepts it, decoding and simpleValid do not (%v)", raw, text, derr)
			}
			if err := v.sch.Validate(inst); err != nil {
				t.Fatalf("schema %s, text %q: accepted, the library says %v", raw, text, err)
			}
			if err := v.ValidateJSON([]byte(text)); err != nil {
				t.Fatalf("schema %s, text %q: accepted, ValidateJSON says %v", raw, text, err)
			}
		}
	}
	if fast < both*9/10 || both < checked/10 {
		t.Fatalf("simpleValidJSON accepted %d, simpleValid %d, of %d texts", fast, both, checked)
	}
	t.Logf("simpleValidJSON accepted %d, simpleValid %d, of %d texts", fast, both, checked)
}

// With few properties, simpleValidJSON finds keys in props: a required
// property, a required name that is no property, additionalProperties
// false, a repeated key; each verdict is simpleValid's.
func TestSimpleValidJSONSmallProps(t *testing.T) {
	cases := []struct {
		schema, text string
		want         bool
	}{
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`, `{"a":1,"b":2}`, true},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`, `{"b":2,"a":1}`, true},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`, `{"a":1}`, false},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`, `{"a":1,"b":2,"c":3}`, false},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`, `{"a":1,"b":"x"}`, false},
		{`{"type":"object","properties":{"a":{"type":"number"}},"required":["a","c"]}`, `{"a":1,"c":null}`, true},
		{`{"type":"object","properties":{"a":{"type":"number"}},"required":["a","c"]}`, `{"a":1}`, false},
		{`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`, `{"a":1,"a":"x"}`, false},
		{`{"type":"object","required":["z"]}`, `{"z":[]}`, true},
		{`{"type":"object","required":["z"]}`, `{"y":[]}`, false},
	}
	for _, c := range cases {
		v, err := Compile(json.RawMessage(c.schema))
		if err != nil || v.simple == nil || !v.simple.small {
			t.Fatalf("%s: %v (simple %v)", c.schema, err, v != nil && v.simple != nil)
		}
		if got := simpleValidJSON(v.simple, []byte(c.text)); got != c.want {
			t.Fatalf("%s, %s: simpleValidJSON %v, want %v", c.schema, c.text, got, c.want)
		}
		inst, err := decodeJSON([]byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if c.want && !simpleValid(v.simple, inst) {
			t.Fatalf("%s, %s: simpleValid disagrees", c.schema, c.text)
		}
	}
}
