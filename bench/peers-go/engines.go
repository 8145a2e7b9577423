package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/dop251/goja"
	"github.com/modebox/modebox"
	"modernc.org/quickjs"
)

// An engine runs one program from scratch (a fresh run, VM or context) and
// returns its result as JSON text.
type engine interface {
	name() string
	run(src string) (string, error)
}

// wrap turns a program body (top-level return and await) into a script
// that leaves JSON.stringify of the result in globalThis.__r, the same
// semantics modebox gives a program. tools.add is async, as a modebox tool
// is, over a synchronous Go function __add.
func wrap(src string) string {
	return "globalThis.tools = { add: async (x) => __add(x) };\n" +
		"(async () => {\n" + src + "\n})().then(" +
		"(v) => { globalThis.__r = JSON.stringify(v); }, " +
		"(e) => { globalThis.__e = String((e && e.stack) || e); });\n"
}

// --- modebox, through its public API as a Go user would call it ---

type modeboxEngine struct{ eng *modebox.Engine }

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

func newModebox() (*modeboxEngine, error) {
	add := modebox.MustTool("add", "adds a and b",
		func(_ context.Context, in addIn) (float64, error) { return in.A + in.B, nil })
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{add}})
	if err != nil {
		return nil, err
	}
	return &modeboxEngine{eng: eng}, nil
}

func (*modeboxEngine) name() string { return "modebox" }

func (m *modeboxEngine) run(src string) (string, error) {
	res, err := m.eng.Run(context.Background(), src, modebox.RunOptions{Lang: "js"})
	if err != nil {
		return "", err
	}
	if res.Error != nil {
		return "", fmt.Errorf("%s: %s", res.Error.Code, res.Error.Message)
	}
	return string(res.Value), nil
}

// --- goja: a new Runtime per run ---

type gojaEngine struct{}

func (gojaEngine) name() string { return "goja" }

func (gojaEngine) run(src string) (string, error) {
	vm := goja.New()
	if err := vm.Set("__add", func(x map[string]any) float64 {
		return toF(x["a"]) + toF(x["b"])
	}); err != nil {
		return "", err
	}
	// goja runs the promise jobs before RunString returns.
	if _, err := vm.RunString(wrap(src)); err != nil {
		return "", err
	}
	if e := vm.Get("__e"); e != nil && !goja.IsUndefined(e) {
		return "", errors.New(e.String())
	}
	r := vm.Get("__r")
	if r == nil || goja.IsUndefined(r) {
		return "", errors.New("goja: the program did not settle")
	}
	return r.String(), nil
}

func toF(v any) float64 {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case int:
		return float64(n)
	case float64:
		return n
	}
	return 0
}

// --- modernc.org/quickjs: a new VM per run ---

// registerAdd gives vm the synchronous Go function __add the tools wrapper
// calls.
func registerAdd(vm *quickjs.VM) error {
	return vm.RegisterHostFunc("__add", func(args []any) (any, error) {
		o, ok := args[0].(*quickjs.Object)
		if !ok {
			return nil, errors.New("add: want an object")
		}
		var in addIn
		if err := o.Into(&in); err != nil {
			return nil, err
		}
		return in.A + in.B, nil
	})
}

type moderncEngine struct{}

func (moderncEngine) name() string { return "modernc" }

func (moderncEngine) run(src string) (string, error) {
	vm, err := quickjs.NewVM()
	if err != nil {
		return "", err
	}
	defer vm.Close()
	if err := registerAdd(vm); err != nil {
		return "", err
	}
	if _, err := vm.Eval(wrap(src), quickjs.EvalGlobal); err != nil {
		return "", err
	}
	for {
		n, err := vm.ExecutePendingJobs()
		if err != nil {
			return "", err
		}
		if n == 0 {
			break
		}
	}
	if e, err := vm.Eval("globalThis.__e", quickjs.EvalGlobal); err == nil {
		if s, ok := e.(string); ok {
			return "", errors.New(s)
		}
	}
	r, err := vm.Eval("globalThis.__r", quickjs.EvalGlobal)
	if err != nil {
		return "", err
	}
	s, ok := r.(string)
	if !ok {
		return "", errors.New("modernc: the program did not settle")
	}
	return s, nil
}

// newProgram is a distinct program of about 2 KB for round i: nothing can
// be cached between runs. Its result is i + 1.
func newProgram(i int) string {
	b := []byte("// program " + strconv.Itoa(i) + "\n")
	for j := 0; len(b) < 2000; j++ {
		b = fmt.Appendf(b, "function helper%d(x) { const y = x * %d + %d; return y > 1e9 ? y %% 7 : y - %d * x; }\n", j, j+1, i, j+1)
	}
	b = fmt.Appendf(b, "const base = %d;\nreturn helper0(base) + 1;\n", i)
	return string(b)
}
