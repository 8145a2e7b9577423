package integration_test

import "testing"

// BenchmarkURLFirstUse is a whole run whose only work is one URL: the
// first read of URL in a run compiles internal/guest/url.js, so
// (ns/op − BenchmarkRunEmpty) is what a program's first URL costs.
func BenchmarkURLFirstUse(b *testing.B) {
	benchRun(b, "return new URL('/a/b?c=1#d', 'https://example.com').href;", `"https://example.com/a/b?c=1#d"`)
}

// BenchmarkURL100 parses 100 URLs in one run: (ns/op − BenchmarkURLFirstUse)
// / 99 is one parse once URL is compiled.
func BenchmarkURL100(b *testing.B) {
	benchRun(b, "let n = 0;\nfor (let i = 0; i < 100; i++) n += new URL('/a/b?c=' + i + '#d', 'https://example.com').href.length;\nreturn n;", "2990")
}
