package tsx

import "testing"

// FuzzNesting runs the nesting check's scan on any text: it must not
// panic (it runs on every program bound for esbuild, in the host's
// process), and the one-pass bound that lets checkNesting skip the scan
// must never be below what the scan counts, whatever the text.
func FuzzNesting(f *testing.F) {
	for _, src := range deepPrograms(40) {
		f.Add(src)
	}
	for _, src := range []string{
		"a = b\n--> c )))\n<!-- ((( \n", "x = a++ /\"/; y = \"/", "`${`${a}`}` / 2 /* */ // x",
		"if (a) /re'/.test(s); else while (b) do c; while (d);", "let x = y as const / 2", "#!x\n#p in o",
		"f<a, f<a, b>>(c) ? d : e => f", "x = {} /\v\v\v\v\v\v\v\v\v\v/ ", "\\u0061 = 1; a\u2028--> ))",
	} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, body string) {
		n := nestScan{body: body, stack: make([]nestFrame, 1, 16), nest: 1, maxNesting: 1 << 30, maxScopes: 1 << 30}
		_ = n.run()
		levels, scopes := nestingCounts(body)
		if n.peakNest > levels || n.peakScopes > scopes {
			t.Fatalf("scan counted %d levels, %d scopes; the bound %d, %d", n.peakNest, n.peakScopes, levels, scopes)
		}
		_ = checkNesting(body)
	})
}
