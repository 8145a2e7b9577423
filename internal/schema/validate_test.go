package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// orderSchema is a 2020-12 tool input schema used by several tests.
const orderSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "customer": {"type": "string", "minLength": 1},
    "priority": {"enum": ["low", "normal", "high"]},
    "count": {"type": "integer", "minimum": 1, "maximum": 100},
    "items": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "properties": {
          "name": {"type": "string"},
          "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
        },
        "required": ["name"],
        "additionalProperties": false
      }
    },
    "email": {"type": "string", "format": "email"},
    "code": {"type": "string", "pattern": "^[A-Z]{3}$"}
  },
  "required": ["customer", "items"],
  "additionalProperties": false
}`

func mustCompile(t testing.TB, raw string) *Validator {
	t.Helper()
	v, err := Compile(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return v
}

// check validates instance and compares the first violation with want
// ("" path and rule mean the value must be valid).
func check(t *testing.T, v *Validator, instance, wantPath, wantRule, wantMsg string) {
	t.Helper()
	err := v.ValidateJSON([]byte(instance))
	if wantRule == "" {
		if err != nil {
			t.Fatalf("ValidateJSON(%s) = %v, want nil", instance, err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("ValidateJSON(%s) = %v (%T), want *ValidationError", instance, err, err)
	}
	if ve.Path != wantPath || ve.Rule != wantRule {
		t.Errorf("ValidateJSON(%s): got path %q rule %q, want %q %q (%v)",
			instance, ve.Path, ve.Rule, wantPath, wantRule, err)
	}
	if wantMsg != "" && !strings.Contains(ve.Message, wantMsg) {
		t.Errorf("ValidateJSON(%s): message %q does not contain %q", instance, ve.Message, wantMsg)
	}
	if ve.Code() != codes.InvalidArgument {
		t.Errorf("Code() = %q", ve.Code())
	}
}

func TestValidateRules(t *testing.T) {
	v := mustCompile(t, orderSchema)
	tests := []struct {
		name, instance, path, rule, msg string
	}{
		{"valid", `{"customer":"ann","items":[{"name":"pen","tags":["a","b"]}],"count":3,"priority":"high"}`, "", "", ""},
		{"root type", `[1,2]`, "", "type", "got array, want object"},
		{"property type", `{"customer":7,"items":[{"name":"x"}]}`, "/customer", "type", "got number, want string"},
		{"integer not number", `{"customer":"a","count":1.5,"items":[{"name":"x"}]}`, "/count", "type", "got number, want integer"},
		{"missing required", `{"items":[{"name":"x"}]}`, "", "required", `missing property "customer"`},
		{"missing several", `{}`, "", "required", `missing properties "customer", "items"`},
		{"enum", `{"customer":"a","priority":"urgent","items":[{"name":"x"}]}`, "/priority", "enum", `got "urgent", want one of "low", "normal", "high"`},
		{"minimum", `{"customer":"a","count":0,"items":[{"name":"x"}]}`, "/count", "minimum", "got 0, want >= 1"},
		{"maximum", `{"customer":"a","count":101,"items":[{"name":"x"}]}`, "/count", "maximum", "got 101, want <= 100"},
		{"minLength", `{"customer":"","items":[{"name":"x"}]}`, "/customer", "minLength", "got 0 characters, want at least 1"},
		{"minItems", `{"customer":"a","items":[]}`, "/items", "minItems", "got 0 items, want at least 1"},
		{"nested array item type", `{"customer":"a","items":[{"name":"x"},{"name":false}]}`, "/items/1/name", "type", "got boolean, want string"},
		{"nested array in array", `{"customer":"a","items":[{"name":"x","tags":["ok",3]}]}`, "/items/0/tags/1", "type", "got number, want string"},
		{"nested required", `{"customer":"a","items":[{"tags":[]}]}`, "/items/0", "required", `missing property "name"`},
		{"uniqueItems", `{"customer":"a","items":[{"name":"x","tags":["a","a"]}]}`, "/items/0/tags", "uniqueItems", "items 0 and 1 are equal"},
		{"additionalProperties root", `{"customer":"a","items":[{"name":"x"}],"colour":1}`, "", "additionalProperties", `unexpected property "colour" (allowed: "code", "count", "customer", "email", "items", "priority")`},
		{"additionalProperties nested", `{"customer":"a","items":[{"nmae":"x","name":"y"}]}`, "/items/0", "additionalProperties", `unexpected property "nmae" (allowed: "name", "tags")`},
		{"format asserted", `{"customer":"a","items":[{"name":"x"}],"email":"nope"}`, "/email", "format", `"nope" is not a valid email`},
		{"pattern", `{"customer":"a","items":[{"name":"x"}],"code":"ab"}`, "/code", "pattern", `"ab" does not match "^[A-Z]{3}$"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, v, tt.instance, tt.path, tt.rule, tt.msg)
		})
	}
}

