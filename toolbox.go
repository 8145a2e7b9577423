package modebox

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/schema"
)

// MapName maps a name from outside (an MCP tool name such as "get-sum",
// "create_issue" or "files.read", or a server name) to the JS identifier
// the guest uses: every non-ASCII character becomes "_u" and its code
// point in hex ("ü" is "_u00fc"), every other character than A–Z, a–z,
// 0–9, _ and $ becomes "_", and a leading digit gets a "_" in front (""
// becomes "_"). Tools of one namespace whose names map to the same
// identifier are renamed by New (see [Engine.Warnings]); the original name
// stays reachable as a property (tools.ns["get-sum"]).
func MapName(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == '$':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		case r >= 0x80 && r != utf8.RuneError:
			fmt.Fprintf(&b, "_u%04x", r) // distinct names stay distinct
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// searchKey is the host-call key of tools.search, the toolbox's discovery
// function in the guest.
const searchKey = "$search"

// reservedRoot are names under tools that the toolbox itself uses.
var reservedRoot = []string{"search"}

// jsGlobals are globals a namespace must not shadow; such a namespace is
// reachable only as tools.<ns>.
var jsGlobals = map[string]bool{}

func init() {
	for _, g := range strings.Fields(`globalThis Object Function Array Number Boolean String Symbol BigInt
		Math JSON Date RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError
		InternalError AggregateError Promise Proxy Reflect Map Set WeakMap WeakSet ArrayBuffer
		SharedArrayBuffer DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array
		Int32Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array Atomics
		parseInt parseFloat isNaN isFinite decodeURI decodeURIComponent encodeURI encodeURIComponent
		escape unescape eval undefined NaN Infinity console tools ToolError setTimeout setInterval
		clearTimeout clearInterval queueMicrotask structuredClone atob btoa TextEncoder TextDecoder
		performance sh fetch fs arguments async await break case catch class const continue debugger
		default delete do else enum export extends false finally for function if implements import in
		instanceof interface let new null package private protected public return static super switch
		this throw true try typeof var void while with yield`) {
		jsGlobals[g] = true
	}
}

// entry is one tool in the toolbox.
type entry struct {
	Tool
	ns  string // mapped namespace
	js  string // mapped name
	key string // ns.js, or js
	// noAlias: the original name is another tool's mapped name (a renamed
	// duplicate), so it is not a property of its own
	noAlias bool
	input   *schema.Validator

	// built-in capabilities (sh, fetch, fs.*): not under tools, and with
	// hooks the Gate calls
	builtin bool
	// gate, when set, looks at a call's arguments before anything runs.
	gate func(args json.RawMessage) gateInfo
	// replay, when set, runs for a call served from the journal (to rebuild
	// run state such as staged writes).
	replay func(h *runHost, c engine.Call) error
}

// gateInfo is what a built-in's gate hook says about one call.
type gateInfo struct {
	// reject refuses the call before it runs.
	reject *ToolError
	// reason, when set, means the call needs approval.
	reason string
	// approvalKey is what "approve for the rest of the run" approves
	// (default: the tool's key).
	approvalKey string
	// source marks this call as a data-flow source; sourceName names it
	// in approval reasons (default: the tool's label).
	source     bool
	sourceName string
}

// label names a tool in messages: tools.<key>, or sh() for built-ins.
func (e *entry) label() string {
	if e.builtin {
		return e.key + "()"
	}
	return "tools." + e.key
}

// toolbox is the engine's set of tools, with the guest's setup JSON.
type toolbox struct {
	entries  []*entry
	builtins []*entry // sh, fetch, fs.*: reached by their own globals
	byKey    map[string]*entry
	globals  []string
	setup    []byte
	index    *searchIndex
	hash     string   // tool-set hash that tokens are bound to
	warnings []string // tools renamed because their names clash
}

type setupTool struct {
	Key   string   `json:"key"`
	Path  []string `json:"path"`
	Alias string   `json:"alias,omitempty"`
}

type setupJSON struct {
	Tools    []setupTool     `json:"tools"`
	Globals  []string        `json:"globals"`
	Search   bool            `json:"search"`
	Builtins map[string]bool `json:"builtins,omitempty"`
}

// reservedMember are tool names that must not become a property of a
// namespace object: "then" would make it a thenable (await tools.ns calls
// it), the others reach the object's prototype machinery. Such a tool is
// reachable as <name>_ only.
var reservedMember = map[string]bool{"then": true, "constructor": true, "__proto__": true, "prototype": true}

// mapNamespace is MapName for a namespace; a namespace that is a reserved
// name under tools ("search") gets a "_" after it.
func mapNamespace(ns string) string {
	m := MapName(ns)
	if slices.Contains(reservedRoot, m) {
		m += "_"
	}
	return m
}

// assignNames gives each tool its mapped name. Within a namespace, tools
// whose names map alike (get-data and get_data, a name listed twice) are
// renamed deterministically: sorted by original name, the tool whose name
// needs no mapping keeps the identifier, the others get _2, _3, … after
// it. Every rename is a warning.
func assignNames(tools []Tool) (js []string, warnings []string) {
	js = make([]string, len(tools))
	type slot struct{ ns, js string }
	groups := map[slot][]int{}
	taken := map[slot]bool{}
	for i, t := range tools {
		m := MapName(t.Name)
		if t.Namespace != "" && reservedMember[m] {
			m += "_"
		}
		js[i] = m
		k := slot{mapNamespace(t.Namespace), m}
		if t.Namespace == "" {
			k.ns = ""
		}
		groups[k] = append(groups[k], i)
		taken[k] = true
	}
	keys := make([]slot, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b slot) int { return strings.Compare(a.ns+"."+a.js, b.ns+"."+b.js) })
	for _, k := range keys {
		idx := groups[k]
		if len(idx) < 2 || k.ns == "" {
			continue // root tools that clash are an error, reported by newToolbox
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			ea, eb := tools[a].Name == k.js, tools[b].Name == k.js
			if ea != eb {
				if ea {
					return -1
				}
				return 1
			}
			return strings.Compare(tools[a].Name, tools[b].Name)
		})
		n := 2
		for _, i := range idx[1:] {
			for taken[slot{k.ns, fmt.Sprintf("%s_%d", k.js, n)}] {
				n++
			}
			name := fmt.Sprintf("%s_%d", k.js, n)
			taken[slot{k.ns, name}] = true
			js[i] = name
			warnings = append(warnings, fmt.Sprintf("tool %q of %q maps to the same name as %q; it is tools.%s.%s",
				tools[i].Name, tools[i].Namespace, tools[idx[0]].Name, k.ns, name))
		}
	}
	return js, warnings
}

