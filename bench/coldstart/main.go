// Command coldstart measures modebox's first run in a fresh process, for
// bench/peers.sh: the time from main() to the first completed Engine.Run of
// bench/programs/empty.js. That covers compiling (or loading from the
// compilation cache in $MODEBOX_CACHE_DIR) the engine image, taking the init
// snapshot and the first restored run. Go runtime start-up is not counted,
// just as the run peer's figure does not count Node's own start-up.
//
// Usage: coldstart PROGRAMS_DIR
// Prints: "<ms> <result JSON>".
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/tsx"
)

func main() {
	t0 := time.Now()
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: coldstart PROGRAMS_DIR")
		os.Exit(2)
	}
	src, err := os.ReadFile(filepath.Join(os.Args[1], "empty.js"))
	if err != nil {
		fail(err)
	}
	e, err := engine.Shared()
	if err != nil {
		fail(err)
	}
	p, err := tsx.Transform(string(src), tsx.JS)
	if err != nil {
		fail(err)
	}
	r := e.Run(context.Background(), engine.Request{
		Code:  p.Code,
		Setup: []byte(`{"tools":[{"key":"add","path":["add"]}]}`),
	})
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	if r.Err != nil {
		fail(fmt.Errorf("%s: %s", r.Err.Code, r.Err.Message))
	}
	fmt.Printf("%.6f %s\n", ms, r.Value)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "coldstart:", err)
	os.Exit(1)
}
