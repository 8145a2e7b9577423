package integration_test

import (
	"context"
	"testing"

	"github.com/modebox/modebox"
)

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

var addTool = modebox.MustTool("add", "Adds two numbers.", func(_ context.Context, in addIn) (float64, error) {
	return in.A + in.B, nil
})

func newEngine(t testing.TB, tools ...modebox.Tool) *modebox.Engine {
	t.Helper()
	e, err := modebox.New(modebox.EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func run(t testing.TB, e *modebox.Engine, code string, opts modebox.RunOptions) *modebox.Result {
	t.Helper()
	r, err := e.Run(context.Background(), code, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunBasics(t *testing.T) {
	e := newEngine(t, addTool)
	r := run(t, e, `const x: number = await tools.add({a: 1, b: 2}); console.log("x", x); return {x}`, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != `{"x":3}` {
		t.Fatalf("got %s %+v", r.Value, r.Error)
	}
	r = run(t, e, `return await tools.add({a: "1", b: 2})`, modebox.RunOptions{})
	t.Logf("%+v", r.Error)
	r = run(t, e, "\n\nthrow new Error('boom')", modebox.RunOptions{})
	t.Logf("%+v", r.Error)
}
