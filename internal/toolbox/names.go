package toolbox

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MapName maps a name from outside (an MCP tool name such as "get-sum",
// "create_issue" or "files.read", or a server name) to the JS identifier
// the guest uses: every non-ASCII character becomes "_u" and its code
// point in hex ("ü" is "_u00fc"), every other character than A–Z, a–z,
// 0–9, _ and $ becomes "_", and a leading digit gets a "_" in front (""
// becomes "_"). Tools of one namespace whose names map to the same
// identifier are renamed by [New] (see [Box.Warnings]); the original name
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

// SearchKey is the host-call key of tools.search, the toolbox's discovery
// function in the guest.
const SearchKey = "$search"

// reservedRoot are names under tools that the toolbox itself uses.
var reservedRoot = []string{"search"}

// jsGlobals are globals a namespace must not shadow (the guest runtime's
// own, every name of Object.getOwnPropertyNames(globalThis), the members
// of Object.prototype, which globalThis inherits, and reserved words);
// such a namespace is reachable only as tools.<ns>. It is the prelude's
// rule: it installs a namespace as a global only when `ns in globalThis`
// is false, which the inherited members make true.
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
		performance Intl crypto Iterator URL URLSearchParams AbortController AbortSignal DOMException
		WeakRef FinalizationRegistry Float16Array __date_clock sh fetch fs arguments async await break case catch class const continue debugger
		default delete do else enum export extends false finally for function if implements import in
		instanceof interface let new null package private protected public return static super switch
		this throw true try typeof var void while with yield
		toString toLocaleString valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable constructor
		__proto__ __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__`) {
		jsGlobals[g] = true
	}
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
// it. Every rename is a warning. base is each tool's mapped name before
// that suffix (js[i] unless renamed): a rule naming it applies to every
// tool renamed from it, so that a tool which takes the name does not take
// the rule away from the tool it was written for.
func assignNames(tools []Tool) (js, base []string, warnings []string) {
	js = make([]string, len(tools))
	type slot struct{ ns, js string }
	groups := map[slot][]int{}
	taken := map[slot]bool{}
	for i, t := range tools {
		m := MapName(t.Name)
		if reservedMember[m] {
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
	base = slices.Clone(js)
	keys := make([]slot, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b slot) int { return strings.Compare(a.ns+"."+a.js, b.ns+"."+b.js) })
	for _, k := range keys {
		idx := groups[k]
		if len(idx) < 2 || k.ns == "" {
			continue // root tools that clash are an error, reported by New
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
	return js, base, warnings
}
