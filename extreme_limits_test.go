package modebox_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
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
