package integration_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// TestToolErrorsNameTheLine: a failed tool call's error (the tool's own
// error, a schema's INVALID_ARGUMENT, a policy's TOOL_DENIED) names the
// program's line of the call, as an error thrown by the program does; the
// call's promise is settled when no frame of the program's is on the
// stack, so the line is the call's, noted when it started.
func TestToolErrorsNameTheLine(t *testing.T) {
	fail := modebox.MustTool("fail", "Fails.", func(ctx context.Context, in struct{}) (int, error) {
		return 0, errors.New("it broke")
	})
	typed := modebox.MustTool("typed", "Needs n.", func(ctx context.Context, in struct {
		N int `json:"n"`
	}) (int, error) {
		return in.N, nil
	})
	denied := modebox.MustTool("denied", "Never runs.", func(ctx context.Context, in struct{}) (int, error) { return 1, nil })
	eng, err := modebox.New(modebox.EngineConfig{
		Tools:    []modebox.Tool{fail, typed, denied},
		Policies: map[string]modebox.Policy{"denied": modebox.PolicyDeny},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, c := range []struct {
		lang       modebox.Lang
		prog, code string
		line       int
		source     string
	}{
		{"js", "const a = 1\nawait tools.typed({n: 1})\nawait tools.fail({})\nreturn a", "TOOL_ERROR", 3, "await tools.fail({})"},
		{"js", "const a = 1\n\nawait tools.typed({n: 'x'})\n", "INVALID_ARGUMENT", 3, "await tools.typed({n: 'x'})"},
		{"js", "const a = 1\nawait tools.denied({})\n", "TOOL_DENIED", 2, "await tools.denied({})"},
		// from a function: the line of the call inside it
		{"js", "async function go() {\n  await tools.typed({n: 2})\n  return await tools.fail({})\n}\nawait go()\n", "TOOL_ERROR", 3, "  return await tools.fail({})"},
		// several calls in flight: each error has its own call's line
		{"js", "const a = tools.typed({n: 1})\nconst b = tools.fail({})\nawait a\nawait b\n", "TOOL_ERROR", 2, "const b = tools.fail({})"},
		// TypeScript: the original line, through the source map
		{"ts", "type T = { n: number }\nconst t: T = { n: 1 }\n\nawait tools.fail({})\n", "TOOL_ERROR", 4, "await tools.fail({})"},
		{"ts", "enum E { A }\nconst t: number = E.A\nawait tools.fail({})\n", "TOOL_ERROR", 3, "await tools.fail({})"},
	} {
		res, err := eng.Run(context.Background(), c.prog, modebox.RunOptions{Lang: c.lang})
		if err != nil || res.Error == nil {
			t.Fatalf("%q: %v %+v", c.prog, err, res)
		}
		e := res.Error
		if string(e.Code) != c.code || e.Line != c.line || e.Source != c.source || !strings.Contains(e.Stack, ":"+itoa(c.line)) {
			t.Errorf("%q:\n got code %s line %d source %q stack %q\nwant %s line %d source %q", c.prog, e.Code, e.Line, e.Source, e.Stack, c.code, c.line, c.source)
		}
	}
	// caught: the program's own e.stack has the frame too
	res, err := eng.Run(context.Background(), "const a = 1\ntry { await tools.fail({}) } catch (e) { return e.stack }", modebox.RunOptions{Lang: "js"})
	if err != nil || res.Error != nil || !strings.Contains(string(res.Value), "at __modebox_main (main.js:") {
		t.Fatalf("caught: %v %+v %s", err, res.Error, res.Value)
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}
