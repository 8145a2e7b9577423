package toolsearch

import "testing"

// BenchmarkSearch measures one search over the 100+ tool toolbox, cycling
// through the relevance queries.
func BenchmarkSearch(b *testing.B) {
	ix := NewIndex(toolbox())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(relevanceCases[i%len(relevanceCases)].query, 5)
		i++
	}
}

// BenchmarkNewIndex measures building the index over the toolbox.
func BenchmarkNewIndex(b *testing.B) {
	docs := toolbox()
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(docs)
	}
}
