package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/toolbox"
)

// TestDeepValueTokenResumes checks that a paused run whose journal and
// pending arguments hold values as deep as engine.MaxDepth seals a token
// that opens and resumes, and that a tool result deeper than that fails
// its call with VALUE_TOO_LARGE rather than making a token that cannot
// open.
func TestDeepValueTokenResumes(t *testing.T) {
	deep := func(n int) json.RawMessage {
		return json.RawMessage(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{
		{Name: "src", Description: "Source.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct{ N int }
				_ = json.Unmarshal(args, &a)
				return deep(a.N), nil
			}},
		c.tool("ask", policy.Ask, false, false),
	}, nil, true)
	out := run(t, r, `const a = await tools.src({n: `+itoa(engine.MaxDepth)+`});
const b = await tools.src({n: 9998}).catch(e => e.code);
return [b, (await tools.ask({a: a[0][0]})).tool];`, Request{})
	if out.Result == nil || !out.Result.Paused || out.Token == "" {
		t.Fatalf("did not pause: %+v", out.Result)
	}
	res, err := r.Resume(context.Background(), out.Token, Decisions{Default: Approve}, nil)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if v := value(t, res); v.([]any)[0] != "VALUE_TOO_LARGE" || v.([]any)[1] != "ask" {
		t.Errorf("got %v", v)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
