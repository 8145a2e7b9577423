package seal

import (
	"bytes"
	"compress/flate"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// now1 is a time at which test tokens (issued at t0 for a day) are valid.
var now1 = t0.Add(time.Hour)

// rawOf returns the decoded bytes of a token.
func rawOf(t *testing.T, tok string) []byte {
	t.Helper()
	raw, ok := decode(strings.TrimPrefix(tok, Prefix))
	if !ok {
		t.Fatalf("cannot decode %q", tok)
	}
	return raw
}

func TestTamperMatrix(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, jsonBody(300))
	raw := rawOf(t, tok)
	tagStart := len(raw) - 16
	regions := []struct {
		name       string
		start, end int
		code       codes.Code
	}{
		{"version", offVersion, offKid, codes.TokenVersion},
		{"key id", offKid, offIssued, codes.TokenUnknownKey},
		{"issue time", offIssued, offExpires, codes.TokenTampered},
		{"expiry time", offExpires, offID, codes.TokenTampered},
		{"token id", offID, offEngine, codes.TokenTampered},
		{"engine binding", offEngine, offTools, codes.TokenBinding},
		{"tools binding", offTools, headerSize, codes.TokenBinding},
		{"nonce", offNonce, offBody, codes.TokenTampered},
		{"ciphertext", offBody, tagStart, codes.TokenTampered},
		{"tag", tagStart, len(raw), codes.TokenTampered},
	}
	for _, r := range regions {
		t.Run(r.name, func(t *testing.T) {
			for i := r.start; i < r.end; i++ {
				for bit := range 8 {
					m := bytes.Clone(raw)
					m[i] ^= 1 << bit
					p, err := kr.Open(Prefix+encode(m), testBinding, now1)
					if p != nil {
						t.Fatalf("byte %d bit %d: opened", i, bit)
					}
					wantCode(t, err, r.code)
				}
			}
		})
	}
	t.Run("prefix", func(t *testing.T) {
		for i := range len(Prefix) {
			for bit := range 8 {
				m := []byte(tok)
				m[i] ^= 1 << bit
				want := codes.TokenMalformed
				if i == 3 && m[i] >= '0' && m[i] <= '9' {
					want = codes.TokenVersion // "mbx0.", "mbx3." …
				}
				_, err := kr.Open(string(m), testBinding, now1)
				wantCode(t, err, want)
			}
		}
	})
	if _, err := kr.Open(tok, testBinding, now1); err != nil {
		t.Fatalf("original no longer opens: %v", err)
	}
}

func TestTruncatedAndExtended(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, jsonBody(300))
	raw := rawOf(t, tok)
	for n := range len(raw) {
		_, err := kr.Open(Prefix+encode(raw[:n]), testBinding, now1)
		if n < minRawSize {
			wantCode(t, err, codes.TokenMalformed)
		} else {
			wantCode(t, err, codes.TokenTampered)
		}
	}
	for n := range len(tok) {
		if _, err := kr.Open(tok[:n], testBinding, now1); err == nil {
			t.Fatalf("token cut to %d characters opened", n)
		} else if c := CodeOf(err); c != codes.TokenMalformed && c != codes.TokenTampered {
			t.Fatalf("token cut to %d characters: %v", n, err)
		}
	}
	for _, extra := range [][]byte{{0}, {1, 2, 3}, bytes.Repeat([]byte{0xff}, 64)} {
		_, err := kr.Open(Prefix+encode(append(bytes.Clone(raw), extra...)), testBinding, now1)
		wantCode(t, err, codes.TokenTampered)
	}
	for _, extra := range []string{"A", "AA", "AAAA", ".", "=", " "} {
		_, err := kr.Open(tok+extra, testBinding, now1)
		if c := CodeOf(err); c != codes.TokenMalformed && c != codes.TokenTampered {
			t.Fatalf("token + %q: %v", extra, err)
		}
	}
}

