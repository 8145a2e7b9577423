package integration_test

import (
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// Programs that tamper with the globals the bridge uses before calling
// tools: the bridge captured what it needs at init, so calls still reach
// the right tool with the right arguments, and results still come back.
func TestBridgeSurvivesTampering(t *testing.T) {
	e := newEngine(t, addTool, echoTool("ns", "echo"))
	cases := map[string]string{
		"JSON replaced": `JSON.stringify = () => '{"a":100,"b":100}'; JSON.parse = () => 42;
			return await tools.add({a: 1, b: 2})`,
		"Promise replaced": `const P = Promise; globalThis.Promise = function () { throw new Error("no") };
			return await tools.add({a: 1, b: 2})`,
		"prototype pollution": `Object.prototype.tool = "evil"; Object.prototype.args = {a: 9, b: 9};
			Array.prototype.push = () => { throw new Error("push") };
			Map.prototype.set = () => { throw new Error("set") };
			Object.defineProperty(Object.prototype, "resolve", {set() { throw new Error("setter") }, configurable: true});
			return await tools.add({a: 1, b: 2})`,
		"then hijacked": `Promise.prototype.then = function () { return this };
			return await tools.add({a: 1, b: 2})`,
		"Reflect and Function replaced": `Reflect.apply = () => 0; Function.prototype.call = () => 0; Function.prototype.apply = () => 0;
			return await tools.add({a: 1, b: 2})`,
		"tools object replaced": `const add = tools.add; globalThis.tools = {add: () => 99};
			return await add({a: 1, b: 2})`,
	}
	for name, code := range cases {
		r := run(t, e, code, modebox.RunOptions{Lang: "js"})
		if r.Error != nil || string(r.Value) != "3" {
			t.Errorf("%s: got %s %+v", name, r.Value, r.Error)
		}
	}
	// results of concurrent calls never cross: each gets its own
	r := run(t, e, `const rs = await Promise.all(Array.from({length: 50}, (_, i) => tools.add({a: i, b: 1000})));
		return rs.every((v, i) => v === i + 1000)`, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != "true" {
		t.Fatalf("concurrent: %s %+v", r.Value, r.Error)
	}
	// throwing non-Error values and hostile getters while the error is formatted
	for code, want := range map[string]string{
		`throw 42`: "42",
		`throw {toString() { throw new Error("x") }}`:                               "",
		`throw Object.defineProperty(new Error("m"), "stack", {get() { throw 1 }})`: "m",
		`throw Symbol("s")`:        "Symbol(s)",
		`throw "x".repeat(100000)`: "xxxx",
	} {
		r := run(t, e, code, modebox.RunOptions{Lang: "js"})
		if r.Error == nil || r.Error.Code != modebox.CodeUncaughtException || !strings.Contains(r.Error.Message, want) || len(r.Error.Message) > 20000 {
			t.Errorf("%s: %+v", code, r.Error)
		}
	}
}
