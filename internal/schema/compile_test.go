package schema

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCompileAcceptsAnything(t *testing.T) {
	for _, raw := range []string{"", "  \n", "null", "{}", "true"} {
		v, err := Compile(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("Compile(%q): %v", raw, err)
		}
		for _, inst := range []string{`1`, `"s"`, `{"a":[1,{}]}`, `null`} {
			if err := v.ValidateJSON([]byte(inst)); err != nil {
				t.Errorf("Compile(%q).ValidateJSON(%s) = %v", raw, inst, err)
			}
		}
	}
	var nilV *Validator
	if err := nilV.Validate(map[string]any{"x": 1}); err != nil {
		t.Errorf("nil Validator: %v", err)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, schema string
		ref          string // want CompileError.Ref
		contains     string // want in Error()
	}{
		{"malformed JSON", `{"type":`, "", "not valid JSON"},
		{"trailing data", `{} []`, "", "not valid JSON"},
		{"meta-schema violation", `{"properties":{"a":{"type":"strin"}}}`, "",
			`at /properties/a/type: enum: got "strin"`},
		{"bad minimum", `{"minimum":"1"}`, "", "at /minimum: type: got string, want number"},
		{"remote ref refused", `{"type":"object","properties":{"a":{"$ref":"https://example.com/schemas/a.json"}}}`,
			"https://example.com/schemas/a.json", "points outside the schema document"},
		{"remote ref with $id refused", `{"$id":"https://example.com/root.json","$ref":"other.json#/x"}`,
			"https://example.com/other.json", "points outside the schema document"},
		{"file ref refused", `{"$ref":"defs.json#/$defs/a"}`, "defs.json", "remote and file references are not loaded"},
		{"unknown $schema", `{"$schema":"https://example.com/my-meta","type":"object"}`,
			"https://example.com/my-meta", `unsupported "$schema"`},
		{"dangling local ref", `{"$ref":"#/$defs/missing"}`, "", "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Compile(json.RawMessage(tt.schema))
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("Compile = %v, %v; want *CompileError", v, err)
			}
			if ce.Ref != tt.ref {
				t.Errorf("Ref = %q, want %q", ce.Ref, tt.ref)
			}
			if !strings.HasPrefix(err.Error(), "invalid schema: ") || !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("Error() = %q, want it to contain %q", err, tt.contains)
			}
		})
	}
}

// TestCompileNeverFetches serves a valid schema on a local listener and
// writes one to a file, then checks that refs to both are refused without
// the server seeing a request.
func TestCompileNeverFetches(t *testing.T) {
	var hits atomic.Int32
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"type":"string"}`))
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"http://" + ln.Addr().String() + "/s.json", "file://" + file} {
		_, err := Compile(json.RawMessage(`{"$ref":"` + ref + `"}`))
		var ce *CompileError
		if !errors.As(err, &ce) || ce.Ref != ref {
			t.Errorf("Compile($ref %s) = %v, want refused", ref, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server got %d requests", n)
	}
}

func TestCompileStandardMetaSchemas(t *testing.T) {
	for _, meta := range []string{
		"https://json-schema.org/draft/2020-12/schema",
		"https://json-schema.org/draft/2019-09/schema",
		"http://json-schema.org/draft-07/schema#",
		"http://json-schema.org/draft-06/schema#",
		"http://json-schema.org/draft-04/schema#",
	} {
		v, err := Compile(json.RawMessage(`{"$schema":"` + meta + `","type":"string"}`))
		if err != nil {
			t.Errorf("Compile with %s: %v", meta, err)
			continue
		}
		if err := v.ValidateJSON([]byte(`1`)); err == nil {
			t.Errorf("%s: number accepted as string", meta)
		}
	}
}

func TestCompileLookAheadPatternEnforced(t *testing.T) {
	// Look-ahead is ECMA-262 but not RE2: the backtracking engine enforces
	// it, and the rest of the schema still applies.
	v := mustCompile(t, `{"type":"string","pattern":"^(?!\\.)[a-z.]+$","maxLength":5}`)
	check(t, v, `"abc"`, "", "", "")
	if err := v.ValidateJSON([]byte(`".abc"`)); err == nil {
		t.Error(`".abc" accepted by a pattern that refuses a leading dot`)
	}
	check(t, v, `"abcdefg"`, "", "maxLength", "got 7 characters, want at most 5")
}
