package modebox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// TestLimitsAtTheirExtremes runs with Go API limits at the largest values
// their types hold, where a limit plus a margin once wrapped around: a
// MaxValue near MaxInt refused every host call (timers too), and a fetch
// MaxBytes of MaxInt64 returned every body empty.
func TestLimitsAtTheirExtremes(t *testing.T) {
	echo := modebox.MustTool("echo", "returns its input", func(ctx context.Context, in map[string]any) (map[string]any, error) { return in, nil })
	// MaxValue 1 still lets a timer fire: its {"ms":1} was refused as a
	// value over the limit, and the run ended NEVER_SETTLED.
	for _, l := range []modebox.Limits{{MaxValue: math.MaxInt}, {MaxValue: math.MaxInt - 1024}, {MaxValue: math.MaxInt - 1023}, {MaxLog: math.MaxInt}, {MaxValue: 1}} {
		t.Run(fmt.Sprintf("%+v", l), func(t *testing.T) {
			eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{echo}, Limits: l})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			prog := `console.log("x"); await new Promise(r => setTimeout(r, 1)); return (await tools.echo({a: 1})).a`
			if l.MaxValue == 1 {
				prog = `await new Promise(r => setTimeout(r, 1)); return 1`
			}
			res, err := eng.Run(context.Background(), prog, modebox.RunOptions{})
			if err != nil || res.Error != nil || string(res.Value) != "1" {
				t.Fatalf("run: %v %+v", err, res)
			}
		})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello body") }))
	defer srv.Close()
	for _, n := range []int64{math.MaxInt64, math.MaxInt64 - 1, 1 << 53} {
		t.Run(fmt.Sprint("fetch ", n), func(t *testing.T) {
			eng, err := modebox.New(modebox.EngineConfig{
				Fetch:    &modebox.FetchConfig{Allow: []string{strings.TrimPrefix(srv.URL, "http://")}, MaxBytes: n, MaxHeaderBytes: n, MaxRequestBody: n},
				Policies: map[string]modebox.Policy{"fetch": modebox.PolicyAllow},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			res, err := eng.Run(context.Background(), `const r = await fetch("`+srv.URL+`/x", {method: "POST", body: "abc"}); return await r.text()`, modebox.RunOptions{})
			if err != nil || res.Error != nil || string(res.Value) != `"hello body"` {
				t.Fatalf("run: %v %+v", err, res)
			}
		})
	}
}

// TestHugeProgramsFailCleanly runs programs that once ended or swamped the
// host: 300,000 parentheses (esbuild's parser then passed Go's 1 GB
// stack, a fatal error for the whole process) fail as a syntax error
// that says why, and an error on a line of megabytes carries a clipped
// Source, not the line (24 MB results against a 4 MiB value limit).
func TestHugeProgramsFailCleanly(t *testing.T) {
	eng, err := modebox.New(modebox.EngineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, lang := range []modebox.Lang{modebox.LangJS, modebox.LangTS} {
		res, err := eng.Run(context.Background(), "return "+strings.Repeat("(", 300_000)+"1"+strings.Repeat(")", 300_000), modebox.RunOptions{Lang: lang})
		if err != nil || res.Error == nil || res.Error.Code != modebox.CodeSyntaxError || !strings.Contains(res.Error.Message, "nests too deeply") || len(res.Error.Source) > modebox.MaxSourceLine+8 {
			t.Fatalf("%s: %v %.500v", lang, err, res.Error)
		}
	}
	long := strings.Repeat("x", 3<<20)
	for _, prog := range []string{
		"let s = '" + long + "'; return s +",                // a syntax error at the end
		"let s = '" + long + "'; throw new Error('at end')", // a runtime error on the line
	} {
		res, err := eng.Run(context.Background(), prog, modebox.RunOptions{Lang: modebox.LangJS})
		if err != nil || res.Error == nil || res.Error.Line != 1 || res.Error.Source == "" || len(res.Error.Source) > modebox.MaxSourceLine+8 {
			t.Fatalf("%v %.500v", err, res.Error)
		}
	}
}

// allocated returns the bytes the process allocated while f ran (a count
// of allocations, not a time: the same on a loaded machine).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestResultsOverTheValueLimitNotEncoded: a result that cannot be
// returned (over Limits.MaxValue) is refused before the host reads or
// encodes it all. Sixteen fs.read calls of a 16 MiB file of "<" allocated
// 3.8 GB (each read whole, then JSON-escaped to six times its size) for a
// 4 MiB value limit; eight fetches of 10 MiB of control bytes 816 MB. (A
// Go tool's result is the embedder's own: it is encoded, then measured.)
func TestResultsOverTheValueLimitNotEncoded(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("<", 16<<20)), 0o600); err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("\x01", 10<<20)
	raw := []byte(body)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain") // no Content-Length: read to the cap
		for i := 0; i < len(raw); i += 64 << 10 {
			if _, err := w.Write(raw[i : i+64<<10]); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	eng, err := modebox.New(modebox.EngineConfig{
		FS:       &modebox.FSConfig{Mounts: []modebox.Mount{{Host: dir, Guest: "/d"}}},
		Fetch:    &modebox.FetchConfig{Allow: []string{strings.TrimPrefix(srv.URL, "http://")}},
		Policies: map[string]modebox.Policy{"fetch": modebox.PolicyAllow, "fs.*": modebox.PolicyAllow},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, c := range []struct {
		name, prog string
		max        uint64
	}{
		{"fs.read", `return (await Promise.allSettled(Array.from({length: 16}, () => fs.read("/d/big.txt")))).map(r => r.reason?.code)`, 64 << 20},
		{"fetch", `return (await Promise.allSettled(Array.from({length: 8}, () => fetch("` + srv.URL + `").then(r => r.text())))).map(r => r.reason?.code)`, 400 << 20}, // -race: 264 MiB; without the fix 816
	} {
		var res *modebox.Result
		n := allocated(func() {
			res, err = eng.Run(context.Background(), c.prog, modebox.RunOptions{Lang: modebox.LangJS})
		})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", c.name, err, res.Error)
		}
		var codes []string
		if err := json.Unmarshal(res.Value, &codes); err != nil || len(codes) == 0 {
			t.Fatalf("%s: %s", c.name, res.Value)
		}
		for _, code := range codes {
			if code != "VALUE_TOO_LARGE" && code != "FETCH_TOO_LARGE" {
				t.Fatalf("%s: %s", c.name, res.Value)
			}
		}
		if n > c.max {
			t.Errorf("%s: the host allocated %d MiB (at most %d expected)", c.name, n>>20, c.max>>20)
		}
		t.Logf("%s: %d MiB allocated", c.name, n>>20)
	}
}
