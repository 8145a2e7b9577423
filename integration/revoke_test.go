package integration_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modebox/modebox"
)

// Engine.Revoke spends a token without running anything: no pending call
// runs, later resumes and revokes fail with TOKEN_USED, and a token that
// does not open is refused as Resume refuses it. A token issued under
// another tool set with the same key and store is revoked too (its
// binding is not compared), and concurrent revokes and resumes of one
// token let exactly one of them through.
func TestRevoke(t *testing.T) {
	c := &counter{}
	key := newKey(t)
	store := modebox.DirTokenStore(t.TempDir())
	mk := func(tools ...modebox.Tool) *modebox.Engine {
		e, err := modebox.New(modebox.EngineConfig{Tools: tools, Continuations: &modebox.Continuations{Keys: [][]byte{key}, Store: store}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	e := mk(c.tool("t", "free", ""), c.tool("t", "guarded", modebox.PolicyAsk), c.tool("t", "other", modebox.PolicyAsk))
	pause := func() string {
		t.Helper()
		r := run(t, e, pauseProgram, modebox.RunOptions{})
		if r.Status != modebox.StatusPaused || r.Token == "" {
			t.Fatalf("status %q err %+v", r.Status, r.Error)
		}
		return r.Token
	}
	code := func(err error) modebox.Code {
		var te *modebox.TokenError
		if errors.As(err, &te) {
			return te.Code
		}
		return ""
	}

	token := pause()
	if err := e.Revoke(token); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	if _, err := e.Resume(context.Background(), token, modebox.Decisions{Default: modebox.Approve}); code(err) != modebox.CodeTokenUsed {
		t.Fatalf("resume after revoke: %v", err)
	}
	if err := e.Revoke(token); code(err) != modebox.CodeTokenUsed {
		t.Fatalf("second revoke: %v", err)
	}
	if c.n("guarded") != 0 || c.n("other") != 0 {
		t.Fatalf("a revoked token's calls ran: %+v", c.calls)
	}

	// tampered, truncated, another key: refused as a resume refuses them
	token = pause()
	// another base64url character (flipping a bit can leave the
	// alphabet: 'A' ^ 1 is '@', and the token is then malformed)
	bad := []byte(token)
	if bad[len(bad)-5] == 'A' {
		bad[len(bad)-5] = 'B'
	} else {
		bad[len(bad)-5] = 'A'
	}
	if err := e.Revoke(string(bad)); code(err) != modebox.CodeTokenTampered {
		t.Errorf("tampered: %v", err)
	}
	if err := e.Revoke(token[:40]); code(err) != modebox.CodeTokenMalformed {
		t.Errorf("truncated: %v", err)
	}
	other, err := modebox.New(modebox.EngineConfig{Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}, Store: store}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Revoke(token); code(err) != modebox.CodeTokenUnknownKey {
		t.Errorf("another key: %v", err)
	}
	// none of those spent it
	if r, err := e.Resume(context.Background(), token, modebox.Decisions{Default: modebox.Deny}); err != nil || r.Status != modebox.StatusOK {
		t.Fatalf("resume after refused revokes: %v %+v", err, r)
	}

	// another tool set, same key and store: Resume refuses the binding,
	// Revoke spends the token anyway
	token = pause()
	changed := mk(c.tool("t", "free", ""))
	if _, err := changed.Resume(context.Background(), token, modebox.Decisions{Default: modebox.Deny}); code(err) != modebox.CodeTokenBinding {
		t.Fatalf("resume on another tool set: %v", err)
	}
	if err := changed.Revoke(token); err != nil {
		t.Fatalf("revoke on another tool set: %v", err)
	}
	if _, err := e.Resume(context.Background(), token, modebox.Decisions{Default: modebox.Approve}); code(err) != modebox.CodeTokenUsed {
		t.Fatalf("resume of a token revoked elsewhere: %v", err)
	}

	// revokes and resumes racing for one token: exactly one wins
	token = pause()
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i%2 == 0 {
				err = e.Revoke(token)
			} else {
				_, err = e.Resume(context.Background(), token, modebox.Decisions{Default: modebox.Approve})
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case code(err) != modebox.CodeTokenUsed:
				t.Errorf("racing: %v", err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d of 16 racing revokes and resumes went through", wins)
	}

	// an engine without continuations has nothing to revoke
	plain, err := modebox.New(modebox.EngineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	var ce *modebox.ConfigError
	if err := plain.Revoke(token); !errors.As(err, &ce) {
		t.Fatalf("no continuations: %v", err)
	}
}

// A revoke whose used-token record cannot be written says so, that the
// token may still resume and to revoke it again; here (no record made)
// it does resume once the store works again.
func TestRevokeStoreUnavailable(t *testing.T) {
	dir := t.TempDir() + "/tokens"
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	c := &counter{}
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{c.tool("t", "free", ""), c.tool("t", "guarded", modebox.PolicyAsk)},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}, Store: modebox.DirTokenStore(dir)}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r := run(t, e, pauseProgram, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("status %q err %+v", r.Status, r.Error)
	}
	// the store's directory becomes a file: no record can be written
	if err := os.Rename(dir, dir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = e.Revoke(r.Token)
	var te *modebox.TokenError
	if !errors.As(err, &te) || te.Code != modebox.CodeTokenStoreUnavailable {
		t.Fatalf("revoke with a broken store: %v", err)
	}
	if !strings.Contains(err.Error(), "may still resume: revoke it again") || strings.Contains(err.Error(), "not resumed") {
		t.Errorf("the message does not say the token may still be usable: %v", err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir+".away", dir); err != nil {
		t.Fatal(err)
	}
	if res, err := e.Resume(context.Background(), r.Token, modebox.Decisions{Default: modebox.Deny}); err != nil || res.Status != modebox.StatusOK {
		t.Fatalf("resume after the failed revoke: %v %+v", err, res)
	}
}
