package main

import "testing"

func TestParseHarness(t *testing.T) {
	out := []byte("iter 0 2.000000 1.500000\niter 1 4.000000 3.000000\nmedian total_ms=3.000000 program_ms=2.250000 n=2\nresult {\"a\":1}\n")
	ms, res, err := parseHarness(out, 2)
	if err != nil || ms != 3 || res != `{"a":1}` {
		t.Fatalf("got %v %q %v, want 3 {\"a\":1} nil", ms, res, err)
	}
	for _, bad := range []string{
		"iter 0 2.0 1.5\nresult 1\n",               // one run of two
		"iter 0 2.0 1.5\niter 1 2.0 1.5\n",         // no result
		"iter 0 x 1.5\niter 1 2.0 1.5\nresult 1\n", // not a number
		"iter 0 2.0\niter 1 2.0 1.5\nresult 1\n",   // a field short
	} {
		if _, _, err := parseHarness([]byte(bad), 2); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
