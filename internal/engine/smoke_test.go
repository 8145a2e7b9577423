package engine

import (
	"context"
	"testing"

	"github.com/modebox/modebox/internal/tsx"
)

func runJS(t testing.TB, src string, lim Limits, host Host) *Result {
	t.Helper()
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(context.Background(), Request{Code: p.Code, Setup: []byte(`{"tools":[]}`), Seed: 42, Limits: lim, Host: host})
}

func TestSmoke(t *testing.T) {
	r := runJS(t, `console.log("hi", {a:1}); return 1+2`, Limits{}, nil)
	t.Logf("value=%s err=%+v logs=%+v stats=%+v", r.Value, r.Err, r.Logs, r.Stats)
}
