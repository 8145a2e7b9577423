package integration_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// The hostile corpus: testdata/hostile/*.js and *.ts are guest programs
// that attack the bridge, each stating its expected outcome in header
// comments at the top of the file (before the first line that is not a
// "//" comment):
//
//	// expect: ok                   the run succeeds, any value
//	// expect: ok <JSON>            the run succeeds with this value (compared as JSON)
//	// expect: ok undefined         the run succeeds with no value
//	// expect: error CODE           the run fails with this code
//	// expect: error CODE|CODE2     ... with one of these codes
//	// expect: error CODE ~ text    ... and its message contains text
//	// log: text                    some console line contains text (repeatable)
//	// limits: timeout=2s memory=16MiB maxValue=1MiB maxLog=64KiB fuel=N maxCalls=N maxConcurrency=N
//
// Other comment lines are free text. Every run uses hostileLimits, narrowed
// by the file's limits line, except that a case that neither expects
// TIMEOUT nor sets a timeout gets unhurriedTimeout: on a loaded machine a
// 3 s wall clock would decide its outcome.

// hostileLimits are the tight default limits of corpus runs.
var hostileLimits = modebox.Limits{
	Timeout:        3 * time.Second,
	Memory:         32 << 20,
	MaxCalls:       300,
	MaxConcurrency: 8,
	MaxValue:       1 << 20,
	MaxLog:         64 << 10,
}

// hostileCase is one parsed corpus file.
type hostileCase struct {
	name     string
	code     string
	lang     string
	ok       bool
	value    json.RawMessage // nil: any value; "undefined": none
	codes    []string
	contains string
	logs     []string
	limits   modebox.Limits
	// timeoutSet: the file's limits line sets the timeout
	timeoutSet bool
}

// unhurriedTimeout is the timeout of a case that neither expects TIMEOUT
// nor sets its own: its outcome must not depend on how fast the machine
// is, so the wall clock is only a backstop there (the engine's default is
// 30s, and a run can only narrow it).
const unhurriedTimeout = 25 * time.Second

// parseHostile reads the header of a corpus file.
func parseHostile(name string, src []byte) (*hostileCase, error) {
	c := &hostileCase{name: name, code: string(src), lang: strings.TrimPrefix(filepath.Ext(name), "."), limits: hostileLimits}
	sawExpect := false
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "//") {
			break
		}
		key, val, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "//")), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "expect":
			if sawExpect {
				return nil, errors.New("two expect lines")
			}
			sawExpect = true
			if err := c.parseExpect(val); err != nil {
				return nil, err
			}
		case "log":
			c.logs = append(c.logs, val)
		case "limits":
			if err := c.parseLimits(val); err != nil {
				return nil, err
			}
		case "known-bug":
			return nil, fmt.Errorf("known-bug headers are not allowed: every case must pass (%s)", val)
		}
	}
	if !sawExpect {
		return nil, errors.New("no // expect: line in the header")
	}
	if !c.timeoutSet && (c.ok || !slices.Contains(c.codes, string(modebox.CodeTimeout))) {
		c.limits.Timeout = unhurriedTimeout
	}
	return c, nil
}

func (c *hostileCase) parseExpect(val string) error {
	kind, rest, _ := strings.Cut(val, " ")
	rest = strings.TrimSpace(rest)
	switch kind {
	case "ok":
		c.ok = true
		switch {
		case rest == "":
		case rest == "undefined":
			c.value = json.RawMessage("undefined")
		case json.Valid([]byte(rest)):
			c.value = json.RawMessage(rest)
		default:
			return fmt.Errorf("expect ok: %q is not JSON", rest)
		}
	case "error":
		codes, contains, _ := strings.Cut(rest, "~")
		for _, code := range strings.Split(strings.TrimSpace(codes), "|") {
			if code = strings.TrimSpace(code); code == "" {
				return errors.New("expect error: no code")
			}
			c.codes = append(c.codes, code)
		}
		c.contains = strings.TrimSpace(contains)
	default:
		return fmt.Errorf("expect: %q is neither ok nor error", kind)
	}
	return nil
}

