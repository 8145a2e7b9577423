// Package mcpclient connects modebox to the downstream MCP servers listed
// under "mcpServers" in modebox.json and turns their tools into calls the
// engine can make on behalf of a sandboxed program.
//
// A [Manager] owns one connection per enabled server: a child process spoken
// to over stdio (the first process of its own PID namespace where the
// system allows it, so that what it starts dies with it, and in its own
// process group, with a minimal environment of PATH, HOME and the
// configured env) or a Streamable HTTP endpoint (with the configured
// headers, sent only to the configured origin: redirects elsewhere are
// refused; Type "sse" selects the legacy SSE transport). [Manager.Start]
// connects to all of them in parallel and lists their tools; a server that
// does not come up is reported by [Manager.Failures] and the others keep
// working.
//
// The client does not advertise the roots capability (server-filesystem
// would otherwise replace its allowed directories with the client's roots),
// never sends "arguments": null, and advertises elicitation (form mode)
// only when [Options.Elicitor] is set.
//
// # Results
//
// [Manager.Call] converts a tools/call result into one JSON value for the
// sandbox, by this rule:
//
//  1. isError true: no value; the error is a [*ToolError] whose Message is
//     the text blocks joined by newlines.
//  2. structuredContent present: that value, as the server sent it.
//  3. exactly one content block, of type "text": that text as a JSON string.
//  4. otherwise: {"content": [block, ...]}, each block in its MCP wire
//     shape: {"type":"text","text":…}, {"type":"image","mimeType":…,
//     "data":"<base64>"}, {"type":"audio",…}, {"type":"resource_link",
//     "uri":…,…} or {"type":"resource","resource":{"uri":…,"text"|"blob":…}}.
//     Zero blocks give {"content": []}.
//
// Text is never parsed: a text block holding JSON stays a string. Results
// are data from an untrusted server, never instructions.
//
// # Output schemas
//
// A tool's outputSchema is compiled once, when the tools are listed, by
// modebox's validator with the limits of input schemas ([Tool].Output). A
// schema that does not compile or is over those limits is dropped: the
// tool has no output type (its OutputSchema is nil, so no result type is
// declared to programs), its results are passed on unchecked, and
// [Tool].OutputErr says why. For a tool with an output schema, a result
// that is not isError must have structuredContent (the MCP specification
// requires it; rules 3 and 4 above are not applied) that conforms to the
// schema; otherwise the call fails with a [*ToolError] ("structuredContent
// does not match the tool's output schema: at /n: type: got string, want
// number", at most three violations, 1000 bytes). A conforming result is
// the same value, byte for byte, as without a schema. An isError result is
// not checked.
//
// # Failures
//
// Errors are typed: [*ServerError] (a server that is not configured, did
// not start, exited or lost its connection; with the tail of its stderr),
// [*ToolError] (the server answered the call with isError or a JSON-RPC
// error, or its result does not conform to the tool's output schema) and [*TimeoutError] (the per-call timeout ran out). When the
// caller's own context ends first, Call returns the context's error.
//
// # Hostile servers
//
// A server is untrusted. Every message it sends is capped at
// [MaxMessageSize] while it is read (a stdio line, an HTTP body, one event
// of an event stream); its listing is capped ([MaxTools],
// [MaxToolNameLength], [MaxToolSchemaSize], [MaxDescriptionLength]; a tool
// listed twice keeps its first listing) and what goes beyond is reported by
// [Manager.Skipped]; its start is bounded by its own timeout (at least
// [MinStartTimeout]) when that is shorter than the start timeout.
//
// Every call sends a progress token of its own. An elicitation is
// attributed to the call whose token it names in its _meta
// ("progressToken"), or whose JSON-RPC id it names under
// [RelatedRequestKey] (stdio); one that names neither is attributed to the
// one call in flight to the server. The [Elicitor] gets a context carrying
// that call's values. An elicitation naming no call in flight, or naming
// none while several calls are in flight, is declined, as are URL-mode
// requests and those beyond [MaxElicitationsPerCall].
//
// A stdio server's messages are read one line (at most [MaxMessageSize])
// at a time into one buffer of the line's size; a line of 1 MiB or more
// waits for the process-wide [ResultBudget] before it is decoded, and
// holds it until its result is converted. A result of one text block is
// converted straight from the line (plain text: the line's own bytes),
// without the SDK's decoding; any other message is decoded by the SDK.
//
// The per-call timeout does not run out while the server waits for an
// answer from the [Elicitor] to one of the call's elicitations (a human
// may be slow); the call then has at least the full timeout after the
// answer. A server that is restarted
// within a call does so inside the call's timeout.
//
// When a stdio server dies, the calls in flight fail with a *ServerError
// "exited"; the next call restarts it, waiting first for a backoff that
// starts at 0.5s after the crash and doubles with each consecutive failure
// up to 30s (a successful call resets it). If the backoff is longer than
// the call's remaining time, the call fails at once with a *ServerError.
package mcpclient
