package runner

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/toolbox"
)

// TestPauseTokenTooLarge checks that a run that pauses with a token over
// the token cap ends as a failed run with TOKEN_TOO_LARGE, not as an error
// from Run (which is for invalid requests only).
func TestPauseTokenTooLarge(t *testing.T) {
	blob := make([]byte, 900<<10)
	if _, err := rand.Read(blob); err != nil {
		t.Fatal(err)
	}
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{
		{Name: "read", Description: "Reads.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, json.RawMessage) (any, error) { return blob, nil }},
		c.tool("post", policy.Ask, false, false),
	}, nil, true)
	out := run(t, r, `const b = await tools.read({}); return await tools.post({n: b.length});`, Request{})
	if out.Result == nil || out.Result.Paused || out.Token != "" || len(out.Pending) != 0 {
		t.Fatalf("paused: %+v, token %d bytes", out.Result, len(out.Token))
	}
	if out.Result.Err == nil || out.Result.Err.Code != codes.TokenTooLarge || !strings.Contains(out.Result.Err.Message, "token") {
		t.Fatalf("error %+v", out.Result.Err)
	}
	if out.Result.Journal == nil || c.get("post") != 0 {
		t.Errorf("journal %v, post ran %d times", out.Result.Journal, c.get("post"))
	}
}

// TestPauseJournalTooLarge checks that a run whose tool results went past
// what a token can carry (its journal dropped them) and then pauses ends
// as a failed run with TOKEN_TOO_LARGE, as a token over the cap does: a
// token without the results would run the tools again on resume.
func TestPauseJournalTooLarge(t *testing.T) {
	blob := strings.Repeat("x", 1<<20)
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{
		{Name: "read", Description: "Reads.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, json.RawMessage) (any, error) { return blob, nil }},
		c.tool("post", policy.Ask, false, false),
	}, nil, true)
	out := run(t, r, `
		let n = 0;
		for (let i = 0; i < 20; i++) n += (await tools.read({})).length;
		return await tools.post({n});`, Request{})
	if out.Result == nil || out.Result.Paused || out.Token != "" || len(out.Pending) != 0 {
		t.Fatalf("paused: %+v, token %d bytes", out.Result, len(out.Token))
	}
	if e := out.Result.Err; e == nil || e.Code != codes.TokenTooLarge || !strings.Contains(e.Message, "tool results exceed what a token can carry") {
		t.Fatalf("error %+v", e)
	}
	if c.get("post") != 0 {
		t.Errorf("post ran %d times", c.get("post"))
	}
}