func (c *hostileCase) parseLimits(val string) error {
	for _, f := range strings.Fields(val) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return fmt.Errorf("limits: %q is not key=value", f)
		}
		var err error
		switch k {
		case "timeout":
			c.limits.Timeout, err = time.ParseDuration(v)
			c.timeoutSet = true
		case "memory":
			c.limits.Memory, err = parseHostileSize(v)
		case "maxValue", "maxLog":
			var n int64
			n, err = parseHostileSize(v)
			if k == "maxValue" {
				c.limits.MaxValue = int(n)
			} else {
				c.limits.MaxLog = int(n)
			}
		case "fuel":
			c.limits.Fuel, err = strconv.ParseUint(v, 10, 64)
		case "maxCalls":
			c.limits.MaxCalls, err = strconv.Atoi(v)
		case "maxConcurrency":
			c.limits.MaxConcurrency, err = strconv.Atoi(v)
		default:
			return fmt.Errorf("limits: unknown key %q", k)
		}
		if err != nil {
			return fmt.Errorf("limits: %s: %v", k, err)
		}
	}
	return nil
}

// parseHostileSize reads 16MiB, 512KiB or a plain number of bytes.
func parseHostileSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

// check compares a run's outcome with the case's expectation.
func (c *hostileCase) check(r *modebox.Result) error {
	if r.Error != nil {
		// whatever happened, the report stays bounded and coded
		if len(r.Error.Message) > 20000 || len(r.Error.Stack) > 20000 || len(r.Error.Code) > 64 {
			return fmt.Errorf("error report too large: code %d, message %d, stack %d bytes",
				len(r.Error.Code), len(r.Error.Message), len(r.Error.Stack))
		}
	}
	if r.Value != nil && !json.Valid(r.Value) {
		return fmt.Errorf("the result is not JSON: %q", r.Value)
	}
	for _, want := range c.logs {
		found := false
		for _, l := range r.Logs {
			found = found || strings.Contains(l.Message, want)
		}
		if !found {
			return fmt.Errorf("no log line contains %q (logs: %v)", want, r.Logs)
		}
	}
	if c.ok {
		if r.Error != nil {
			return fmt.Errorf("want ok, got error %s: %s", r.Error.Code, r.Error.Message)
		}
		switch {
		case c.value == nil:
		case string(c.value) == "undefined":
			if r.Value != nil {
				return fmt.Errorf("want no value, got %s", r.Value)
			}
		default:
			var want, got any
			_ = json.Unmarshal(c.value, &want)
			if err := json.Unmarshal(r.Value, &got); err != nil || !sameJSON(want, got) {
				return fmt.Errorf("want value %s, got %s", c.value, r.Value)
			}
		}
		return nil
	}
	if r.Error == nil {
		v := r.Value
		if len(v) > 200 {
			v = v[:200]
		}
		return fmt.Errorf("want error %s, got ok %s", strings.Join(c.codes, "|"), v)
	}
	match := false
	for _, code := range c.codes {
		match = match || string(r.Error.Code) == code
	}
	if !match {
		return fmt.Errorf("want error %s, got %s: %.300s", strings.Join(c.codes, "|"), r.Error.Code, r.Error.Message)
	}
	if c.contains != "" && !strings.Contains(r.Error.Message, c.contains) {
		return fmt.Errorf("error message %.300q does not contain %q", r.Error.Message, c.contains)
	}
	return nil
}

