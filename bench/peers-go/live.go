package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/modebox/modebox"
	"modernc.org/quickjs"
)

// The memory-per-live-run row: liveRuns runs of liveProgram are started
// on one engine and left waiting in their host call, all at once; the
// figure is the growth of the process's resident memory (its
// proportional set size, which counts the Go heap, wasm linear memory and
// modernc's C heap alike) divided by liveRuns. Then every call is answered and every result
// checked.
const (
	liveRuns    = 64
	liveProgram = "const r = await tools.add({ a: 1, b: 2 });\nreturn r + 1;\n"
	liveWant    = "4"
)

// rss is the process's resident memory in bytes: its proportional set
// size (Pss in /proc/self/smaps_rollup), so that a page mapped more than
// once counts once; /proc/self/statm's resident pages where there is no
// smaps_rollup.
func rss() (int64, error) {
	if b, err := os.ReadFile("/proc/self/smaps_rollup"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
				kb, err := strconv.ParseInt(f[1], 10, 64)
				if err != nil {
					return 0, err
				}
				return kb << 10, nil
			}
		}
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, errors.New("statm: unexpected format")
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, err
	}
	return pages * int64(os.Getpagesize()), nil
}

func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

// liveKiB runs the row for one engine and returns KiB per live run.
func liveKiB(name string) (float64, error) {
	switch name {
	case "modebox":
		return liveModebox()
	case "goja":
		return liveJS(func() (jsVM, error) { return newGojaVM() })
	case "modernc":
		return liveJS(func() (jsVM, error) { return newModerncVM() })
	}
	return 0, fmt.Errorf("no live row for %s", name)
}

func liveModebox() (float64, error) {
	var entered sync.WaitGroup
	release := make(chan struct{})
	add := modebox.MustTool("add", "adds a and b, when released",
		func(ctx context.Context, in addIn) (float64, error) {
			entered.Done()
			select {
			case <-release:
			case <-ctx.Done():
				return 0, ctx.Err()
			}
			return in.A + in.B, nil
		})
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{add}, MaxRuns: liveRuns})
	if err != nil {
		return 0, err
	}
	defer eng.Close()
	// warm: one run through, so that shared state is not counted
	entered.Add(1)
	go func() { entered.Wait(); release <- struct{}{} }()
	if _, err := eng.Run(context.Background(), liveProgram, modebox.RunOptions{Lang: "js"}); err != nil {
		return 0, err
	}
	settle()
	before, err := rss()
	if err != nil {
		return 0, err
	}
	entered.Add(liveRuns)
	results := make(chan error, liveRuns)
	for range liveRuns {
		go func() {
			res, err := eng.Run(context.Background(), liveProgram, modebox.RunOptions{Lang: "js"})
			switch {
			case err != nil:
				results <- err
			case res.Error != nil:
				results <- fmt.Errorf("%s: %s", res.Error.Code, res.Error.Message)
			case string(res.Value) != liveWant:
				results <- fmt.Errorf("modebox returned %s, want %s", res.Value, liveWant)
			default:
				results <- nil
			}
		}()
	}
	entered.Wait() // every run is waiting in its call
	settle()
	after, err := rss()
	if err != nil {
		return 0, err
	}
	close(release)
	for range liveRuns {
		if err := <-results; err != nil {
			return 0, err
		}
	}
	return float64(after-before) / 1024 / liveRuns, nil
}

// jsVM is a goja or modernc VM with liveProgram started in it and its
// call pending.
type jsVM interface {
	start(src string) error
	finish() (string, error) // answers the call, runs the jobs, returns the result
	close()
}

// liveWrap is wrap with a tools.add whose promise stays pending until
// __settle() is called: the call in flight, as in modebox's row.
func liveWrap(src string) string {
	return "globalThis.tools = { add: (x) => new Promise((res) => { globalThis.__settle = () => res(__add(x)); }) };\n" +
		"(async () => {\n" + src + "\n})().then(" +
		"(v) => { globalThis.__r = JSON.stringify(v); }, " +
		"(e) => { globalThis.__e = String((e && e.stack) || e); });\n"
}

func liveJS(newVM func() (jsVM, error)) (float64, error) {
	warm, err := newVM()
	if err != nil {
		return 0, err
	}
	if err := warm.start(liveProgram); err != nil {
		return 0, err
	}
	if _, err := warm.finish(); err != nil {
		return 0, err
	}
	warm.close()
	settle()
	before, err := rss()
	if err != nil {
		return 0, err
	}
	vms := make([]jsVM, 0, liveRuns)
	for range liveRuns {
		vm, err := newVM()
		if err != nil {
			return 0, err
		}
		if err := vm.start(liveProgram); err != nil {
			return 0, err
		}
		vms = append(vms, vm)
	}
	settle()
	after, err := rss()
	if err != nil {
		return 0, err
	}
	for _, vm := range vms {
		got, err := vm.finish()
		if err != nil {
			return 0, err
		}
		if got != liveWant {
			return 0, fmt.Errorf("returned %s, want %s", got, liveWant)
		}
		vm.close()
	}
	return float64(after-before) / 1024 / liveRuns, nil
}

type gojaVM struct{ vm *goja.Runtime }

func newGojaVM() (*gojaVM, error) {
	vm := goja.New()
	if err := vm.Set("__add", func(x map[string]any) float64 { return toF(x["a"]) + toF(x["b"]) }); err != nil {
		return nil, err
	}
	return &gojaVM{vm: vm}, nil
}

func (g *gojaVM) start(src string) error {
	_, err := g.vm.RunString(liveWrap(src))
	return err
}

func (g *gojaVM) finish() (string, error) {
	if _, err := g.vm.RunString("__settle()"); err != nil {
		return "", err
	}
	if e := g.vm.Get("__e"); e != nil && !goja.IsUndefined(e) {
		return "", errors.New(e.String())
	}
	r := g.vm.Get("__r")
	if r == nil || goja.IsUndefined(r) {
		return "", errors.New("goja: the program did not settle")
	}
	return r.String(), nil
}

func (g *gojaVM) close() {}

type moderncVM struct{ vm *quickjs.VM }

func newModerncVM() (*moderncVM, error) {
	vm, err := quickjs.NewVM()
	if err != nil {
		return nil, err
	}
	if err := registerAdd(vm); err != nil {
		vm.Close()
		return nil, err
	}
	return &moderncVM{vm: vm}, nil
}

func (m *moderncVM) jobs() error {
	for {
		n, err := m.vm.ExecutePendingJobs()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
	}
}

func (m *moderncVM) start(src string) error {
	if _, err := m.vm.Eval(liveWrap(src), quickjs.EvalGlobal); err != nil {
		return err
	}
	return m.jobs()
}

func (m *moderncVM) finish() (string, error) {
	if _, err := m.vm.Eval("__settle()", quickjs.EvalGlobal); err != nil {
		return "", err
	}
	if err := m.jobs(); err != nil {
		return "", err
	}
	if e, err := m.vm.Eval("globalThis.__e", quickjs.EvalGlobal); err == nil {
		if s, ok := e.(string); ok {
			return "", errors.New(s)
		}
	}
	r, err := m.vm.Eval("globalThis.__r", quickjs.EvalGlobal)
	if err != nil {
		return "", err
	}
	s, ok := r.(string)
	if !ok {
		return "", errors.New("modernc: the program did not settle")
	}
	return s, nil
}

func (m *moderncVM) close() { m.vm.Close() }
