package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
)

// runDescription is the model's manual for the run tool: what a program
// is, how it reaches tools, how to discover them, limits and errors, then
// the toolbox's compact index.
func (s *Server) runDescription() string {
	var b strings.Builder
	b.WriteString(`Run a JavaScript or TypeScript program in a sandbox. It calls tools as async functions and returns one result. Prefer one program that does the whole task (loops, filtering, Promise.all) over many tool calls, and return only what is needed.

Program: the body of an async function. ` + "`return`" + ` gives the result (JSON-serializable); top-level await works; TypeScript is accepted (types are stripped); a markdown code fence around it is fine. console.log/info/warn/error lines come back in "logs". The language is Node 22's: Intl and toLocaleString/localeCompare (CLDR, 18+ locales, IANA time zones; local time is UTC), crypto.randomUUID, TextEncoder/TextDecoder, iterator helpers, structuredClone; no URL, modules or Node APIs.

Tools: ` + "`await tools.<namespace>.<name>({...})`" + ` with one object argument; a namespace is also a global (` + "`await ns.name({...})`" + `). Names map to identifiers (` + "`get-sum`" + ` is ` + "`get_sum`" + `; ` + "`tools.ns[\"get-sum\"]`" + ` works too). Find tools and exact types: ` + "`return await tools.search(\"words\", {full: true})`" + ` (or the search and declarations tools). Run independent calls concurrently with Promise.all.

Limits: wall time, memory, number and concurrency of tool calls, and size of each value are capped; there is no network, file system or environment except through tools. Some tools need a person's approval: the call waits (or the run pauses) until it is given, and a refused call rejects with APPROVAL_DENIED.

Errors: a failed tool call rejects with an Error whose .code is TOOL_ERROR, TOOL_NOT_FOUND, INVALID_ARGUMENT, VALUE_TOO_LARGE, TOOL_DENIED, APPROVAL_DENIED or APPROVAL_UNAVAILABLE; catch it with try/catch. A run that fails is an error result with error {code, message, line, stack}; codes: SYNTAX_ERROR, UNCAUGHT_EXCEPTION, TIMEOUT, MEMORY_LIMIT, FUEL_EXHAUSTED, HOST_CALL_LIMIT, VALUE_TOO_LARGE, STACK_OVERFLOW, VALUE_NOT_SERIALIZABLE, NEVER_SETTLED, or a tool's code if uncaught.

Output: {status: "ok"|"error"|"paused", result, logs, error, stats}. `)
	fmt.Fprintf(&b, "The text form is cut after %d characters: filter, slice or summarize in the program.", s.opts.MaxResultText)
	if s.opts.ApproveTool {
		b.WriteString(` "paused" means calls wait for a person's approval: follow the result's "next".`)
	}
	b.WriteString("\n\nToolbox: ")
	b.WriteString(strings.TrimRight(s.eng.Index(), "\n"))
	return b.String()
}

const searchDescription = `Search the toolbox that run programs can call: ranks tools by name, description and parameter names and returns compact TypeScript signatures (key, signature, description), best first. full: true adds each hit's full declaration (argument and result types with doc comments). Inside a program the same is ` + "`await tools.search(query, {limit, full})`" + `.`

const declarationsDescription = `TypeScript declarations (.d.ts) of the toolbox that run programs can call: every tool under ` + "`tools`" + ` with its argument and result types and doc comments, and the namespaces that are also globals. namespace limits it to one namespace (as in tools.<namespace>); prefer search when you know what you are looking for.`

const approveDescription = `Resume a run that paused because some of its tool calls need a person's approval (a run result with status "paused", its "pending" calls and a "token"). Call this only after showing the pending calls to the user and getting their answer: decisions "approve" lets every pending call run, "deny" rejects them (the program sees APPROVAL_DENIED and goes on). The run continues where it stopped (no tool runs twice) and returns a run result. Each token works once.`

// Input and output schemas.
var (
	runInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "code": {"type": "string", "description": "The program: the body of an async function (JavaScript or TypeScript). Use return for the result."},
    "lang": {"type": "string", "enum": ["ts", "js"], "description": "Language; default ts, which accepts plain JavaScript too."}
  },
  "required": ["code"],
  "additionalProperties": false
}`)

	runOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "status": {"type": "string", "enum": ["ok", "error", "paused"]},
    "error": {"type": ["object", "null"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
    "pending": {"type": "array", "items": {"type": "object"}},
    "token": {"type": "string"},
    "next": {"type": "string"},
    "result": {},
    "files": {"type": "object", "description": "fs writes committed (and conflicts) when the run ended well", "properties": {"committed": {"type": "array", "items": {"type": "string"}}, "conflicts": {"type": "array", "items": {"type": "object"}}}},
    "logs": {"type": "array", "items": {"type": "object", "properties": {"level": {"type": "string"}, "message": {"type": "string"}}}},
    "logsDropped": {"type": "integer"},
    "stats": {"type": "object"}
  },
  "required": ["status"]
}`)

	searchInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "Words to look for: what the tool does, its name or its parameters."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Number of hits (default 5)."},
    "full": {"type": "boolean", "description": "Add each hit's full TypeScript declaration."}
  },
  "required": ["query"],
  "additionalProperties": false
}`)

	searchOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "hits": {"type": "array", "items": {"type": "object", "properties": {
      "key": {"type": "string"}, "signature": {"type": "string"}, "description": {"type": "string"},
      "declaration": {"type": "string"}, "score": {"type": "number"}}}}
  },
  "required": ["hits"]
}`)

	declarationsInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "namespace": {"type": "string", "description": "Only this namespace (as in tools.<namespace>); omit for the whole toolbox."}
  },
  "additionalProperties": false
}`)

	declarationsOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {"declarations": {"type": "string"}},
  "required": ["declarations"]
}`)

	approveInputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "token": {"type": "string", "description": "The token of the paused run result."},
    "decisions": {"type": "string", "enum": ["approve", "deny"], "description": "The user's answer for all pending calls."}
  },
  "required": ["token", "decisions"],
  "additionalProperties": false
}`)
)
