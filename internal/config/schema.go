package config

import (
	_ "embed"
	"slices"
)

//go:embed modebox.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of modebox.json, for
// editors and other tools. It accepts and rejects the same documents as
// [Parse], except for checks a schema cannot express: duplicate keys,
// invalid UTF-8, sizes and durations written as strings that are too large
// or, not zero, below one byte or 1ns (including "memory" above 2GiB or
// below 512KiB written as a string), URLs that match
// the URL pattern but do not parse, and keys that must name another entry
// of the file (allowWrite keys, fetch header entries), header names given
// twice in another case, the syntax of allowlist entries, tool rules that
// would match no tool (a "tools." prefix, a built-in tool used as a
// namespace, a namespace that is a near miss of a configured server's
// name), a server's working directory that does not exist, and a token store URL whose query holds a
// password. The caller may modify the result.
func Schema() []byte { return slices.Clone(schemaJSON) }
