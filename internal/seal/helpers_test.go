package seal

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// t0 is the issue time of most test tokens.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// testBinding is the binding of most test tokens.
var testBinding = Binding{
	Engine: "9f2c6a1e0b7d4c3a8e5f6b1d2c3a4e5f9f2c6a1e0b7d4c3a8e5f6b1d2c3a4e5f",
	Tools:  "1b3d5f7a9c2e4a6b8d0f1b3d5f7a9c2e4a6b8d0f1b3d5f7a9c2e4a6b8d0f1b3d",
}

// fixedKey returns a key whose secret is 32 bytes counting up from b.
func fixedKey(b byte) Key {
	s := make([]byte, SecretSize)
	for i := range s {
		s[i] = b + byte(i)
	}
	k, err := NewKey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// newKeyring returns a keyring with a fresh random active key.
func newKeyring(t testing.TB) *Keyring {
	t.Helper()
	k, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return &Keyring{Active: k}
}

// sealBody seals body issued at t0 for a day, bound to testBinding.
func sealBody(t testing.TB, kr *Keyring, body []byte) string {
	t.Helper()
	tok, err := kr.Seal(Payload{IssuedAt: t0, ExpiresAt: t0.Add(24 * time.Hour), Binding: testBinding, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// wantCode fails unless err is an *Error with the given code.
func wantCode(t testing.TB, err error, code codes.Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v, want code %s", err, code)
	}
	if e.Code != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
}

// jsonBody returns a plausible run body (code, limits, seed and a journal
// of tool calls) of about n bytes of JSON.
func jsonBody(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	type call struct {
		Seq    int            `json:"seq"`
		Tool   string         `json:"tool"`
		Args   map[string]any `json:"args"`
		Result map[string]any `json:"result"`
	}
	body := struct {
		Code    string         `json:"code"`
		Limits  map[string]any `json:"limits"`
		Seed    uint64         `json:"seed"`
		Journal []call         `json:"journal"`
	}{
		Code: `const issues = await github.list_issues({repo: "modebox/modebox", state: "open"});
for (const i of issues) { if (i.labels.includes("bug")) await github.add_comment({number: i.number, body: "triaged"}); }`,
		Limits: map[string]any{"timeout": "30s", "memory": "64MiB", "fuel": 1e9, "maxCalls": 100},
		Seed:   r.Uint64(),
	}
	tools := []string{"github.get_issue", "github.add_comment", "fs.read", "fetch.get"}
	for i := 0; ; i++ {
		b, _ := json.Marshal(body)
		if len(b) >= n {
			return b[:n:n]
		}
		body.Journal = append(body.Journal, call{
			Seq:  i,
			Tool: tools[r.IntN(len(tools))],
			Args: map[string]any{"repo": "modebox/modebox", "number": r.IntN(5000)},
			Result: map[string]any{
				"id":    fmt.Sprintf("%016x", r.Uint64()),
				"title": fmt.Sprintf("issue %d: crash when resuming after %d ms", r.IntN(5000), r.IntN(100000)),
				"ok":    r.IntN(2) == 0,
			},
		})
	}
}