func TestWrongKeyAndVersion(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, []byte("{}"))
	_, err := newKeyring(t).Open(tok, testBinding, now1)
	wantCode(t, err, codes.TokenUnknownKey)

	// A key id in the keyring but a different secret: impossible with
	// NewKey, and refused when the keyring is built by hand.
	forged := Key{ID: kr.Active.ID, Secret: fixedKey(7).Secret}
	if _, err := (&Keyring{Active: forged}).Open(tok, testBinding, now1); err == nil || CodeOf(err) != "" {
		t.Fatalf("keyring with a mismatched id: %v", err)
	}

	raw := rawOf(t, tok)
	for _, v := range []byte{0, 2, 0x81, 0xff} {
		m := bytes.Clone(raw)
		m[offVersion] = v
		_, err := kr.Open(Prefix+encode(m), testBinding, now1)
		wantCode(t, err, codes.TokenVersion)
	}
	_, err = kr.Open("mbx2."+strings.TrimPrefix(tok, Prefix), testBinding, now1)
	wantCode(t, err, codes.TokenVersion)
	for _, s := range []string{"", "mbx", "mbx1", "mbx.", "mbxx.", "MBX1." + tok[5:], tok[5:], "mbx1." + tok} {
		_, err := kr.Open(s, testBinding, now1)
		wantCode(t, err, codes.TokenMalformed)
	}
}

func TestNonCanonicalBase64(t *testing.T) {
	kr := newKeyring(t)
	// Bodies whose raw tokens are 0, 1 and 2 bytes past a multiple of 3, so
	// the last character has no, 4 and 2 unused bits.
	for _, body := range [][]byte{nil, []byte("x"), []byte("xy"), jsonBody(200)} {
		tok := sealBody(t, kr, body)
		if _, err := kr.Open(tok, testBinding, now1); err != nil {
			t.Fatal(err)
		}
		raw := rawOf(t, tok)
		mutants := map[string]string{
			"std alphabet": Prefix + strings.NewReplacer("-", "+", "_", "/").Replace(tok[len(Prefix):]),
			"newline":      tok[:40] + "\n" + tok[40:],
			"crlf":         tok[:40] + "\r\n" + tok[40:],
			"space":        tok[:40] + " " + tok[40:],
			"trailing nl":  tok + "\n",
			"leading sp":   " " + tok,
			"tab":          tok[:60] + "\t" + tok[60:],
		}
		if len(raw)%3 != 0 {
			pad := strings.Repeat("=", 3-len(raw)%3)
			mutants["padding"] = tok + pad
			// Set an unused low bit of the last character.
			last := tok[len(tok)-1]
			idx := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", last)
			alt := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[idx|1]
			mutants["trailing bits"] = tok[:len(tok)-1] + string(alt)
		}
		if !strings.ContainsAny(tok, "-_") {
			t.Logf("token has no - or _; std alphabet case is vacuous")
			delete(mutants, "std alphabet")
		}
		for name, m := range mutants {
			_, err := kr.Open(m, testBinding, now1)
			if CodeOf(err) != codes.TokenMalformed {
				t.Errorf("body %d, %s: %v", len(body), name, err)
			}
		}
	}
}

func TestTimes(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, []byte("{}")) // t0 .. t0+24h
	for _, c := range []struct {
		now  time.Time
		code codes.Code
	}{
		{t0, ""},
		{t0.Add(-ClockSkew), ""},
		{t0.Add(-ClockSkew - time.Second), codes.TokenNotYetValid},
		{t0.Add(-48 * time.Hour), codes.TokenNotYetValid},
		{t0.Add(24*time.Hour - time.Nanosecond), ""},
		{t0.Add(24 * time.Hour), codes.TokenExpired},
		{t0.Add(1000 * time.Hour), codes.TokenExpired},
	} {
		_, err := kr.Open(tok, testBinding, c.now)
		if c.code == "" {
			if err != nil {
				t.Errorf("at %v: %v", c.now, err)
			}
			continue
		}
		wantCode(t, err, c.code)
	}
}

// TestLifetime seals, with the real key, tokens Seal refuses to make.
func TestLifetime(t *testing.T) {
	kr := newKeyring(t)
	z, _ := compress([]byte("{}"))
	for _, c := range []struct {
		issued, expires time.Time
		code            codes.Code
	}{
		{t0, t0.Add(MaxLifetime), ""},
		{t0, t0.Add(MaxLifetime + time.Second), codes.TokenLifetime},
		{t0, t0.Add(100 * 365 * 24 * time.Hour), codes.TokenLifetime},
		{t0, t0, codes.TokenLifetime},
		{t0, t0.Add(-time.Hour), codes.TokenLifetime},
		{time.Unix(-1<<62, 0), time.Unix(1<<62, 0), codes.TokenLifetime},
	} {
		id, _ := NewID()
		tok, err := sealRaw(kr.Active, Payload{ID: id, IssuedAt: c.issued, ExpiresAt: c.expires, Binding: testBinding}, z)
		if err != nil {
			t.Fatal(err)
		}
		_, err = kr.Open(tok, testBinding, t0.Add(time.Minute))
		if c.code == "" {
			if err != nil {
				t.Errorf("%v..%v: %v", c.issued, c.expires, err)
			}
			continue
		}
		wantCode(t, err, c.code)
	}
}