func newToolbox(tools []Tool, builtins []*entry, policies map[string]Policy, flows Flows) (*toolbox, error) {
	rules, err := compilePolicies("EngineConfig.Policies", policies)
	if err != nil {
		return nil, err
	}
	fl := flows
	box := &toolbox{byKey: map[string]*entry{}}
	nsOriginal := map[string]string{} // mapped namespace -> original
	mapped, warnings := assignNames(tools)
	box.warnings = warnings
	for i, t := range tools {
		field := fmt.Sprintf("Tools[%d]", i)
		if t.Handler == nil {
			return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool %q has no handler", t.Name)}
		}
		switch t.Policy {
		case "":
			t.Policy = PolicyAllow
		case PolicyAllow, PolicyAsk, PolicyDeny:
		default:
			return nil, &ConfigError{Field: field + ".Policy", Reason: fmt.Sprintf("%q is not allow, ask or deny", t.Policy)}
		}
		e := &entry{Tool: t, js: mapped[i]}
		e.key = e.js
		if t.Namespace != "" {
			e.ns = mapNamespace(t.Namespace)
			e.key = e.ns + "." + e.js
			if prev, ok := nsOriginal[e.ns]; ok && prev != t.Namespace {
				return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("namespaces %q and %q both map to %q", prev, t.Namespace, e.ns)}
			}
			nsOriginal[e.ns] = t.Namespace
		} else if slices.Contains(reservedRoot, e.js) {
			return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool name %q is reserved (tools.%s is the toolbox's own); give the tool a namespace", t.Name, e.js)}
		}
		if prev, ok := box.byKey[e.key]; ok {
			return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tools %q and %q both map to tools.%s", prev.qualified(), e.qualified(), e.key)}
		}
		v, err := schema.Compile(t.InputSchema)
		if err != nil {
			return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool %q has an invalid input schema", t.Name), Err: err}
		}
		e.input = v
		e.Policy = rules.ForNames(e.Policy, e.key, e.original())
		e.Source = e.Source || fl.IsSource(e.key, e.original())
		e.Sink = e.Sink || fl.IsSink(e.key, e.original())
		box.byKey[e.key] = e
		box.entries = append(box.entries, e)
	}
	// a namespace must not also be a tool at the root, and an original
	// name (the alias) must not shadow another tool's mapped name
	for _, e := range box.entries {
		if e.ns != "" {
			if other, ok := box.byKey[e.ns]; ok {
				return nil, &ConfigError{Field: "Tools", Reason: fmt.Sprintf("tool %q clashes with the namespace of %q", other.qualified(), e.qualified())}
			}
		}
		if alias := e.alias(); alias != "" {
			k := alias
			if e.ns != "" {
				k = e.ns + "." + alias
			}
			if other, ok := box.byKey[k]; ok && other != e {
				if e.ns == "" {
					return nil, &ConfigError{Field: "Tools", Reason: fmt.Sprintf("the original name of %q is the name of %q", e.qualified(), other.qualified())}
				}
				e.noAlias = true
			}
		}
	}
	if err := checkRulesMatch(box.entries, policies, flows); err != nil {
		return nil, err
	}
	slices.SortFunc(box.entries, func(a, b *entry) int { return strings.Compare(a.key, b.key) })
	setup := setupJSON{Tools: []setupTool{}, Globals: []string{}, Search: true}
	for _, b := range builtins {
		if prev, ok := box.byKey[b.key]; ok {
			return nil, &ConfigError{Field: "Tools", Reason: fmt.Sprintf("tool %q takes the key %q of the built-in %s; give it a namespace", prev.qualified(), b.key, b.label())}
		}
		for _, e := range box.entries {
			if b.ns != "" && (e.ns == b.ns || e.key == b.ns) {
				return nil, &ConfigError{Field: "Tools", Reason: fmt.Sprintf("tool %q uses the name %q of the built-in %s; rename its namespace", e.qualified(), b.ns, b.ns)}
			}
		}
		b.Policy = rules.For(b.key, b.Policy)
		b.Source = b.Source || fl.IsSource(b.key)
		b.Sink = b.Sink || fl.IsSink(b.key)
		box.byKey[b.key] = b
		box.builtins = append(box.builtins, b)
		if setup.Builtins == nil {
			setup.Builtins = map[string]bool{}
		}
		root := b.key
		if b.ns != "" {
			root = b.ns
		}
		setup.Builtins[root] = true
	}
	slices.SortFunc(box.builtins, func(a, b *entry) int { return strings.Compare(a.key, b.key) })
	seenNS := map[string]bool{}
	for _, e := range box.entries {
		path := []string{e.js}
		if e.ns != "" {
			path = []string{e.ns, e.js}
			if !seenNS[e.ns] {
				seenNS[e.ns] = true
				if !jsGlobals[e.ns] {
					box.globals = append(box.globals, e.ns)
				}
			}
		}
		setup.Tools = append(setup.Tools, setupTool{Key: e.key, Path: path, Alias: e.alias()})
	}
	setup.Globals = append(setup.Globals, box.globals...)
	b, err := json.Marshal(setup)
	if err != nil {
		return nil, err
	}
	box.setup = b
	box.index = newSearchIndex(box)
	box.hash = toolsetHash(append(slices.Clone(box.entries), box.builtins...))
	return box, nil
}

