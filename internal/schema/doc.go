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
// using look-ahead) is matched by a backtracking ECMAScript engine, each
// match bounded by [MaxPatternTime] (a match that times out is no match).
//
// # Limits
//
// Schemas of downstream MCP tools are untrusted. [Compile] refuses a
// document over [MaxSchemaBytes], with more than [MaxSchemaNodes]
// subschemas or taking longer than [MaxCompileTime], and one that needs
// more than a fixed budget of steps to check an empty object, array,
// string, number, boolean or null (the nested allOf-over-$ref shape whose
// work doubles per level). Every validation is bounded by
// [MaxValidationSteps] (subschemas applied, "uniqueItems" comparisons and
// the reading of the error tree for the report) and by its context
// ([Validator.ValidateContext]); a report renders only its first
// violations by path, however many there are, and a Validator decodes
// one value at a time.
// Numbers beyond [MaxNumberScale], in a schema or a value, are refused
// (the library cannot compare them), and a panic of the library becomes a
// [*PanicError] refusal instead of ending the process.
// What goes beyond a limit is a [*LimitError], code
// [codes.SchemaTooComplex].
//
// A compiled [Validator] is immutable and safe for concurrent use;
// validations of one Validator run one at a time.
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
