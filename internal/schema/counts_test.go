package schema

import "testing"

// TestCountsBeyondInt64 validates against count keywords too large for
// the library's int64 reading, which wrapped them: {"maxLength": 1e300}
// became 0 and refused every string but "", {"maxLength": 2^63} became
// negative, and a minimum of 2^64 became 0 and accepted anything. A
// keyword of that name inside data ("const") is left as written.
func TestCountsBeyondInt64(t *testing.T) {
	long := `"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"`
	for _, tc := range []struct{ schema, ok, bad string }{
		{`{"maxLength": 1.7976931348623157e308}`, long, ""},
		{`{"maxLength": 18446744073709551616}`, long, ""},
		{`{"maxLength": 9223372036854775808}`, long, ""},
		{`{"maxItems": 18446744073709551616}`, `[1, 2, 3]`, ""},
		{`{"maxProperties": 1e300}`, `{"a": 1, "b": 2}`, ""},
		{`{"contains": {"type": "number"}, "maxContains": 1e300}`, `[1, 2, 3]`, ""},
		{`{"minLength": 18446744073709551617}`, "", long},
		{`{"minItems": 18446744073709551616}`, "", `[]`},
		{`{"minProperties": 1e300}`, "", `{"a": 1}`},
		{`{"contains": {"type": "number"}, "minContains": 1e300}`, "", `[1, 2, 3]`},
		{`{"type": "object", "properties": {"s": {"maxLength": 1e300}}}`, `{"s": ` + long + `}`, ""},
		{`{"$defs": {"s": {"minItems": 1e300}}, "items": {"$ref": "#/$defs/s"}}`, `[]`, `[[1]]`},
		{`{"const": {"maxLength": 1e300}}`, `{"maxLength": 1e300}`, `{"maxLength": 9007199254740991}`},
	} {
		v := mustCompile(t, tc.schema)
		if tc.ok != "" {
			if err := v.ValidateJSON([]byte(tc.ok)); err != nil {
				t.Errorf("%s: %s refused: %v", tc.schema, tc.ok, err)
			}
		}
		if tc.bad != "" {
			if err := v.ValidateJSON([]byte(tc.bad)); err == nil {
				t.Errorf("%s: %s accepted", tc.schema, tc.bad)
			}
		}
	}
}
