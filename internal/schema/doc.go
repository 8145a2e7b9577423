// Package schema compiles JSON Schemas for host tools, validates tool
// arguments against them, and infers schemas from Go types.
//
// Every modebox tool has an input JSON Schema (and optionally an output
// schema). Arguments written by the sandboxed program are checked with a
// [Validator] before the host tool runs; a failure is a [*ValidationError]
// whose text names the JSON path and the rule that failed, for example
//
//	invalid argument at /items/0/name: type: got number, want string
//
// so that the model that wrote the call can correct it.
//
// # Compiling
//
// [Compile] accepts schemas written for draft 2020-12 (the default when
// "$schema" is absent), 2019-09, draft-07 (with "definitions") and draft-04.
// A schema must be self-contained: "$ref"s may point only inside the schema
// document itself. References to other documents, whether URLs or file
// names, are never fetched; they make [Compile] fail with a [*CompileError].
// Known "format"s (date-time, email, uri, uuid, ...) are asserted for every
// draft. A "pattern" that Go's RE2 engine cannot compile (for example one
// using look-ahead) is not enforced rather than rejecting the whole schema;
// the tool itself still sees the value.
//
// A compiled [Validator] is immutable and safe for concurrent use.
//
// # Inferring
//
// [For] and [ForType] derive a draft 2020-12 schema from a Go type. See
// [ForType] for the mapping, including how descriptions are given with a
// `jsonschema:"..."` struct tag.
//
// # Libraries
//
// Validation uses github.com/santhosh-tekuri/jsonschema/v6, which reports
// every failure with its instance location and a typed error kind (from
// which [ValidationError.Rule] is taken). Inference uses
// github.com/google/jsonschema-go, whose For/ForType map Go types (json
// tags, omitempty, pointers) to schemas.
package schema
