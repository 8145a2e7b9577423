package limits

import "testing"

func BenchmarkMergeNarrows(b *testing.B) {
	e := Limits{Timeout: 5, MaxCalls: 10}
	r := Limits{MaxCalls: 5}
	b.ReportAllocs()
	for b.Loop() {
		if err := e.Narrows(r); err != nil {
			b.Fatal(err)
		}
		_ = e.Merge(r)
	}
}
