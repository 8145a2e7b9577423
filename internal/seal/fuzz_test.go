package seal

import (
	"bytes"
	"compress/flate"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// The fuzz keyring, time and corpus. The corpus holds tokens sealed with
// this fixed key; files named "valid-*" are the only ones that may open.
// Regenerate it with:
//
//	SEAL_WRITE_FUZZ_CORPUS=1 go test -run TestWriteFuzzCorpus ./internal/seal/
var (
	fuzzKeyring = &Keyring{Active: fixedKey(0x20), Previous: []Key{fixedKey(0x60)}}
	fuzzNow     = t0.Add(time.Hour)
	fuzzCorpus  = filepath.Join("testdata", "fuzz", "FuzzOpen")
)

// FuzzOpen checks that Open never panics, that every refusal carries a
// code, and that nothing opens but the valid tokens it was seeded with:
// any mutation of a valid token must be refused.
func FuzzOpen(f *testing.F) {
	valid := map[string]bool{}
	entries, err := os.ReadDir(fuzzCorpus)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "valid-") {
			valid[readCorpusString(f, filepath.Join(fuzzCorpus, e.Name()))] = true
		}
	}
	if len(valid) == 0 {
		f.Fatal("no valid tokens in the corpus")
	}
	// Tokens sealed here would differ in each fuzzing worker (random
	// nonces), so the valid seeds come only from the committed corpus.
	f.Fuzz(func(t *testing.T, token string) {
		p, err := fuzzKeyring.Open(token, testBinding, fuzzNow)
		if err != nil {
			if p != nil || CodeOf(err) == "" {
				t.Fatalf("refused with payload %v and error %v", p, err)
			}
			return
		}
		if !valid[token] {
			t.Fatalf("a token that was never sealed opened: %q", token)
		}
		if p == nil || !validID(p.ID) || p.Binding != testBinding {
			t.Fatalf("opened %+v", p)
		}
	})
}