// hostileTools are the tools corpus programs call: add (a+b), echo
// ({tool, args}), raw (returns its arguments as they came), fail (rejects
// with code NOPE), slow (answers after 30 ms, or when the run ends), boom
// (panics) and count (how many times it ran in this engine).
func hostileTools(counter *atomic.Int64) []modebox.Tool {
	raw := modebox.Tool{Name: "raw", Description: "Returns its arguments.", Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		return json.RawMessage(bytes.Clone(args)), nil
	}}
	fail := modebox.Tool{Name: "fail", Description: "Always fails.", Handler: func(context.Context, json.RawMessage) (any, error) {
		return nil, &modebox.ToolError{Code: "NOPE", Message: "nope"}
	}}
	slow := modebox.Tool{Name: "slow", Description: "Answers after 30 ms.", Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
		select {
		case <-time.After(30 * time.Millisecond):
			return json.RawMessage(bytes.Clone(args)), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	boom := modebox.Tool{Name: "boom", Description: "Panics.", Handler: func(context.Context, json.RawMessage) (any, error) {
		panic("boom")
	}}
	count := modebox.Tool{Name: "count", Description: "Counts its calls.", Handler: func(context.Context, json.RawMessage) (any, error) {
		return counter.Add(1), nil
	}}
	return []modebox.Tool{addTool, echoTool("", "echo"), raw, fail, slow, boom, count}
}

// TestHostileCorpus runs every program of testdata/hostile in one engine
// and checks its stated outcome, then that the engine is still healthy: a
// normal run right after each program gets its own, right result, and at
// the end the goroutines are back near where they started.
func TestHostileCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "hostile", "*.[jt]s"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("the corpus has %d programs, want at least 40", len(files))
	}
	var counter atomic.Int64
	// the engine's limits are the most a program's "// limits:" line may
	// ask (timer-flood.js asks 256 MiB); the programs narrow them
	e, err := modebox.New(modebox.EngineConfig{Tools: hostileTools(&counter), Limits: modebox.Limits{Memory: 256 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	baseline := runtime.NumGoroutine()
	for i, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, filepath.Ext(name)), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c, err := parseHostile(name, src)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			start := time.Now()
			r, err := e.Run(context.Background(), c.code, modebox.RunOptions{Lang: modebox.Lang(c.lang), Limits: c.limits, Seed: 7})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			// the deadline holds even in builtins that do not poll; the
			// slack is for a loaded machine, not for a run that ignores it
			if d := time.Since(start); d > c.limits.Timeout+10*time.Second {
				t.Errorf("the run took %v, its timeout is %v", d, c.limits.Timeout)
			}
			if err := c.check(r); err != nil {
				t.Error(err)
			}
			// the same engine still works, and this run gets its own result
			h, err := e.Run(context.Background(), fmt.Sprintf(`return await tools.add({a: %d, b: 1})`, i), modebox.RunOptions{})
			if err != nil || h.Error != nil || string(h.Value) != strconv.Itoa(i+1) {
				t.Fatalf("the engine is unhealthy after %s: %s %v %v", name, h.Value, h.Error, err)
			}
		})
	}
	// Again, four at a time, each followed by a normal run that must get
	// its own result: outcomes do not depend on what runs beside them, and
	// results never cross between runs.
	if !testing.Short() {
		t.Run("concurrent", func(t *testing.T) {
			hostileConcurrent(t, e, files)
		})
	}
	// Idle call workers exit after 2 s; timers and calls of finished runs
	// end with their run.
	deadline := time.Now().Add(15 * time.Second)
	for {
		runtime.GC()
		n := runtime.NumGoroutine()
		if n <= baseline+3 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("goroutines: %d at the start, %d at the end\n%s", baseline, n, buf)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hostileConcurrent runs the corpus files on four goroutines.
func hostileConcurrent(t *testing.T, e *modebox.Engine, files []string) {
	var next atomic.Int64
	errs := make(chan error, len(files))
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				name := filepath.Base(files[i])
				src, err := os.ReadFile(files[i])
				if err != nil {
					errs <- err
					continue
				}
				c, err := parseHostile(name, src)
				if err != nil {
					errs <- fmt.Errorf("%s: %v", name, err)
					continue
				}
				r, err := e.Run(context.Background(), c.code, modebox.RunOptions{Lang: modebox.Lang(c.lang), Limits: c.limits, Seed: 7})
				if err != nil {
					errs <- fmt.Errorf("%s: %v", name, err)
					continue
				}
				if err := c.check(r); err != nil {
					errs <- fmt.Errorf("%s (concurrent): %v", name, err)
				}
				h, err := e.Run(context.Background(), fmt.Sprintf(`return await tools.add({a: %d, b: 1000})`, i), modebox.RunOptions{})
				if err != nil || h.Error != nil || string(h.Value) != strconv.Itoa(i+1000) {
					errs <- fmt.Errorf("after %s (concurrent): got %s %v %v", name, h.Value, h.Error, err)
				}
			}
		}()
	}
	for w := 0; w < 4; w++ {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestHostileCorpusHeaders checks the header parser on the forms the
// corpus uses, so that a typo in a header fails loudly instead of
// weakening a case.
func TestHostileCorpusHeaders(t *testing.T) {
	c, err := parseHostile("a.js", []byte("// expect: error A|B ~ some text\n// limits: timeout=1s memory=8MiB maxValue=64KiB fuel=9\n// log: hi\nreturn 1"))
	if err != nil || !slicesEqual(c.codes, []string{"A", "B"}) || c.contains != "some text" ||
		c.limits.Timeout != time.Second || c.limits.Memory != 8<<20 || c.limits.MaxValue != 64<<10 || c.limits.Fuel != 9 || c.logs[0] != "hi" {
		t.Fatalf("%+v %v", c, err)
	}
	c, err = parseHostile("b.ts", []byte("// free text\n// expect: ok {\"a\": [1]}\nreturn {a: [1]}"))
	if err != nil || !c.ok || string(c.value) != `{"a": [1]}` || c.lang != "ts" {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"return 1", "// expect: maybe\n", "// expect: ok {\n", "// expect: error\n", "// expect: ok\n// limits: speed=1\n",
		"// expect: ok\n// expect: ok\n", "x = 1\n// expect: ok\n"} {
		if _, err := parseHostile("c.js", []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func slicesEqual(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