func TestBinding(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, []byte("{}"))
	for _, c := range []struct {
		b    Binding
		want string
	}{
		{Binding{Engine: "other", Tools: testBinding.Tools}, "engine image"},
		{Binding{Engine: testBinding.Engine, Tools: "other"}, "tool set"},
		{Binding{Engine: "x", Tools: "y"}, "engine image and another tool set"},
		{Binding{Engine: testBinding.Tools, Tools: testBinding.Engine}, "engine image and another tool set"},
		{Binding{}, "engine image and another tool set"},
	} {
		_, err := kr.Open(tok, c.b, now1)
		wantCode(t, err, codes.TokenBinding)
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want it to mention %q", c.b, err, c.want)
		}
	}
}

func TestTooLarge(t *testing.T) {
	kr := newKeyring(t)
	huge := Prefix + strings.Repeat("A", MaxTokenSize)
	_, err := kr.Open(huge, testBinding, now1)
	wantCode(t, err, codes.TokenTooLarge)
	_, err = kr.Open(strings.Repeat("\x00", MaxTokenSize+1), testBinding, now1)
	wantCode(t, err, codes.TokenTooLarge)
}

// sealCompressed seals z as the compressed body of a valid token.
func sealCompressed(t *testing.T, kr *Keyring, z []byte) string {
	t.Helper()
	id, _ := NewID()
	tok, err := sealRaw(kr.Active, Payload{ID: id, IssuedAt: t0, ExpiresAt: t0.Add(24 * time.Hour), Binding: testBinding}, z)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestDecompressionBomb(t *testing.T) {
	kr := newKeyring(t)
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	zeros := make([]byte, 1<<20)
	for range MaxBodySize/len(zeros) + 1 {
		w.Write(zeros)
	}
	w.Close()
	tok := sealCompressed(t, kr, buf.Bytes())
	t.Logf("bomb: %d-byte token inflating to %d bytes", len(tok), MaxBodySize+len(zeros))
	_, err := kr.Open(tok, testBinding, now1)
	wantCode(t, err, codes.TokenTooLarge)

	// Authentic but not DEFLATE, or with data after the stream.
	_, err = kr.Open(sealCompressed(t, kr, []byte("not deflate at all")), testBinding, now1)
	wantCode(t, err, codes.TokenMalformed)
	z, _ := compress([]byte("{}"))
	_, err = kr.Open(sealCompressed(t, kr, append(z, 0)), testBinding, now1)
	wantCode(t, err, codes.TokenMalformed)
	_, err = kr.Open(sealCompressed(t, kr, z[:len(z)-1]), testBinding, now1)
	wantCode(t, err, codes.TokenMalformed)
}

// OpenUnbound opens a token bound to anything, but only an authentic,
// unexpired one: the binding bytes are still authenticated (a token whose
// binding was rewritten is TOKEN_TAMPERED, not opened), and time and key
// are checked as Open checks them.
func TestOpenUnbound(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, []byte(`{"x":1}`))
	p, err := kr.OpenUnbound(tok, now1)
	if err != nil || string(p.Body) != `{"x":1}` || p.Binding != (Binding{}) || p.ID == "" {
		t.Fatalf("OpenUnbound: %+v %v", p, err)
	}
	if _, err := kr.Open(tok, Binding{Engine: "other", Tools: "other"}, now1); err == nil {
		t.Fatal("Open ignored the binding")
	}
	raw, _ := decode(strings.TrimPrefix(tok, Prefix))
	for _, off := range []int{offEngine, offTools, offTools + 5} {
		b := append([]byte(nil), raw...)
		b[off] ^= 1
		_, err := kr.OpenUnbound(Prefix+encode(b), now1)
		wantCode(t, err, codes.TokenTampered)
	}
	_, err = kr.OpenUnbound(tok, t0.Add(25*time.Hour))
	wantCode(t, err, codes.TokenExpired)
	_, err = newKeyring(t).OpenUnbound(tok, now1)
	wantCode(t, err, codes.TokenUnknownKey)
}
