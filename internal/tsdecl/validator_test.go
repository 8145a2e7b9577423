package tsdecl

import (
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/schema"
)

// The declared input type says what validation accepts: OpenAPI's
// "nullable" is no JSON Schema keyword (the validator ignores it, so null
// is refused), and in draft-07 and earlier a "$ref" makes the validator
// ignore its siblings ("type": "number" beside it does not apply), while
// 2019-09 and later apply both.
func TestDeclarationsFollowValidation(t *testing.T) {
	cases := []struct {
		name, input string
		want, not   []string
		accepts     []string
		refuses     []string
	}{
		{"nullable", `{"type":"object","properties":{"n":{"type":"number","nullable":true}},"required":["n"]}`,
			[]string{"n: number;"}, []string{"null"}, []string{`{"n":1}`}, []string{`{"n":null}`}},
		{"nullable ref", `{"type":"object","properties":{"r":{"allOf":[{"$ref":"#/$defs/S"}],"nullable":true}},"required":["r"],"$defs":{"S":{"type":"string"}}}`,
			[]string{"r: Ns_T_S;"}, []string{"null"}, []string{`{"r":"x"}`}, []string{`{"r":null}`}},
		{"draft-07 ref sibling", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"s":{"$ref":"#/definitions/S","type":"number"}},"required":["s"],"definitions":{"S":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
			[]string{"s: Ns_T_S;"}, []string{"& number", "number &"}, []string{`{"s":{"a":"x"}}`}, nil},
		{"draft-04 ref sibling", `{"$schema":"http://json-schema.org/draft-04/schema","type":"object","properties":{"s":{"$ref":"#/definitions/S","enum":[1]}},"required":["s"],"definitions":{"S":{"type":"string"}}}`,
			[]string{"s: Ns_T_S;"}, []string{"1"}, []string{`{"s":"x"}`}, nil},
		{"2020-12 ref sibling", `{"type":"object","properties":{"s":{"$ref":"#/$defs/S","type":"object","required":["b"],"properties":{"b":{"type":"number"}}}},"required":["s"],"$defs":{"S":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
			[]string{"Ns_T_S & {", "b: number"}, nil, []string{`{"s":{"b":1}}`}, []string{`{"s":{"a":"x"}}`}},
		{"draft-07 root ref", `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/In","type":"object","required":["x"],"definitions":{"In":{"type":"object","properties":{"y":{"type":"string"}}}}}`,
			[]string{"t(args?: Ns_T_In)"}, nil, []string{`{}`}, nil},
	}
	for _, c := range cases {
		v, err := schema.Compile(raw(c.input))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, a := range c.accepts {
			if err := v.ValidateJSON([]byte(a)); err != nil {
				t.Fatalf("%s: the validator refuses %s: %v", c.name, a, err)
			}
		}
		for _, a := range c.refuses {
			if err := v.ValidateJSON([]byte(a)); err == nil {
				t.Fatalf("%s: the validator accepts %s", c.name, a)
			}
		}
		d, err := Declarations([]Tool{{Namespace: "ns", Name: "t", Input: raw(c.input)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkTS(t, c.name, d)
		for _, w := range c.want {
			if !strings.Contains(d, w) {
				t.Errorf("%s: want %q in\n%s", c.name, w, d)
			}
		}
		body := d[strings.Index(d, "declare const tools"):]
		if i := strings.Index(d, "interface Ns_TInput"); i >= 0 {
			body = d[i:]
		}
		for _, n := range c.not {
			if strings.Contains(body, n) {
				t.Errorf("%s: %q in\n%s", c.name, n, d)
			}
		}
	}
}
