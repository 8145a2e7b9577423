package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/modebox/modebox/internal/jsongen"
)

// jsonFastProgram generates values in the guest (seeded, so a failure
// repeats) and compares JSON.stringify's fast path for plain data with
// the full algorithm, which an identity replacer forces: the text, or the
// exception, must be the same. It returns the first differences.
const jsonFastProgram = `
let seed = __SEED__ >>> 0;
function rnd(n) { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; }
const strs = ["", "a", "\u0000", "\u001f", "\"", "\\", "/", "<&>", "\u2028\u2029", "\ud800", "\udc00x", "\ud83d\ude00",
  "\udbff\udfff", "é", "\u00ff\u0100", "\t\n\r\b\f\u000b", "toJSON", "__proto__", "constructor", "0", "1", "4294967294",
  "4294967295", "-1", "01", "1.5", "x".repeat(300), "\ud800\ud800\udc00", "日本語"];
function str() {
  if (rnd(3) === 0) {
    let s = "";
    const n = rnd(12);
    for (let i = 0; i < n; i++) s += String.fromCharCode(rnd(4) === 0 ? rnd(0x10000) : rnd(4) === 0 ? rnd(0x100) : 32 + rnd(95));
    return s;
  }
  return strs[rnd(strs.length)];
}
const nums = [0, -0, 1, -1, 0.1, 1.5, -2.25, 1e21, 1e-7, 123456789012345680000, 5e-324, -5e-324, 1.7976931348623157e308,
  2**31, -(2**31), 2**31 - 1, 2**53, 2**53 + 2, NaN, Infinity, -Infinity, 0.30000000000000004, 100, 1e300 * 10];
function num() {
  switch (rnd(4)) {
    case 0: return nums[rnd(nums.length)];
    case 1: return rnd(2000000) - 1000000;
    case 2: { const b = new Float64Array(1); const u = new Uint32Array(b.buffer); u[0] = rnd(1 << 24) * 256 + rnd(256); u[1] = rnd(1 << 24) * 256 + rnd(256); return b[0]; }
    default: return (rnd(1000000) - 500000) / (1 + rnd(1000));
  }
}
class K { constructor() { this.k = 1; } }
function leaf() {
  switch (rnd(16)) {
    case 0: return null;
    case 1: return true;
    case 2: return false;
    case 3: return undefined;
    case 4: return Symbol("s");
    case 5: return function f() {};
    case 6: return rnd(8) === 0 ? 10n : num();
    case 7: return rnd(20) === 0 ? new Date(0) : num();
    case 8: return rnd(20) === 0 ? new Map([[1, 2]]) : str();
    case 9: return rnd(20) === 0 ? new Number(3) : str();
    case 10: return rnd(20) === 0 ? new String("w") : num();
    case 11: return rnd(20) === 0 ? new K() : str();
    default: return rnd(2) ? str() : num();
  }
}
function val(depth) {
  if (depth > 5 || rnd(3) === 0) return leaf();
  if (rnd(2)) {
    const a = [];
    const n = rnd(6);
    for (let i = 0; i < n; i++) a.push(val(depth + 1));
    switch (rnd(12)) {
      case 0: a.length = n + 2; break;            // holes at the end
      case 1: if (n > 2) delete a[1]; break;       // a hole
      case 2: a.extra = 1; break;                  // an extra property
      case 3: a.toJSON = () => "own"; break;
      case 4: a[n + 3] = 1; break;                 // sparse
      case 5: Object.defineProperty(a, "toJSON", { value: () => "hidden", enumerable: false }); break;
      case 6: Object.setPrototypeOf(a, Object.assign(Object.create(Array.prototype), { toJSON() { return "arr proto"; } })); break;
    }
    return a;
  }
  const o = rnd(15) === 0 ? Object.create(null) : {};
  const n = rnd(6);
  for (let i = 0; i < n; i++) o[str()] = val(depth + 1);
  switch (rnd(14)) {
    case 0: { const k = Object.keys(o); if (k.length) delete o[k[0]]; break; }
    case 1: Object.defineProperty(o, "hidden", { value: 1, enumerable: false }); break;
    case 2: Object.defineProperty(o, "got", { get() { return 7; }, enumerable: true }); break;
    case 3: o[Symbol("k")] = 1; break;
    case 4: o[rnd(5)] = "n"; break;
    case 5: o.toJSON = function (k) { return "j" + k; }; break;
    case 6: Object.freeze(o); break;
    case 7: Object.setPrototypeOf(o, { inherited: 1 }); break;
    case 8: Object.defineProperty(o, "toJSON", { value: () => "hidden toJSON", enumerable: false }); break;
    case 9: Object.setPrototypeOf(o, { toJSON() { return "proto"; } }); break;
    case 10: Object.defineProperty(o, "hiddenGetter", { get() { throw new Error("read"); }, enumerable: false }); break;
  }
  return o;
}
const gaps = [undefined, null, 0, 1, 2, 10, 11, -1, 3.7, NaN, "", " ", "\t", "--", "abcdefghijkl", "é", "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00", true];
const id = function (k, v) { return v; };
function both(f) { try { return "ok " + f(); } catch (e) { return "throws " + e.name + ": " + e.message; } }
const bad = [];
let count = 0;
for (let i = 0; i < __N__ && bad.length < 5; i++) {
  const v = val(0);
  const gap = rnd(3) === 0 ? gaps[rnd(gaps.length)] : undefined;
  const poke = rnd(40);
  if (poke === 0) Object.prototype.toJSON = function () { return "P"; };
  if (poke === 1) Array.prototype.toJSON = function () { return "A"; };
  const fast = both(() => JSON.stringify(v, undefined, gap));
  const full = both(() => JSON.stringify(v, id, gap));
  const viaNull = both(() => JSON.stringify(v, null, gap));
  delete Object.prototype.toJSON;
  delete Array.prototype.toJSON;
  count++;
  if (fast !== full || viaNull !== full) bad.push({ i, fast, full, viaNull });
}
// deep nesting and cycles go to the full algorithm
let deep = 1;
for (let i = 0; i < 200; i++) deep = [deep];
const cyc = { a: [1] }; cyc.a.push(cyc);
for (const v of [deep, cyc, { x: { y: deep } }]) {
  const fast = both(() => JSON.stringify(v)), full = both(() => JSON.stringify(v, id));
  if (fast !== full) bad.push({ fast: fast.slice(0, 200), full: full.slice(0, 200) });
}
return { count, bad };
`

