package modebox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestResultLogsAlwaysAList: a Result encodes its logs as a list however
// the run ended, [] when it logged nothing, as the CLI and the MCP server
// print them; before, a library user's JSON said "logs": null.
func TestResultLogsAlwaysAList(t *testing.T) {
	guarded := Tool{Namespace: "t", Name: "guarded", Policy: PolicyAsk, Handler: func(context.Context, json.RawMessage) (any, error) { return "ran", nil }}
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i + 1)
	}
	e, err := New(EngineConfig{Tools: []Tool{guarded}, Continuations: &Continuations{Keys: [][]byte{key}, Store: DirTokenStore(t.TempDir())}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cases := []struct {
		name, src string
		status    Status
		logs      string
	}{
		{"ok", `return 1`, StatusOK, `[]`},
		{"thrown", `throw new Error("x")`, StatusError, `[]`},
		{"syntax", `return (`, StatusError, `[]`},
		{"refused", strings.Repeat(" ", MaxProgramSize+1), StatusError, `[]`},
		{"paused", `return await t.guarded({})`, StatusPaused, `[]`},
		{"logged", `console.log("a"); return 1`, StatusOK, `[{"level":"log","message":"a"}]`},
	}
	for _, c := range cases {
		res, err := e.Run(t.Context(), c.src, RunOptions{})
		if err != nil || res.Status != c.status {
			t.Fatalf("%s: %v %+v", c.name, err, res)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if string(m["logs"]) != c.logs {
			t.Errorf("%s: logs %s, want %s (%s)", c.name, m["logs"], c.logs, b)
		}
		if _, ok := m["status"]; !ok {
			t.Errorf("%s: no status in %s", c.name, b)
		}
		// the other fields encode as before: a value, a round trip
		var back Result
		value := func(v json.RawMessage) string {
			if v == nil {
				return "null"
			}
			return string(v)
		}
		if err := json.Unmarshal(b, &back); err != nil || back.Status != res.Status || value(back.Value) != value(res.Value) || (res.Error == nil) != (back.Error == nil) || back.Token != res.Token {
			t.Errorf("%s: round trip %v: %+v from %s", c.name, err, back, b)
		}
	}
	// & < > keep their bytes through an encoder told not to escape them
	// (the CLI's and the MCP server's), and are escaped by one that does
	res, err := e.Run(t.Context(), `return "a&b<c>"`, RunOptions{})
	if err != nil || res.Status != StatusOK {
		t.Fatalf("%v %+v", err, res)
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil || !strings.Contains(buf.String(), `"result":"a&b<c>","logs":[]`) {
		t.Errorf("unescaped: %v %s", err, buf.String())
	}
	if b, err := json.Marshal(res); err != nil || !strings.Contains(string(b), `"result":"a\u0026b\u003cc\u003e","logs":[]`) {
		t.Errorf("escaped: %v %s", err, b)
	}
	// a pointer and a value encode alike
	r := Result{Status: StatusOK}
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(&r)
	if string(a) != string(b) || !strings.Contains(string(a), `"logs":[]`) {
		t.Errorf("value %s, pointer %s", a, b)
	}
}
