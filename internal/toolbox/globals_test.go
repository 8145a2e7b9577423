package toolbox

import (
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/policy"
)

// A namespace named like a global of the guest runtime is not declared a
// global (the prelude does not install it over the runtime's): the
// runtime's globals, as Object.getOwnPropertyNames(globalThis) lists them.
func TestRuntimeGlobalsAreNotNamespaceGlobals(t *testing.T) {
	runtime := strings.Fields(`Object Function Error EvalError RangeError ReferenceError SyntaxError TypeError
		URIError InternalError AggregateError Array parseInt parseFloat isNaN isFinite decodeURI decodeURIComponent
		encodeURI encodeURIComponent escape unescape Infinity NaN undefined __date_clock Number Boolean String Math
		Reflect Symbol eval globalThis Date RegExp JSON Proxy Map Set WeakMap WeakSet ArrayBuffer SharedArrayBuffer
		Uint8ClampedArray Int8Array Uint8Array Int16Array Uint16Array Int32Array Uint32Array BigInt64Array
		BigUint64Array Float32Array Float64Array DataView Promise BigInt Intl crypto Iterator URLSearchParams URL
		AbortController AbortSignal DOMException structuredClone btoa atob TextEncoder TextDecoder ToolError
		console setTimeout setInterval clearTimeout clearInterval queueMicrotask performance tools fetch fs sh`)
	for _, g := range runtime {
		box, err := New([]Tool{{Namespace: g, Name: "x", Handler: noop}}, nil, nil, policy.Flows{})
		if err != nil {
			continue // refused outright: not declared either
		}
		if box.IsGlobal(mapNamespace(g)) {
			t.Errorf("namespace %q is declared a global, shadowing the runtime's", g)
		}
	}
}

// A root tool named "then" (or another reserved member name) is renamed
// with a "_" like one in a namespace: tools must not become a thenable.
func TestRootReservedMemberRenamed(t *testing.T) {
	for _, name := range []string{"then", "constructor", "__proto__", "prototype"} {
		box, err := New([]Tool{{Name: name, Handler: noop}}, nil, nil, policy.Flows{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e := box.Tools()[0]
		if e.Key != name+"_" || e.alias() != "" {
			t.Errorf("%s: key %q alias %q", name, e.Key, e.alias())
		}
		if strings.Contains(string(box.Setup()), `"`+name+`"`) && !strings.Contains(string(box.Setup()), `"`+name+`_"`) {
			t.Errorf("%s: setup %s", name, box.Setup())
		}
	}
}

// A namespace named like a member of Object.prototype is not declared a
// global: globalThis inherits the member, and the prelude installs no
// global that is "in globalThis", so `toString.x()` would call the
// inherited function. The tool stays declared as tools.<ns>.
func TestPrototypeMembersAreNotNamespaceGlobals(t *testing.T) {
	for _, g := range strings.Fields(`toString hasOwnProperty valueOf constructor __proto__ isPrototypeOf
		propertyIsEnumerable toLocaleString __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__`) {
		box, err := New([]Tool{{Namespace: g, Name: "x", Handler: noop}}, nil, nil, policy.Flows{})
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		ns := mapNamespace(g)
		d, err := box.Declarations()
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if box.IsGlobal(ns) || strings.Contains(d, "declare const "+ns+":") || strings.Contains(string(box.Setup()), `"globals":["`) {
			t.Errorf("namespace %q is declared a global the prelude does not install:\n%s", g, d)
		}
		if !strings.Contains(d, "  "+ns+": {\n") {
			t.Errorf("namespace %q is not declared under tools:\n%s", g, d)
		}
	}
}
