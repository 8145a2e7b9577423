package intl

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// Any request, however malformed, gets a reply whose first byte is a kind
// the guest knows, and never a panic.
func TestHandleMalformed(t *testing.T) {
	reqs := []string{``, `[]`, `{}`, `null`, `["nf"]`, `["nf",1,2]`, `["nf",[],{},"format"]`, `["nf",["en"],{"style":5},"format",1]`,
		`["dtf",[],{"timeZone":"../../etc/passwd"},"format",0]`, `["dtf",[],{},"format","x"]`, `["coll",[],{},"compare",1,2]`,
		`["canonical",["en_US"]]`, `["locale","",null]`, `["bogus"]`, `["nf",["en"],{"maximumFractionDigits":1e9},"format",1]`,
		`["nf",["en"],{},"format",{"s":"1e999999999"}]`, `["rtf",["en"],{},"format",1,"eon"]`, `["lf",["en"],{},"format",[1,2]]`,
		`["seg",["en"],{},"segment",1]`, `["seg",["en"],{"granularity":"word"},"segment"]`, `["dn",["en"],{},"of","US"]`,
		`["dn",["en"],{"type":"language"},"of",5]`, `["dn",["en"],{"type":"language"},"of","en-` + strings.Repeat("a", 1000) + `"]`}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		b := make([]byte, r.IntN(40))
		for j := range b {
			const alphabet = "[]{}\",:0123456789nfdtcolrsapeux "
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		reqs = append(reqs, string(b))
	}
	reqs = append(reqs, `["nf",["en"],{},"format","`+strings.Repeat("9", MaxRequest)+`"]`)
	for _, q := range reqs {
		rep := Handle([]byte(q))
		if len(rep) == 0 || strings.IndexByte("snje", rep[0]) < 0 {
			t.Fatalf("%.80q: reply %.80q", q, rep)
		}
	}
	if rep := Handle([]byte(`["dtf",[],{"timeZone":"../../etc/passwd"},"format",0]`)); rep[0] != 'e' {
		t.Fatalf("a path as a time zone was accepted: %q", rep)
	}
}

// A huge exponent is refused or formatted, not expanded into memory.
func TestHugeExponent(t *testing.T) {
	rep := Handle([]byte(`["nf",["en"],{},"format",{"s":"1e999999"}]`))
	if len(rep) > 1<<16 {
		t.Fatalf("reply of %d bytes", len(rep))
	}
}

// The cache and the collators are shared across runs on many goroutines.
func TestHandleConcurrent(t *testing.T) {
	done := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 200; i++ {
				if rep := string(Handle([]byte(`["coll",["de"],{"sensitivity":"base"},"compare","Äpfel","apfel"]`))); rep != "n0" {
					done <- rep
					return
				}
				if rep := string(Handle([]byte(`["nf",["de-DE"],{"style":"currency","currency":"EUR"},"format",1234.5]`))); rep != "s1.234,50\u00a0€" {
					done <- rep
					return
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if r := <-done; r != "" {
			t.Fatalf("reply %q", r)
		}
	}
}

// TestCacheBounded: formatters made for long requests (here 600 locale
// lists of one 80 KB private-use tag) are not kept: the cache's keys stay
// under cacheMax × cacheKeyMax bytes, and the formatter still answers.
func TestCacheBounded(t *testing.T) {
	base := strings.Repeat("abcdefgh-", 9000)
	for i := range 600 {
		rep := string(Handle([]byte(`["nf",["en-x-` + base + `q` + strconv.Itoa(i) + `"],{},"format",1234.5]`)))
		if rep != "s1,234.5" {
			t.Fatalf("%d: %.100q", i, rep)
		}
	}
	cacheMu.Lock()
	n := 0
	for k := range cache {
		n += len(k)
	}
	cacheMu.Unlock()
	if n > cacheMax*cacheKeyMax {
		t.Fatalf("the cache holds %d bytes of keys", n)
	}
}
