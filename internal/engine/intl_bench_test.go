package engine

import "testing"

// The cost of Intl in a run: compare each with BenchmarkRunStart (a run of
// `return 1`); the difference is what the Intl calls add.

// BenchmarkIntlNumberFormat is a run that makes its first NumberFormat and
// formats once (two synchronous host calls).
func BenchmarkIntlNumberFormat(b *testing.B) {
	benchProgram(b, `return new Intl.NumberFormat('de-DE', {style: 'currency', currency: 'EUR'}).format(1234.5)`, nil)
}

// BenchmarkIntlToLocaleString is (1234.5).toLocaleString('en-US').
func BenchmarkIntlToLocaleString(b *testing.B) {
	benchProgram(b, `return (1234.5).toLocaleString('en-US')`, nil)
}

// BenchmarkIntlDateTimeFormat makes a DateTimeFormat with a time zone and
// formats one date.
func BenchmarkIntlDateTimeFormat(b *testing.B) {
	benchProgram(b, `return new Date(0).toLocaleString('en-US', {timeZone: 'America/New_York', dateStyle: 'long', timeStyle: 'short'})`, nil)
}

// BenchmarkIntlLocaleCompareSort sorts 100 words with localeCompare
// (about 550 comparisons, one host call each).
func BenchmarkIntlLocaleCompareSort(b *testing.B) {
	benchProgram(b, `const w = []; for (let i = 0; i < 100; i++) w.push('w' + ((i * 7919) % 100)); w.sort((a, b) => a.localeCompare(b)); return w[0]`, nil)
}

// BenchmarkIntlNumberFormat1000 makes 1000 NumberFormats and formats once
// with each, in one run: (this - BenchmarkRunStart) / 1000 is the cost of
// one "new Intl.NumberFormat + format" in a run.
func BenchmarkIntlNumberFormat1000(b *testing.B) {
	benchProgram(b, `let s; for (let i = 0; i < 1000; i++) s = new Intl.NumberFormat('de-DE', {style: 'currency', currency: 'EUR'}).format(1234.5 + i); return s`, nil)
}

// BenchmarkIntlLocaleCompare1000 is 1000 localeCompare calls in one run.
func BenchmarkIntlLocaleCompare1000(b *testing.B) {
	benchProgram(b, `let s = 0; for (let i = 0; i < 1000; i++) s += 'résumé'.localeCompare('resume' + (i % 3)); return s`, nil)
}

// BenchmarkIntlSegmenterWords is a run that splits a 60-word sentence into
// words and counts the word-like ones (one synchronous host call).
func BenchmarkIntlSegmenterWords(b *testing.B) {
	benchProgram(b, `const s = 'The quick brown fox jumps over the lazy dog. '.repeat(6); let n = 0; for (const x of new Intl.Segmenter('en', {granularity: 'word'}).segment(s)) if (x.isWordLike) n++; return n`, nil)
}

// BenchmarkIntlDisplayNames is a run that makes a DisplayNames and names
// one region.
func BenchmarkIntlDisplayNames(b *testing.B) {
	benchProgram(b, `return new Intl.DisplayNames('de-DE', {type: 'region'}).of('US')`, nil)
}

// BenchmarkRunStackGrowth is a run whose only work is a JSON.parse: like a
// first Intl call (or any call five levels deep), it takes the wasm
// runtime's call stack past 48 KiB, which wazero grows by allocating and
// copying it (about 100 KiB more per run). BenchmarkIntlNumberFormat minus
// this is what Intl itself costs a run.
func BenchmarkRunStackGrowth(b *testing.B) {
	benchProgram(b, `return JSON.parse('{"a":[1]}')`, nil)
}
