package engine

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/jsongen"
)

// checkArgPairs checks the calls of argPairsProgram: each value v was
// sent as it is (plain data is written as UTF-8 by the glue's encoder,
// anything else by the prelude's) and inside a Map (always the prelude's
// encoder, then the string's UTF-8), so the second call's text must be
// {"w":<the first call's text>}, or {} when v has no JSON text (the first
// call then sends null). It returns how many first calls were not ASCII.
func checkArgPairs(t *testing.T, args []string) (nonASCII int) {
	t.Helper()
	if len(args)%2 != 0 || len(args) == 0 {
		t.Fatalf("%d calls", len(args))
	}
	for i := 0; i < len(args); i += 2 {
		fast, slow := args[i], args[i+1]
		if !utf8.ValidString(fast) {
			t.Fatalf("call %d: invalid UTF-8 %q", i, fast)
		}
		want := `{"w":` + fast + `}`
		if slow == "{}" && fast == "null" {
			continue
		}
		if slow != want {
			t.Fatalf("call %d: as it is %q,\ninside a Map %q", i, fast, slow)
		}
		for j := 0; j < len(fast); j++ {
			if fast[j] >= 0x80 {
				nonASCII++
				break
			}
		}
	}
	return nonASCII
}

// The arguments of a host call are the same UTF-8 text whichever encoder
// wrote them, over generated values: jsonFastProgram's generator (lone
// surrogates and pairs, Latin-1 and wide strings, every kind of number,
// plain data and everything that is not). A broken conversion of
// Latin-1, of surrogate pairs or of numbers, or the glue's buffer not
// grown, makes it fail.
func TestHostCallArgumentsUTF8Generated(t *testing.T) {
	// a toJSON that returns its key would differ inside the Map
	gen := strings.Replace(jsonFastProgram[:strings.Index(jsonFastProgram, "const gaps")], `return "j" + k;`, `return "j";`, 1)
	for _, seed := range []int{1, 2, 3} {
		src := strings.Replace(gen, "__SEED__", fmt.Sprint(seed), 1) + `
let n = 0;
for (let i = 0; i < 1500; i++) {
  const v = val(0);
  let a, b;
  try { a = await tools.add(v); } catch (e) { a = e.name; }
  try { b = await tools.add(new Map([["w", v]])); } catch (e) { b = e.name; }
  n++;
}
return n;`
		h := &echoHost{}
		res := runJS(t, src, Limits{Memory: 256 << 20, MaxCalls: 10000}, h)
		if res.Err != nil {
			t.Fatalf("seed %d: %s: %s", seed, res.Err.Code, res.Err.Message)
		}
		if string(res.Value) != "1500" || len(h.args) != 3000 {
			t.Fatalf("seed %d: %s, %d calls", seed, res.Value, len(h.args))
		}
		if n := checkArgPairs(t, h.args); n < 100 {
			t.Fatalf("seed %d: only %d values with non-ASCII text", seed, n)
		}
	}
}

// The same over values generated on the Go side (every JSON type, every
// Unicode plane, lone surrogates, & < > " \ NUL, deep nesting, strings
// far larger than the glue's stack buffer).
func TestHostCallArgumentsUTF8FromGo(t *testing.T) {
	g := jsongen.New(23)
	var b strings.Builder
	b.WriteString("const vals = [\n")
	for i := 0; i < 80; i++ {
		b.WriteString(g.Any().Source)
		b.WriteString(",\n")
	}
	b.WriteString(`"x".repeat(2000), "é".repeat(700), "\ud83d\ude00".repeat(300) + "\ud800", {k: "日本語".repeat(200)}];
for (const v of vals) {
  await tools.add(v);
  await tools.add(new Map([["w", v]]));
}
return vals.length;`)
	h := &echoHost{}
	res := runJS(t, b.String(), Limits{Memory: 256 << 20}, h)
	if res.Err != nil {
		t.Fatalf("%s: %s", res.Err.Code, res.Err.Message)
	}
	if n := checkArgPairs(t, h.args); n < 10 {
		t.Fatalf("only %d values with non-ASCII text", n)
	}
}
