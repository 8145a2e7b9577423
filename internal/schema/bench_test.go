package schema

import (
	"encoding/json"
	"testing"
)

const smallSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
    "sort": {"enum": ["asc", "desc"]},
    "tags": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["query"],
  "additionalProperties": false
}`

const smallValue = `{"query":"weather in paris","limit":10,"sort":"asc","tags":["a","b"]}`

// BenchmarkValidateSmallObject measures Validate on an already decoded
// typical tool argument object.
func BenchmarkValidateSmallObject(b *testing.B) {
	v := mustCompile(b, smallSchema)
	var inst any
	if err := json.Unmarshal([]byte(smallValue), &inst); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := v.Validate(inst); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateJSONSmallObject includes decoding the JSON text.
func BenchmarkValidateJSONSmallObject(b *testing.B) {
	v := mustCompile(b, smallSchema)
	data := []byte(smallValue)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateSmallObjectInvalid measures the failure path, which
// builds the error report.
func BenchmarkValidateSmallObjectInvalid(b *testing.B) {
	v := mustCompile(b, smallSchema)
	var inst any
	if err := json.Unmarshal([]byte(`{"query":"","limit":0,"sort":"up","x":1}`), &inst); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := v.Validate(inst); err == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkCompile measures compiling the small schema.
func BenchmarkCompile(b *testing.B) {
	raw := json.RawMessage(smallSchema)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// addSchema is the input schema inferred for a Go tool taking
// struct{ A, B float64 }: a simple schema (simple.go).
const addSchema = `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`

// BenchmarkValidateJSONToolArgs is one host call's argument check for
// such a tool: decode and validate {"a":..,"b":..}.
func BenchmarkValidateJSONToolArgs(b *testing.B) {
	v := mustCompile(b, addSchema)
	data := []byte(`{"a":41,"b":1}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
