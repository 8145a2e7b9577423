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
