package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/modebox/modebox/internal/codes"
)

// runDescription is the model's manual for the run tool, then the
// toolbox's index. It says once each thing a model needs to write its
// first program: the program's shape, how to call and find tools, how a
// failure looks and that output is cut. What it needs only sometimes (every
// error code, how values convert, the limits) is in reference, which the
// search tool returns with declarations. docs/benchmarks.md has the sizes.
func (s *Server) runDescription() string {
	var b strings.Builder
	b.WriteString("Runs a JavaScript/TypeScript program in a sandbox. Do a whole task in one program (loops, filtering, Promise.all); return only what is needed.\n" +
		"Code: an async function body; `return` a JSON value; console.log goes to logs.\n" +
		"Tools (listed below): `await tools.ns.name({...})`; `return await tools.search(\"words\")` gives their signatures, {full: true} their types.\n" +
		"A failed call throws an Error with .code; uncaught, it fails the run (status \"error\"). No network, files or env except through tools. ")
	fmt.Fprintf(&b, "Output past %d characters is cut.", s.opts.MaxResultText)
	if s.opts.ApproveTool {
		b.WriteString(` Status "paused": follow its "next".`)
	}
	b.WriteString("\n")
	b.WriteString(strings.TrimRight(s.eng.Index(), "\n"))
	return b.String()
}

// searchDescription is the search tool's: it does what tools.search does
// in a program, and serves declarations too.
const searchDescription = `Finds tools for run programs. query: the best signatures (full: with types), in namespace if given. No query: the TypeScript declarations of namespace (or of all) and the error codes.`

// reference is what the model needs only sometimes, with the engine's
// limits and every error code it can meet; the search tool puts it before
// declarations. It reads as TypeScript.
func (s *Server) reference() string {
	l := s.eng.Limits()
	limits := fmt.Sprintf(" * Limits: %s wall time, %s of memory, %d tool calls, %d at once, %s a value, %s of logs, %d clock readings, %d timers",
		l.Timeout, size(l.Memory), l.MaxCalls, l.MaxConcurrency, size(int64(l.MaxValue)), size(int64(l.MaxLog)), l.MaxClockReads, l.MaxTimers)
	if l.Fuel > 0 {
		limits += fmt.Sprintf(", %d fuel (about 10,000 branches each)", l.Fuel)
	}
	r := strings.Replace(referenceText, " * Limits.\n", limits+".\n", 1)
	return strings.Replace(r, "Error codes.\n", errorCodes(), 1)
}

// size writes n bytes as KiB or MiB when it is a whole number of them.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// referenceText is reference before the limits and the error codes are
// filled in.
const referenceText = `/**
 * A failed tool call rejects with a ToolError whose code is one of the
 * error codes below (or the tool's own). Uncaught, it fails the run with
 * that code. A run that fails has error {code, message, line, stack}.
 * Limits.
 * Values cross as JSON: undefined and functions are dropped (null in an
 * array), NaN and Infinity become null, a BigInt a decimal string, a Date
 * its ISO string, a Map an object, a Set an array; a tool's empty result is
 * undefined.
 * The language is Node 22's: Intl and toLocaleString/localeCompare (CLDR,
 * IANA time zones; local time is UTC), crypto.randomUUID, URL and
 * URLSearchParams, TextEncoder/TextDecoder, iterator helpers,
 * structuredClone, the RegExp d flag; no modules or Node APIs.
 */
interface ToolError extends Error { name: "ToolError"; code: string; tool: string }
` + "Error codes.\n\n"

// errorCodes is the reference's list of the error codes a model can meet,
// by area, each with the first sentence of its description: generated
// from the codes registry, so that a new code is in the manual the moment
// it exists. The HTTP handler's and the token store's codes are left out:
// they reach HTTP clients and operators, never a program or the model.
var errorCodes = sync.OnceValue(func() string {
	var b strings.Builder
	b.WriteString("/**\n * Error codes (a rejected call's e.code, a failed run's error.code), by where they come from:\n")
	for _, a := range codes.Areas() {
		if !a.ModelSees() {
			continue
		}
		fmt.Fprintf(&b, " * %s: %s\n", a, a.Doc())
		for _, i := range codes.All() {
			if i.Area == a {
				fmt.Fprintf(&b, " *   %s: %s\n", i.Code, i.Summary)
			}
		}
	}
	b.WriteString(" */\n")
	return b.String()
})

const approveDescription = `Resumes a run that paused (status "paused") for a person's approval of its pending calls. Call it only after showing them to the user and getting their answer: "approve" runs every pending call, "deny" rejects them (APPROVAL_DENIED). The run goes on where it stopped and returns a run result. A token works once.`

// Input schemas. The tools have no output schemas: structuredContent is
// the text's JSON, and the model reads the text.
var (
	runInputSchema = json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}`)

	searchInputSchema = json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"namespace":{"type":"string"},"full":{"type":"boolean"},"limit":{"type":"integer"}}}`)

	approveInputSchema = json.RawMessage(`{"type":"object","properties":{"token":{"type":"string"},"decisions":{"enum":["approve","deny"]}},"required":["token","decisions"]}`)
)
