package modebox

import (
	"encoding/json"

	"github.com/modebox/modebox/internal/toolbox"
)

// MapName maps a name from outside (an MCP tool name such as "get-sum",
// "create_issue" or "files.read", or a server name) to the JS identifier
// the guest uses: every non-ASCII character becomes "_u" and its code
// point in hex ("ü" is "_u00fc"), every other character than A–Z, a–z,
// 0–9, _ and $ becomes "_", and a leading digit gets a "_" in front (""
// becomes "_"). Tools of one namespace whose names map to the same
// identifier are renamed by New (see [Engine.Warnings]); the original name
// stays reachable as a property (tools.ns["get-sum"]).
func MapName(name string) string { return toolbox.MapName(name) }

// Warnings lists what New changed about the tools it was given: tools of
// one namespace whose names map to the same identifier are renamed
// (deterministically) rather than refused, so that one server's names
// cannot stop the engine.
func (e *Engine) Warnings() []string { return e.box.Warnings() }

// ToolInfo describes a tool of an engine's toolbox.
type ToolInfo struct {
	// Key is how the guest reaches it: tools.<Key>.
	Key string `json:"key"`
	// Namespace and Name are as registered (before mapping).
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Global is true when the namespace is also a JS global.
	Global      bool            `json:"global,omitempty"`
	Description string          `json:"description,omitempty"`
	Policy      Policy          `json:"policy"`
	Source      bool            `json:"source,omitempty"`
	Sink        bool            `json:"sink,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// Tools lists the toolbox, sorted by key.
func (e *Engine) Tools() []ToolInfo {
	out := make([]ToolInfo, 0, len(e.box.Tools()))
	for _, t := range e.box.Tools() {
		out = append(out, ToolInfo{
			Key: t.Key, Namespace: t.Namespace, Name: t.Name,
			Global:      e.box.IsGlobal(t.NS),
			Description: t.Description, Policy: t.Policy, Source: t.Source, Sink: t.Sink,
			InputSchema: t.InputSchema,
		})
	}
	return out
}

// SearchHit is one tool found by Search: its Key (tools.<Key>), a compact
// one-line TypeScript Signature, its Description up to the first
// sentence, the full Declaration when asked for, and its Score (BM25 with
// field weights; higher is better).
type SearchHit = toolbox.Hit

// SearchOptions tune Search: Limit is the most hits (default 5, at most
// 50), and Full adds each hit's full TypeScript declaration.
type SearchOptions = toolbox.SearchOptions

// Search ranks the toolbox's tools for a query over names, descriptions
// and parameter names, best first. Denied tools are never returned.
func (e *Engine) Search(query string, opts SearchOptions) []SearchHit {
	return e.box.Search(query, opts)
}

// Declarations returns TypeScript declarations (.d.ts text) for the whole
// toolbox: every callable tool with its input and output types and doc
// comments, tools.search, the namespaces that are also globals and the
// enabled built-ins. Denied tools are left out: the model should not plan
// with them.
func (e *Engine) Declarations() (string, error) { return e.box.Declarations() }

// IndexBudget is the most bytes Index takes. While every tool's name fits,
// it lists them all: 1,500 bytes is about 80 tools of typical names (the
// captured npm reference servers' 36 tools take 681, with the github
// server's 62 take 1,178); past that, it is about 30 namespaces with a
// tool each. docs/benchmarks.md has the measurements it comes from.
const IndexBudget = toolbox.IndexBudget

// Index returns a compact index of the toolbox for a model's context, at
// most IndexBudget bytes plus a line for the built-ins. While it fits it
// lists every callable tool, one line per namespace ("filesystem:
// read_file, write_file"). Past that it lists each namespace with its
// count and its most representative tools, as many per namespace as fit;
// past even that, namespaces and counts, largest first, as many as fit.
// Namespaces with the same tools share a line ("github, gitea (26 each):
// ..."). So it grows with the number of namespaces, not of tools, and
// tools.search(query) finds the rest. It says nothing about how to call
// tools: that is the caller's manual.
func (e *Engine) Index() string { return e.box.Index() }