func TestJSONStringifyFastPathIsTheFullAlgorithm(t *testing.T) {
	for _, seed := range []int{1, 2, 3, 4} {
		src := strings.NewReplacer("__SEED__", fmt.Sprint(seed), "__N__", "3000").Replace(jsonFastProgram)
		res := runJS(t, src, Limits{Memory: 256 << 20}, nil)
		if res.Err != nil {
			t.Fatalf("seed %d: %s: %s", seed, res.Err.Code, res.Err.Message)
		}
		var out struct {
			Count int
			Bad   []json.RawMessage
		}
		if err := json.Unmarshal(res.Value, &out); err != nil {
			t.Fatal(err)
		}
		if out.Count != 3000 || len(out.Bad) > 0 {
			t.Fatalf("seed %d: %d values, differences: %s", seed, out.Count, res.Value)
		}
	}
}

// Values generated on the Go side (every JSON type, every Unicode plane,
// lone surrogates, & < > " \ NUL, deep nesting, large strings) parsed in
// the guest and stringified back, with and without a gap, by the fast path
// and by the full algorithm.
func TestJSONStringifyFastPathGenerated(t *testing.T) {
	g := jsongen.New(19)
	for i := 0; i < 60; i++ {
		v := g.Any()
		src := `const v = (` + v.Source + `); const id = (k, x) => x;
const out = [];
for (const g of [undefined, 2, "\t"]) {
  const a = JSON.stringify(v, null, g), b = JSON.stringify(v, id, g);
  if (a !== b) out.push([g, a.length, b.length]);
}
if (JSON.stringify(JSON.parse(JSON.stringify(v))) !== JSON.stringify(v)) out.push("round trip");
return out;`
		res := runJS(t, src, Limits{Memory: 256 << 20}, nil)
		if res.Err != nil {
			t.Fatalf("value %d: %s: %s", i, res.Err.Code, res.Err.Message)
		}
		if string(res.Value) != "[]" {
			t.Fatalf("value %d: differences %s", i, res.Value)
		}
	}
}

// echoHost answers every call with its arguments and keeps them.
type echoHost struct {
	mu   sync.Mutex
	args []string
}

func (*echoHost) Gate(Call, bool) Verdict { return Verdict{} }

func (h *echoHost) Call(_ context.Context, c Call) (json.RawMessage, error) {
	h.mu.Lock()
	h.args = append(h.args, string(c.Args))
	h.mu.Unlock()
	return c.Args, nil
}

// The arguments of a host call are the same text whether the fast path
// or the boundary's replacer encoded them: each value is sent twice, once
// as it is and once wrapped in a Map (which takes the replacer path), and
// the host sees the same JSON inside.
func TestHostCallArgumentsFastPath(t *testing.T) {
	src := `
const vals = [{a: 1, b: [true, null, "x\u2028\ud800"], c: {d: -0, e: 1.5e-7}}, [], {}, [{}], {"k": "\u0000<&>"}, {n: 1e21, m: -1e-7}];
for (const v of vals) {
  await tools.add(v);
  await tools.add(new Map([["w", v]]));
}
return 1;`
	h := &echoHost{}
	res := runJS(t, src, Limits{}, h)
	if res.Err != nil {
		t.Fatal(res.Err.Code, res.Err.Message)
	}
	if len(h.args) != 12 {
		t.Fatalf("%d calls", len(h.args))
	}
	for i := 0; i < len(h.args); i += 2 {
		if want := `{"w":` + h.args[i] + `}`; h.args[i+1] != want {
			t.Errorf("fast %s, replacer %s", h.args[i], h.args[i+1])
		}
	}
}