// TestRandomMutations edits valid tokens at random, one to three changes
// at a time, and checks that none opens.
func TestRandomMutations(t *testing.T) {
	kr := newKeyring(t)
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. \n"
	for _, body := range [][]byte{nil, jsonBody(100), jsonBody(3000)} {
		tok := sealBody(t, kr, body)
		for range 3000 {
			m := []byte(tok)
			for range 1 + r.IntN(3) {
				i := r.IntN(len(m))
				switch r.IntN(3) {
				case 0:
					m[i] = alphabet[r.IntN(len(alphabet))]
				case 1:
					m = append(m[:i], m[i+1:]...)
				default:
					m = append(m[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, m[i:]...)...)
				}
			}
			if string(m) == tok {
				continue
			}
			if _, err := kr.Open(string(m), testBinding, now1); err == nil {
				t.Fatalf("mutated token opened: %q", m)
			} else if CodeOf(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
		}
	}
}

// readCorpusString reads a one-string fuzz corpus file.
func readCorpusString(tb testing.TB, path string) string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.SplitN(strings.TrimSuffix(string(data), "\n"), "\n", 2)
	if len(lines) != 2 || lines[0] != "go test fuzz v1" ||
		!strings.HasPrefix(lines[1], "string(") || !strings.HasSuffix(lines[1], ")") {
		tb.Fatalf("%s: not a one-string corpus file", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return s
}

// TestWriteFuzzCorpus regenerates the seed corpus of FuzzOpen when
// $SEAL_WRITE_FUZZ_CORPUS is set, and otherwise checks that the valid
// seeds still open and the others do not.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("SEAL_WRITE_FUZZ_CORPUS") == "" {
		entries, err := os.ReadDir(fuzzCorpus)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			tok := readCorpusString(t, filepath.Join(fuzzCorpus, e.Name()))
			_, err := fuzzKeyring.Open(tok, testBinding, fuzzNow)
			if strings.HasPrefix(e.Name(), "valid-") != (err == nil) {
				t.Errorf("%s: %v", e.Name(), err)
			}
		}
		return
	}
	seeds := map[string]string{}
	seal := func(issued, expires time.Time, b Binding, body []byte) string {
		tok, err := fuzzKeyring.Seal(Payload{IssuedAt: issued, ExpiresAt: expires, Binding: b, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	day := 24 * time.Hour
	seeds["valid-empty"] = seal(t0, t0.Add(day), testBinding, nil)
	seeds["valid-small"] = seal(t0, t0.Add(day), testBinding, []byte(`{"code":"1+1","seed":7}`))
	seeds["valid-json"] = seal(t0, t0.Add(day), testBinding, jsonBody(700))
	prev := &Keyring{Active: fuzzKeyring.Previous[0]}
	if seeds["valid-previous-key"], _ = prev.Seal(Payload{IssuedAt: t0, ExpiresAt: t0.Add(day), Binding: testBinding, Body: []byte("{}")}); seeds["valid-previous-key"] == "" {
		t.Fatal("sealing with the previous key failed")
	}
	seeds["expired"] = seal(t0.Add(-2*day), t0.Add(-day), testBinding, nil)
	seeds["future"] = seal(t0.Add(day), t0.Add(2*day), testBinding, nil)
	seeds["other-engine"] = seal(t0, t0.Add(day), Binding{Engine: "other", Tools: testBinding.Tools}, nil)
	seeds["other-tools"] = seal(t0, t0.Add(day), Binding{Engine: testBinding.Engine, Tools: "other"}, nil)
	other := &Keyring{Active: fixedKey(0x90)}
	seeds["unknown-key"], _ = other.Seal(Payload{IssuedAt: t0, ExpiresAt: t0.Add(day), Binding: testBinding})
	id, _ := NewID()
	z, _ := compress(nil)
	seeds["lifetime"], _ = sealRaw(fuzzKeyring.Active, Payload{ID: id, IssuedAt: t0, ExpiresAt: t0.Add(MaxLifetime + time.Second), Binding: testBinding}, z)
	var bomb bytes.Buffer
	w, _ := flate.NewWriter(&bomb, flate.BestCompression)
	w.Write(make([]byte, MaxBodySize+1))
	w.Close()
	seeds["bomb"], _ = sealRaw(fuzzKeyring.Active, Payload{ID: id, IssuedAt: t0, ExpiresAt: t0.Add(day), Binding: testBinding}, bomb.Bytes())

	v := seeds["valid-small"]
	raw := rawOf(t, v)
	for name, off := range map[string]int{"version": offVersion, "kid": offKid, "issued": offIssued + 7,
		"expires": offExpires + 7, "id": offID, "engine": offEngine, "tools": offTools, "nonce": offNonce,
		"ciphertext": offBody, "tag": len(raw) - 1} {
		m := bytes.Clone(raw)
		m[off] ^= 1
		seeds["flip-"+name] = Prefix + encode(m)
	}
	seeds["truncated"] = v[:len(v)-4]
	seeds["truncated-raw"] = Prefix + encode(raw[:len(raw)-1])
	seeds["appended"] = Prefix + encode(append(bytes.Clone(raw), 0))
	seeds["padded"] = v + "="
	seeds["std-alphabet"] = strings.NewReplacer("-", "+", "_", "/").Replace(v)
	seeds["newline"] = v[:50] + "\n" + v[50:]
	seeds["version-2"] = "mbx2." + v[len(Prefix):]
	seeds["no-prefix"] = v[len(Prefix):]
	for i, s := range []string{"", "mbx1.", "mbx1.A", "mbx1.AAAA", "mbx", "mbx99.", "\x00\xff", strings.Repeat("mbx1.", 20)} {
		seeds[fmt.Sprintf("garbage-%d", i)] = s
	}
	for name, s := range seeds {
		if s == v && name != "valid-small" {
			delete(seeds, name) // a mutation that happened to change nothing
		}
	}
	os.RemoveAll(fuzzCorpus)
	if err := os.MkdirAll(fuzzCorpus, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, s := range seeds {
		if err := os.WriteFile(filepath.Join(fuzzCorpus, name), []byte("go test fuzz v1\nstring("+strconv.Quote(s)+")\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d seeds to %s", len(seeds), fuzzCorpus)
}

func BenchmarkSealOpen(b *testing.B) {
	kr := newKeyring(b)
	for _, c := range []struct {
		name string
		body []byte
	}{{"json10KB", jsonBody(10240)}, {"random10KB", randBytes(10240)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			p := Payload{IssuedAt: t0, ExpiresAt: t0.Add(time.Hour), Binding: testBinding, Body: c.body}
			var size int
			for b.Loop() {
				tok, err := kr.Seal(p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := kr.Open(tok, testBinding, now1.Add(-30*time.Minute)); err != nil {
					b.Fatal(err)
				}
				size = len(tok)
			}
			b.ReportMetric(float64(size), "token-bytes")
		})
	}
}

// FuzzSealRoundTrip seals arbitrary payloads and checks the round trip:
// Seal refuses only what it documents (an empty binding, a lifetime that
// is not positive or over MaxLifetime, a body over MaxBodySize); whatever
// it seals opens, within its lifetime and with its binding, to the same
// id, times (to the second) and body; and the same token is refused with
// the right code under another binding, at its expiry, and with any one
// character changed.
func FuzzSealRoundTrip(f *testing.F) {
	f.Add([]byte(nil), t0.Unix(), int64(3600), "e", "t", uint16(0))
	f.Add([]byte(`{"code":"return 1","seed":7}`), t0.Unix(), int64(86400), testBinding.Engine, testBinding.Tools, uint16(17))
	f.Add(bytes.Repeat([]byte("ab"), 5000), int64(0), int64(1), "e", "t", uint16(999))
	f.Add([]byte{0, 1, 2, 255}, int64(-62135596800), int64(7*86400), "e", "t", uint16(40))
	f.Add([]byte("x"), int64(1<<62), int64(7*86400+1), "e", "t", uint16(3))
	f.Add([]byte("x"), t0.Unix(), int64(0), "e", "t", uint16(3))
	f.Add([]byte("x"), t0.Unix(), int64(60), "", "t", uint16(3))
	f.Fuzz(func(t *testing.T, body []byte, issued, lifetime int64, engine, tools string, flip uint16) {
		b := Binding{Engine: engine, Tools: tools}
		iss := time.Unix(issued, 0)
		p := Payload{IssuedAt: iss, ExpiresAt: iss.Add(time.Duration(lifetime) * time.Second), Binding: b, Body: body}
		if p.IssuedAt.IsZero() || lifetime > 1<<33 || lifetime < -1<<33 {
			return // zero means "now"; huge lifetimes overflow Duration
		}
		tok, err := fuzzKeyring.Seal(p)
		mustRefuse := engine == "" || tools == "" || lifetime <= 0 || lifetime > int64(MaxLifetime/time.Second) || len(body) > MaxBodySize
		if err != nil {
			if !mustRefuse && CodeOf(err) != codes.TokenTooLarge {
				t.Fatalf("sealing a valid payload failed: %v", err)
			}
			return
		}
		if mustRefuse {
			t.Fatalf("sealed a payload it should refuse: binding %+v, lifetime %d, body %d bytes", b, lifetime, len(body))
		}
		now := iss.Add(time.Duration(lifetime/2) * time.Second)
		got, err := fuzzKeyring.Open(tok, b, now)
		if err != nil {
			t.Fatalf("a fresh token does not open: %v", err)
		}
		if !validID(got.ID) || got.Binding != b || !bytes.Equal(got.Body, body) ||
			got.IssuedAt.Unix() != issued || got.ExpiresAt.Unix() != issued+lifetime {
			t.Fatalf("round trip changed the payload: %+v", got)
		}
		if _, err := fuzzKeyring.Open(tok, Binding{Engine: engine + "x", Tools: tools}, now); CodeOf(err) != codes.TokenBinding {
			t.Fatalf("opened under another engine: %v", err)
		}
		if _, err := fuzzKeyring.Open(tok, b, p.ExpiresAt); CodeOf(err) != codes.TokenExpired {
			t.Fatalf("opened at its expiry: %v", err)
		}
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		i := int(flip) % len(tok)
		m := []byte(tok)
		m[i] = alphabet[(strings.IndexByte(alphabet, m[i])+1+int(flip>>8)%63)%len(alphabet)]
		if _, err := fuzzKeyring.Open(string(m), b, now); err == nil {
			t.Fatalf("a token with byte %d changed (%q -> %q) opened", i, tok[i], m[i])
		} else if CodeOf(err) == "" {
			t.Fatalf("refused without a code: %v", err)
		}
	})
}
