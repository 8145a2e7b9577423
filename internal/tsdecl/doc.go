// Package tsdecl renders a toolbox as TypeScript declarations.
//
// Programs that modebox runs call tools as async functions,
// tools.<namespace>.<name>(args) or tools.<name>(args). The model that
// writes them never sees JSON tool calls; it sees the toolbox as .d.ts
// text: a `declare const tools: {...}` object type whose methods take the
// tool's input type and return a promise of its output type, with named
// interfaces and type aliases for inputs, outputs and referenced
// definitions, and doc comments taken from the schemas.
//
// [Declarations] renders a whole toolbox, [Declaration] one tool (in the
// same form, so its text is valid TypeScript on its own), and [Signature]
// a compact one-line signature for search results.
//
// # Schemas
//
// Input and output types are derived from JSON Schemas as real MCP servers
// send them (draft-07, 2019-09 and 2020-12), as the toolbox's validator
// reads them (package schema): OpenAPI's "nullable" adds no null (the
// validator ignores it), and under a draft-07, -06 or -04 "$schema" a
// "$ref" stands alone (the keywords beside it are ignored):
// "type" (single or a list), objects with required and optional
// properties, "additionalProperties" and "patternProperties" (index
// signatures), arrays and tuples ("prefixItems" or a draft-07 "items"
// list), "enum" and "const" (literal types), "oneOf"/"anyOf" (unions),
// "allOf" (intersections), and local "$ref"s, which become named types
// (recursive references are fine). Annotations become doc comments:
// "description" (or "title"), "default", "format", numeric, string and
// array bounds, "pattern", "examples" and "deprecated".
//
// Rendering never fails on a schema construct it does not understand: such
// a schema, a reference outside the document, and anything nested deeper
// than a fixed limit, become `unknown`. Output is deterministic: tools are
// sorted by namespace and name, properties keep the order of the schema
// document.
package tsdecl
