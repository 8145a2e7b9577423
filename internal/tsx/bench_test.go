package tsx

import (
	"fmt"
	"testing"
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
