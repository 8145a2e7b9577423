package engine

import "testing"

// An object literal's shapes keep their parents (patch y6), so the cycle
// collector must see a shape's parent as its child: a class's instances,
// whose shapes hold the class prototype, in a cycle with that prototype
// are garbage once unreachable. Each round leaves ~80 KB in such a cycle;
// 600 rounds would hold ~48 MB if the cycles were never freed, well over
// the 24 MB cap, which the run must stay under.
func TestLiteralShapeCyclesCollected(t *testing.T) {
	src := `
let n = 0;
for (let k = 0; k < 600; k++) {
  const C = new Function('return class C { a = 1; b = 2; c = 3; self = this; }')();
  const i1 = new C(), i2 = new C();
  C.prototype.keep = i1; C.inst = i2; i1.big = new Array(10000).fill(k);
  n += i2.a + i1.c;
}
return n;`
	res := runJS(t, src, Limits{Memory: 24 << 20}, nil)
	if res.Err != nil {
		t.Fatalf("%s: %s", res.Err.Code, res.Err.Message)
	}
	if got := string(res.Value); got != "2400" {
		t.Fatalf("result %s, want 2400", got)
	}
}

// A shape whose last object is gone is kept for the next object with the
// same properties (patch zm8) when its prototype is a snapshot object.
// The attacks on that: objects with such shapes in cycles, which only the
// cycle collector frees (it must free their shapes, not keep them: ~20 MB
// of cycles under an 8 MB cap, so it has to run many times), more kinds
// of literal than are kept (the oldest are freed while objects may still
// have them), and objects whose kept shape changes (a delete, a property
// added). The expected values are Node 22's.
func TestKeptShapes(t *testing.T) {
	src := `
let total = 0;
for (let k = 0; k < 20000; k++) {
  const o = { a: k, b: 'x'.repeat(1000) + k };
  o.self = o;
  total += o.a;
}
const kinds = [];
for (let k = 0; k < 40; k++) kinds.push(new Function('k', 'return { p' + k + ': k, q: k + 1 };'));
let s = 0;
const seen = [];
for (let r = 0; r < 50; r++) {
  for (let k = 0; k < 40; k++) {
    const o = kinds[k](r);
    s += o['p' + k] + o.q;
    if (r % 2) { delete o.q; o.z = r; }
    if (r === 49 && k % 10 === 0) seen.push(JSON.stringify(o));
  }
}
const held = [];
for (let r = 0; r < 100; r++) held.push({ a: r, b: r + 1 });
for (const h of held) h.c = h.a + h.b;
return [total, s, seen, held[99], Object.keys(held[3]).join(), JSON.stringify({ b: 2, a: 1 })];`
	const want = `[199990000,100000,["{\"p0\":49,\"z\":49}","{\"p10\":49,\"z\":49}","{\"p20\":49,\"z\":49}","{\"p30\":49,\"z\":49}"],{"a":99,"b":100,"c":199},"a,b,c","{\"b\":2,\"a\":1}"]`
	for i := range 3 { // the second and third run on instances reset after one
		res := runJS(t, src, Limits{Memory: 8 << 20}, nil)
		if res.Err != nil {
			t.Fatalf("run %d: %s: %s", i, res.Err.Code, res.Err.Message)
		}
		if got := string(res.Value); got != want {
			t.Fatalf("run %d: result\n%s\nwant\n%s", i, got, want)
		}
	}
}
