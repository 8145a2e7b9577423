package seal

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

func TestRotation(t *testing.T) {
	old, next := fixedKey(1), fixedKey(100)
	before := &Keyring{Active: old}
	tok := sealBody(t, before, []byte(`{"n":1}`))

	rotated := &Keyring{Active: next, Previous: []Key{old}}
	if _, err := rotated.Open(tok, testBinding, now1); err != nil {
		t.Fatalf("old token after rotation: %v", err)
	}
	fresh := sealBody(t, rotated, []byte(`{"n":2}`))
	if got := rawOf(t, fresh)[offKid:offIssued]; string(got) != string(mustHex(t, next.ID)) {
		t.Fatalf("sealed with key id %x, want the new active key %s", got, next.ID)
	}
	if _, err := before.Open(fresh, testBinding, now1); CodeOf(err) != codes.TokenUnknownKey {
		t.Fatalf("new token with the old keyring: %v", err)
	}

	dropped := &Keyring{Active: next}
	_, err := dropped.Open(tok, testBinding, now1)
	wantCode(t, err, codes.TokenUnknownKey)
	if !strings.Contains(err.Error(), old.ID) {
		t.Errorf("error %q does not name the key id", err)
	}
	if _, err := dropped.Open(fresh, testBinding, now1); err != nil {
		t.Fatal(err)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestKeyID(t *testing.T) {
	k := fixedKey(0)
	// sha256 of 00 01 … 1f.
	if k.ID != "630dcd2966c43366" {
		t.Errorf("KeyID = %s", k.ID)
	}
	if _, err := NewKey(make([]byte, 31)); err == nil {
		t.Error("31-byte key accepted")
	}
}

func TestParseKey(t *testing.T) {
	secret := make([]byte, SecretSize)
	for i := range secret {
		secret[i] = byte(0xfb + i) // makes both -_ and +/ appear
	}
	want := KeyID(secret)
	good := []string{
		base64.RawURLEncoding.EncodeToString(secret),
		base64.URLEncoding.EncodeToString(secret),
		base64.RawStdEncoding.EncodeToString(secret),
		base64.StdEncoding.EncodeToString(secret),
	}
	for _, s := range good {
		k, err := ParseKey(s)
		if err != nil || k.ID != want {
			t.Errorf("ParseKey(%q) = %v, %v", s, k, err)
		}
	}
	raw := good[0]
	last := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", raw[len(raw)-1])
	bad := map[string]string{
		"empty":          "",
		"short":          base64.RawURLEncoding.EncodeToString(secret[:31]),
		"long":           base64.RawURLEncoding.EncodeToString(append(secret, 0)),
		"mixed alphabet": strings.Replace(good[2], "+", "-", 1),
		"trailing bits":  raw[:len(raw)-1] + string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last|1]),
		"newline":        raw[:10] + "\n" + raw[10:],
		"space":          raw + " ",
		"double padding": raw + "==",
		"hex":            strings.Repeat("ab", 32),
		"quotes":         `"` + raw + `"`,
	}
	for name, s := range bad {
		if _, err := ParseKey(s); err == nil {
			t.Errorf("%s: %q accepted", name, s)
		}
	}
}