// alias is the original name when it differs from the mapped one (and is
// not a reserved member name, nor the mapped name of another tool).
func (e *entry) alias() string {
	if e.Name != e.js && !e.noAlias && !(e.ns != "" && reservedMember[e.Name]) {
		return e.Name
	}
	return ""
}

// original is the name the user sees: the server's namespace and the tool's
// name as registered ("my-srv.get-sum").
func (e *entry) original() string {
	if e.Namespace != "" {
		return e.Namespace + "." + e.Name
	}
	return e.Name
}

func (e *entry) qualified() string {
	if e.Namespace != "" {
		return e.Namespace + "/" + e.Name
	}
	return e.Name
}

// Warnings lists what New changed about the tools it was given: tools of
// one namespace whose names map to the same identifier are renamed
// (deterministically) rather than refused, so that one server's names
// cannot stop the engine.
func (e *Engine) Warnings() []string { return slices.Clone(e.box.warnings) }

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
	out := make([]ToolInfo, 0, len(e.box.entries))
	for _, t := range e.box.entries {
		out = append(out, ToolInfo{
			Key: t.key, Namespace: t.Namespace, Name: t.Name,
			Global:      t.ns != "" && slices.Contains(e.box.globals, t.ns),
			Description: t.Description, Policy: t.Policy, Source: t.Source, Sink: t.Sink,
			InputSchema: t.InputSchema,
		})
	}
	return out
}
