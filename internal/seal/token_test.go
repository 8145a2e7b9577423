package seal

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

func TestRoundTrip(t *testing.T) {
	kr := newKeyring(t)
	for _, body := range [][]byte{nil, []byte("{}"), jsonBody(2048), bytes.Repeat([]byte("a"), 1<<20)} {
		id, err := NewID()
		if err != nil {
			t.Fatal(err)
		}
		in := Payload{ID: id, IssuedAt: t0.Add(700 * time.Millisecond), ExpiresAt: t0.Add(time.Hour), Binding: testBinding, Body: body}
		tok, err := kr.Seal(in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tok, Prefix) {
			t.Fatalf("token %.20q lacks the prefix", tok)
		}
		p, err := kr.Open(tok, testBinding, t0.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if p.ID != id || !p.IssuedAt.Equal(t0) || !p.ExpiresAt.Equal(t0.Add(time.Hour)) ||
			p.Binding != testBinding || !bytes.Equal(p.Body, body) {
			t.Fatalf("opened %+v, sealed %+v", p, in)
		}
	}
}

func TestSealDefaults(t *testing.T) {
	kr := newKeyring(t)
	before := time.Now().Truncate(time.Second)
	tok, err := kr.Seal(Payload{Binding: testBinding, Body: []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	p, err := kr.Open(tok, testBinding, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !validID(p.ID) {
		t.Errorf("generated id %q", p.ID)
	}
	if p.IssuedAt.Before(before) || p.ExpiresAt.Sub(p.IssuedAt) != DefaultLifetime {
		t.Errorf("issued %v, expires %v", p.IssuedAt, p.ExpiresAt)
	}
	// Two seals of the same payload differ (fresh nonce) but both open.
	in := Payload{ID: p.ID, IssuedAt: t0, ExpiresAt: t0.Add(time.Hour), Binding: testBinding}
	a, _ := kr.Seal(in)
	b, _ := kr.Seal(in)
	if a == b {
		t.Error("two seals gave the same token")
	}
}

func TestSealRefuses(t *testing.T) {
	kr := newKeyring(t)
	ok := Payload{IssuedAt: t0, ExpiresAt: t0.Add(time.Hour), Binding: testBinding}
	for name, tc := range map[string]struct {
		edit func(*Payload)
		code codes.Code
	}{
		"uppercase id":     {func(p *Payload) { p.ID = strings.Repeat("A", 32) }, ""},
		"short id":         {func(p *Payload) { p.ID = "abc" }, ""},
		"path id":          {func(p *Payload) { p.ID = "../../../../../../../../etc/pass" }, ""},
		"no engine":        {func(p *Payload) { p.Binding.Engine = "" }, ""},
		"no tools":         {func(p *Payload) { p.Binding.Tools = "" }, ""},
		"expiry first":     {func(p *Payload) { p.ExpiresAt = t0.Add(-time.Second) }, codes.TokenLifetime},
		"same second":      {func(p *Payload) { p.ExpiresAt = t0.Add(500 * time.Millisecond) }, codes.TokenLifetime},
		"too long":         {func(p *Payload) { p.ExpiresAt = t0.Add(MaxLifetime + time.Second) }, codes.TokenLifetime},
		"body too large":   {func(p *Payload) { p.Body = make([]byte, MaxBodySize+1) }, codes.TokenTooLarge},
		"token too large":  {func(p *Payload) { p.Body = randBytes(MaxTokenSize) }, codes.TokenTooLarge},
		"fine at maximums": {func(p *Payload) { p.ExpiresAt = t0.Add(MaxLifetime); p.Body = make([]byte, MaxBodySize) }, "ok"},
	} {
		t.Run(name, func(t *testing.T) {
			p := ok
			tc.edit(&p)
			_, err := kr.Seal(p)
			switch tc.code {
			case "ok":
				if err != nil {
					t.Fatal(err)
				}
			case "":
				if err == nil || CodeOf(err) != "" {
					t.Fatalf("got %v, want a plain error", err)
				}
			default:
				wantCode(t, err, tc.code)
			}
		})
	}
	if _, err := (&Keyring{}).Seal(ok); err == nil {
		t.Error("empty keyring sealed")
	}
	bad := fixedKey(1)
	bad.ID = fixedKey(2).ID
	if _, err := (&Keyring{Active: bad}).Seal(ok); err == nil {
		t.Error("key with a foreign id sealed")
	}
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func TestErrorType(t *testing.T) {
	cause := errors.New("disk on fire")
	var err error = fmt.Errorf("resume: %w", &Error{Code: codes.TokenUsed, Message: "token x was already used", Err: cause})
	if CodeOf(err) != codes.TokenUsed || CodeOf(cause) != "" {
		t.Error("CodeOf")
	}
	if !errors.Is(err, cause) || !errors.Is(err, &Error{Code: codes.TokenUsed}) || errors.Is(err, &Error{Code: codes.TokenExpired}) {
		t.Error("errors.Is")
	}
	if got := err.Error(); got != "resume: TOKEN_USED: token x was already used: disk on fire" {
		t.Errorf("Error() = %q", got)
	}
}

func TestKeyNeverPrinted(t *testing.T) {
	k := fixedKey(0x41)
	kr := Keyring{Active: k, Previous: []Key{fixedKey(0x61)}}
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v %+v %#v %s", kr, kr, kr, &kr), fmt.Sprintf("%#v", k)} {
		if strings.Contains(s, "ABC") || strings.Contains(s, "abc") || strings.Contains(s, k.Encode()) ||
			strings.Contains(s, "65 66 67") || !strings.Contains(s, k.ID) {
			t.Errorf("printed %q", s)
		}
	}
}

func TestTokenSize(t *testing.T) {
	kr := newKeyring(t)
	for _, c := range []struct {
		name string
		body []byte
	}{{"empty", nil}, {"2 KB JSON", jsonBody(2048)}, {"2 KB random", randBytes(2048)}, {"10 KB JSON", jsonBody(10240)}} {
		tok := sealBody(t, kr, c.body)
		t.Logf("%-12s body %5d bytes -> token %5d bytes", c.name, len(c.body), len(tok))
	}
	if n := len(sealBody(t, kr, nil)); n > 210 {
		t.Errorf("empty token is %d bytes", n)
	}
}
