// Package config finds, parses and validates modebox.json, the one file
// that configures modebox: run limits, tool policies, information flows,
// downstream MCP servers and the built-in sh, fetch and fs tools.
//
// [Find] locates the file (--config, then $MODEBOX_CONFIG, then
// ./modebox.json; no file means [Default]), [Load] reads it and [Parse]
// checks it and returns a [*Config]. The format is documented in
// docs/configuration.md; [Schema] returns the same rules as a JSON Schema
// for editors, and [Starter] a starter file for "modebox init".
//
// # Strictness
//
// The file is strict JSON: no comments, no trailing commas, no duplicate
// keys. Unknown keys are errors at every level, except inside the
// "shell", "fetch", "fs" and "mcp" sections, which are kept as raw JSON
// objects for their own features to check.
//
// # Errors
//
// Every error is an [*Error] naming the file and, for problems with a
// value, its JSON Pointer (RFC 6901) such as "/tools/github.*/policy";
// syntax errors carry the line and column of the offending byte. Unknown
// keys and misspelt values get a "did you mean" from the edit distance to
// the allowed ones. Parsing stops at the first problem: duplicate keys are
// looked for first, then the document is checked in order.
//
// # Tool patterns
//
// Keys of "tools" and the entries of "flows" are tool patterns: a tool key
// such as "github.get_issue", "fs.read" or "sh", with "*" matching any run
// of characters (see [Match]). When several "tools" patterns match a tool,
// [Config.RuleFor] picks the most specific one.
package config
