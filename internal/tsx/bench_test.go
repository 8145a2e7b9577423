package tsx

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// benchProgram is a typical 20-line TypeScript program.
const benchProgram = `interface Item { id: number; name: string; tags?: string[] }
type Result = { total: number; names: string[] };
enum Kind { A = "a", B = "b" }
function score(item: Item, weight = 2): number {
  return item.id * weight + (item.tags?.length ?? 0);
}
class Acc {
  #sum = 0;
  add(n: number): this { this.#sum += n; return this; }
  get sum(): number { return this.#sum; }
}
const items: Item[] = [
  { id: 1, name: "one", tags: ["x"] },
  { id: 2, name: "two" },
];
const acc = new Acc();
for (const it of items) acc.add(score(it));
const data = await Promise.resolve(items.map((i) => i.name));
const out: Result = { total: acc.sum, names: data };
return { ...out, kind: Kind.B };
`

func BenchmarkTransformSmall(b *testing.B) {
	b.Run("cached", func(b *testing.B) {
		if _, err := Transform(benchProgram, TS); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Transform(benchProgram, TS); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, err := compile(fmt.Sprintf("%s// %d\n", benchProgram, i), TS, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// scratchTS is a distinct typed program of about 2 KB for run i (as the
// integration benchmark BenchmarkNewProgramTS's).
func scratchTS(i int) string {
	b := []byte("// program " + strconv.Itoa(i) + "\n")
	for j := 0; len(b) < 2000; j++ {
		b = fmt.Appendf(b, "function helper%d(x: number): number { const y: number = x * %d + %d; return y > 1e9 ? y %% 7 : y - %d * x; }\n", j, j+1, i, j+1)
	}
	return string(fmt.Appendf(b, "const base: number = %d;\nreturn helper0(base) + 1;\n", i))
}

// BenchmarkStripTypes is the fast path's type stripping of a 2 KB program.
func BenchmarkStripTypes(b *testing.B) {
	src := scratchTS(1)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	c0 := processCPU()
	for b.Loop() {
		if _, _, ok := stripTypes(src); !ok {
			b.Fatal("declined")
		}
	}
	if c := processCPU(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}

// newPrograms returns n distinct 2 KB programs (scratchTS, without its
// types for JavaScript), made before the timer starts. n is more than the
// cache holds, so every Transform of them compiles.
func newPrograms(n int, lang Lang) []string {
	progs := make([]string, n)
	for i := range progs {
		progs[i] = scratchTS(i)
		if lang == JS {
			progs[i] = strings.ReplaceAll(progs[i], ": number", "")
		}
	}
	return progs
}

// BenchmarkTransformNewTS is Transform of a new 2 KB TypeScript program
// each time (the fast path), against TransformFull (esbuild).
func BenchmarkTransformNewTS(b *testing.B) {
	progs := newPrograms(4*cacheSize, TS)
	for _, c := range []struct {
		name string
		f    func(string, Lang) (*Program, error)
	}{{"fast", Transform}, {"esbuild", TransformFull}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			c0 := processCPU()
			for b.Loop() {
				i++
				if _, err := c.f(progs[i%len(progs)], TS); err != nil {
					b.Fatal(err)
				}
			}
			if c := processCPU(); c > 0 {
				b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkTransformNewJS is Transform of a new 2 KB JavaScript program
// each time (the direct path).
func BenchmarkTransformNewJS(b *testing.B) {
	progs := newPrograms(4*cacheSize, JS)
	b.ReportAllocs()
	i := 0
	c0 := processCPU()
	for b.Loop() {
		i++
		if p, err := Transform(progs[i%len(progs)], JS); err != nil || !p.Direct {
			b.Fatal(err)
		}
	}
	if c := processCPU(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkEsbuildOptions measures esbuild's transform of a new 2 KB
// TypeScript program (what the fast path declines still goes there) with
// compile's options and with cheaper ones, to see what each costs.
func BenchmarkEsbuildOptions(b *testing.B) {
	progs := newPrograms(1024, TS)
	base := api.TransformOptions{
		LogLevel:       api.LogLevelSilent,
		LogLimit:       maxDiagnostics,
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		Target:         api.ES2020,
		Sourcefile:     TS.Filename(),
		Loader:         api.LoaderTS,
	}
	variants := []struct {
		name string
		edit func(*api.TransformOptions)
	}{
		{"compile", func(*api.TransformOptions) {}},
		{"no-sourcemap", func(o *api.TransformOptions) { o.Sourcemap = api.SourceMapNone }},
		{"esnext", func(o *api.TransformOptions) { o.Target = api.ESNext }},
		{"minify-whitespace", func(o *api.TransformOptions) { o.MinifyWhitespace = true }},
		{"no-sourcemap-esnext", func(o *api.TransformOptions) { o.Sourcemap, o.Target = api.SourceMapNone, api.ESNext }},
	}
	for _, v := range variants {
		opts := base
		v.edit(&opts)
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			c0 := processCPU()
			for b.Loop() {
				i++
				if res := api.Transform(wrapperHead+progs[i%len(progs)]+wrapperTail, opts); len(res.Errors) > 0 {
					b.Fatal(res.Errors[0].Text)
				}
			}
			if c := processCPU(); c > 0 {
				b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