func TestValidateDraftsAndRefs(t *testing.T) {
	draft07 := `{
	  "$schema": "http://json-schema.org/draft-07/schema#",
	  "definitions": {
	    "point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}
	  },
	  "type": "object",
	  "properties": {"path": {"type": "array", "items": {"$ref": "#/definitions/point"}}},
	  "required": ["path"]
	}`
	draft2020 := `{
	  "$schema": "https://json-schema.org/draft/2020-12/schema",
	  "$defs": {
	    "node": {"type": "object", "properties": {"id": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["id"]}
	  },
	  "$ref": "#/$defs/node"
	}`
	// No "$schema": prefixItems only means something in 2020-12.
	noSchema := `{"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}`
	tests := []struct {
		name, schema, instance, path, rule, msg string
	}{
		{"draft-07 valid", draft07, `{"path":[{"x":1,"y":2}]}`, "", "", ""},
		{"draft-07 definitions ref", draft07, `{"path":[{"x":1,"y":2},{"x":"1","y":2}]}`, "/path/1/x", "type", "got string, want number"},
		{"draft-07 ref required", draft07, `{"path":[{"x":1}]}`, "/path/0", "required", `missing property "y"`},
		{"2020-12 valid recursive", draft2020, `{"id":"a","children":[{"id":"b","children":[{"id":"c"}]}]}`, "", "", ""},
		{"2020-12 defs recursive ref", draft2020, `{"id":"a","children":[{"id":"b","children":[{"id":3}]}]}`, "/children/0/children/0/id", "type", "got number, want string"},
		{"default draft is 2020-12", noSchema, `["a", 1]`, "", "", ""},
		{"default draft prefixItems", noSchema, `["a", "b"]`, "/1", "type", "got string, want integer"},
		{"default draft items false", noSchema, `["a", 1, 2]`, "/2", "false", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, mustCompile(t, tt.schema), tt.instance, tt.path, tt.rule, tt.msg)
		})
	}
}

func TestValidateCombinators(t *testing.T) {
	schema := `{
	  "type": "object",
	  "properties": {
	    "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
	    "shape": {"oneOf": [
	      {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
	      {"type": "object", "properties": {"kind": {"const": "rect"}, "w": {"type": "number"}, "h": {"type": "number"}}, "required": ["kind", "w", "h"]}
	    ]},
	    "id": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]},
	    "list": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
	  }
	}`
	v := mustCompile(t, schema)
	tests := []struct {
		name, instance, path, rule, msg string
	}{
		{"anyOf valid null", `{"name":null}`, "", "", ""},
		{"anyOf type merged", `{"name":5}`, "/name", "type", "got number, want string or null"},
		{"oneOf valid", `{"shape":{"kind":"rect","w":1,"h":2}}`, "", "", ""},
		{"oneOf picks closest alternative", `{"shape":{"kind":"rect","w":1,"h":"2"}}`, "/shape/h", "type", "got string, want number"},
		{"oneOf discriminator picks alternative", `{"shape":{"kind":"rect","w":1}}`, "/shape", "required", `missing property "h"`},
		{"oneOf none match by type", `{"shape":"circle"}`, "/shape", "type", "got string, want object"},
		{"oneOf matches two", `{"id":3}`, "/id", "oneOf", "matches alternatives 0 and 1, want exactly one"},
		{"anyOf deeper alternative wins", `{"list":["a",2]}`, "/list/1", "type", "got number, want string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, v, tt.instance, tt.path, tt.rule, tt.msg)
		})
	}
}

func TestValidationErrorText(t *testing.T) {
	v := mustCompile(t, orderSchema)
	err := v.ValidateJSON([]byte(`{"customer":"a","items":[{"name":1}]}`))
	want := "invalid argument at /items/0/name: type: got number, want string"
	if err == nil || err.Error() != want {
		t.Fatalf("Error() = %v, want %q", err, want)
	}

	// Five failures: three are rendered, the rest counted.
	err = v.ValidateJSON([]byte(`{"count":"x","priority":1,"items":[{"name":1,"tags":[2]}]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %T", err)
	}
	if len(ve.Violations) != 5 {
		t.Fatalf("Violations = %v, want 5", ve.Violations)
	}
	want = `invalid argument at root: required: missing property "customer"; ` +
		`at /count: type: got string, want integer; at /items/0/name: type: got number, want string (and 2 more)`
	if err.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", err, want)
	}
}

func TestValidateMisc(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"n":{"type":"integer","multipleOf":5}}}`)

	// Values decoded without UseNumber validate too.
	var inst any
	if err := json.Unmarshal([]byte(`{"n":10}`), &inst); err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(inst); err != nil {
		t.Errorf("Validate(float64 value) = %v", err)
	}
	check(t, v, `{"n":7}`, "/n", "multipleOf", "got 7, want a multiple of 5")

	// Big integers stay exact with ValidateJSON.
	check(t, v, `{"n":100000000000000000005}`, "", "", "")
	check(t, v, `{"n":100000000000000000001}`, "/n", "multipleOf", "")

	// Malformed JSON and trailing data are reported as invalid arguments.
	for _, bad := range []string{`{"n":`, `{} {}`} {
		var ve *ValidationError
		if err := v.ValidateJSON([]byte(bad)); !errors.As(err, &ve) || ve.Rule != "json" {
			t.Errorf("ValidateJSON(%q) = %v, want rule json", bad, err)
		}
	}

	// A Go value that is not JSON data is reported, not panicked on.
	var ve *ValidationError
	if err := v.Validate(struct{ N int }{1}); !errors.As(err, &ve) || ve.Rule != "type" {
		t.Errorf("Validate(struct) = %v", err)
	}

	// JSON Pointer escaping of property names.
	v = mustCompile(t, `{"properties":{"a/b":{"properties":{"c~d":{"type":"string"}}}}}`)
	check(t, v, `{"a/b":{"c~d":1}}`, "/a~1b/c~0d", "type", "")
}

func TestValidateConcurrent(t *testing.T) {
	v := mustCompile(t, orderSchema)
	good := []byte(`{"customer":"a","items":[{"name":"x"}]}`)
	bad := []byte(`{"customer":"a","items":[{"name":2}]}`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if err := v.ValidateJSON(good); err != nil {
					t.Error(err)
					return
				}
				if err := v.ValidateJSON(bad); err == nil {
					t.Error("bad value accepted")
					return
				}
			}
		}()
	}
	wg.Wait()
}
