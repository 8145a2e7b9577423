package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"time"

	gschema "github.com/google/jsonschema-go/jsonschema"
)

// InferError reports a Go type that has no JSON Schema, such as a channel,
// a func, a map with non-string keys or a recursive type.
type InferError struct {
	// Type is the Go type that was asked for.
	Type string
	// Err is the underlying error.
	Err error
}

// Error renders the error as "cannot infer JSON schema for TYPE: REASON".
func (e *InferError) Error() string {
	return "cannot infer JSON schema for " + e.Type + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *InferError) Unwrap() error { return e.Err }

// For infers a JSON Schema from the Go type T. See [ForType].
func For[T any]() (json.RawMessage, error) {
	return ForType(reflect.TypeFor[T]())
}

// ForType infers a draft 2020-12 JSON Schema (without a "$schema" key;
// [Compile] defaults to 2020-12) from a Go type, for use as a tool's input
// or output schema. Errors are [*InferError].
//
// The mapping follows encoding/json:
//
//   - A struct is an object with "additionalProperties": false, so that a
//     misspelled argument is reported instead of silently dropped. Its
//     properties are the exported fields, named by their `json` tag; a
//     field tagged `json:"-"` is left out, embedded structs' fields are
//     promoted, and every field is required unless tagged omitempty or
//     omitzero.
//   - A field's description is its `jsonschema` tag, the whole tag being
//     the text: `jsonschema:"city name, e.g. Paris"`. The text must not
//     start with "WORD=" (reserved by the library).
//   - A pointer also allows null, except at the top level (tool arguments
//     are never null, so For[*Args] equals For[Args]).
//   - A slice is an array that also allows null (what a nil slice encodes
//     to); an array [N]T has exactly N items; []byte is a string (base64).
//   - A map with string (or encoding.TextMarshaler) keys is an object whose
//     "additionalProperties" is the value schema.
//   - Integers are "integer" (bounded for the sized kinds; unsigned ones
//     have minimum 0), floats "number", and time.Duration is an integer
//     count of nanoseconds, as encoding/json writes it.
//   - time.Time is a string with "format": "date-time", which [Compile]
//     asserts; big.Int/Rat/Float and slog.Level are strings, json.Number a
//     number, and interface types (any) and json.RawMessage accept any value.
//
// Channels, funcs, complex numbers, maps with other key types and recursive
// types are errors. Types with custom MarshalJSON methods other than those
// above are described by their Go kind, which may not match what they
// encode to: give such tools a hand-written schema instead.
func ForType(t reflect.Type) (json.RawMessage, error) {
	if t == nil {
		return nil, &InferError{Type: "<nil>", Err: errors.New("no type given")}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s, err := gschema.ForType(t, &gschema.ForOptions{TypeSchemas: typeSchemas()})
	if err != nil {
		return nil, &InferError{Type: t.String(), Err: err}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, &InferError{Type: t.String(), Err: err}
	}
	return raw, nil
}

// anyJSON lists every JSON type. Spelling "any value" out instead of using
// the empty schema keeps it intact when the library adds "null" for a
// pointer.
func anyJSON() []string {
	return []string{"null", "boolean", "number", "string", "array", "object"}
}

// typeSchemas returns the schemas of types whose JSON form differs from
// their Go kind. A fresh map is built per call: the library clones what it
// uses, but callers must not be able to share mutable schemas.
func typeSchemas() map[reflect.Type]*gschema.Schema {
	return map[reflect.Type]*gschema.Schema{
		reflect.TypeFor[time.Time]():       {Type: "string", Format: "date-time"},
		reflect.TypeFor[json.RawMessage](): {Types: anyJSON()},
		reflect.TypeFor[json.Number]():     {Type: "number"},
		reflect.TypeFor[[]byte]():          {Type: "string", ContentEncoding: "base64"},
	}
}
