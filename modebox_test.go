package modebox

import (
	"context"
	"testing"
)

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

var addTool = MustTool("add", "Adds two numbers.", func(_ context.Context, in addIn) (float64, error) {
	return in.A + in.B, nil
})

func newEngine(t testing.TB, tools ...Tool) *Engine {
	t.Helper()
	e, err := New(EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func run(t testing.TB, e *Engine, code string, opts RunOptions) *Result {
	t.Helper()
	r, err := e.Run(context.Background(), code, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunBasics(t *testing.T) {
	e := newEngine(t, addTool)
	r := run(t, e, `const x: number = await tools.add({a: 1, b: 2}); console.log("x", x); return {x}`, RunOptions{})
	if r.Error != nil || string(r.Value) != `{"x":3}` {
		t.Fatalf("got %s %+v", r.Value, r.Error)
	}
	r = run(t, e, `return await tools.add({a: "1", b: 2})`, RunOptions{})
	t.Logf("%+v", r.Error)
	r = run(t, e, "\n\nthrow new Error('boom')", RunOptions{})
	t.Logf("%+v", r.Error)
}
