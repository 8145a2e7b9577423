package schema

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/modebox/modebox/internal/codes"
)

// TestHugeNumbersRefusedNotPanicking is the attack: a JSON number that
// math/big cannot read (1e1000001) made the library dereference a nil
// *big.Rat in minimum, multipleOf and uniqueItems, a panic that ended the
// host process. Every keyword that compares numbers is tried, through the
// simple path's schemas and the library's alike; each must refuse the
// value with Rule "number" at the number's path.
func TestHugeNumbersRefusedNotPanicking(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"n":{"type":"number","minimum":0}}}`,
		`{"type":"object","properties":{"n":{"maximum":10}}}`,
		`{"type":"object","properties":{"n":{"exclusiveMinimum":0,"exclusiveMaximum":5}}}`,
		`{"type":"object","properties":{"n":{"multipleOf":2}}}`,
		`{"type":"object","properties":{"n":{"type":"integer"}}}`,
		`{"type":"object","properties":{"n":{"enum":[1,2]}}}`,
		`{"type":"object","properties":{"n":{"const":1}}}`,
		`{"type":"object","properties":{"n":{"type":"number"}}}`, // the simple path's
		`{"type":"object","properties":{"n":{"type":"array","uniqueItems":true}}}`,
		`{"type":"object","properties":{"n":{"type":"array","items":{"minimum":0}}}}`,
	}
	huge := []string{"1e1000001", "-1E+9999999999999999999", "1e-1000001", "0.5e-100000", "1e100001"}
	for _, sch := range schemas {
		v := mustCompile(t, sch)
		for _, n := range huge {
			inst := `{"n":` + n + `}`
			want := ""
			if strings.Contains(sch, "array") {
				inst, want = `{"n":[1,`+n+`,1]}`, "/1"
			}
			err := v.ValidateJSON([]byte(inst))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%s on %s: %v (%T), want *ValidationError", sch, inst, err, err)
			}
			if ve.Rule != "number" || ve.Path != "/n"+want || !strings.Contains(ve.Message, "outside the range") {
				t.Errorf("%s on %s: path %q rule %q: %v", sch, inst, ve.Path, ve.Rule, err)
			}
			if ve.Code() != codes.InvalidArgument {
				t.Errorf("code %q", ve.Code())
			}
		}
	}
}

// TestNumberScaleBoundary checks both sides of MaxNumberScale.
func TestNumberScaleBoundary(t *testing.T) {
	v := mustCompile(t, `{"minimum":0}`)
	for _, ok := range []string{"1e100000", "1e-100000", "0.1e-99999", "5", "-0", "1.5E+3", "123.456e-7", "1" + strings.Repeat("0", MaxNumberScale-1)} {
		if err := v.ValidateJSON([]byte(ok)); err != nil && !strings.Contains(err.Error(), "minimum") {
			t.Errorf("%.30s: %v", ok, err)
		}
	}
	for _, bad := range []string{"1e100001", "1e-100001", "0.1e-100000", "1" + strings.Repeat("0", MaxNumberScale)} {
		var ve *ValidationError
		if err := v.ValidateJSON([]byte(bad)); !errors.As(err, &ve) || ve.Rule != "number" {
			t.Errorf("%.30s: %v, want rule number", bad, err)
		}
	}
}

// TestValueNumbersNotJSON covers values built in Go: NaN, the infinities
// and json.Number text that is no number are refused, not a panic.
func TestValueNumbersNotJSON(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"n":{"minimum":0}}}`)
	for _, n := range []any{math.NaN(), math.Inf(1), math.Inf(-1), float32(math.Inf(1)), json.Number("abc"), json.Number(""), json.Number("1e1000001")} {
		err := v.Validate(map[string]any{"n": n})
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Rule != "number" || ve.Path != "/n" {
			t.Errorf("%#v: %v, want rule number at /n", n, err)
		}
	}
}

// TestBadNumberPathStable checks that the first bad number is reported at
// the same path every time, whatever the order of map iteration.
func TestBadNumberPathStable(t *testing.T) {
	v := mustCompile(t, `{"type":"object","additionalProperties":{"minimum":0}}`)
	inst := map[string]any{}
	for _, k := range []string{"q", "b", "z", "a/x", "m"} {
		inst[k] = json.Number("1e1000001")
	}
	for range 50 {
		var ve *ValidationError
		if err := v.Validate(inst); !errors.As(err, &ve) || ve.Path != "/a~1x" {
			t.Fatalf("%v, want the path /a~1x", err)
		}
	}
}

// TestSchemaNumbersOutOfRange: a downstream server's schema with a number
// math/big cannot read had that keyword silently dropped ("minimum":
// 1e1000001 checked nothing); now Compile refuses the schema.
func TestSchemaNumbersOutOfRange(t *testing.T) {
	for _, sch := range []string{
		`{"minimum":1e1000001}`,
		`{"properties":{"n":{"multipleOf":1e-1000001}}}`,
		`{"enum":[1,1e100001]}`,
		`{"default":1e999999999999}`,
	} {
		_, err := Compile(json.RawMessage(sch))
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "outside the range") {
			t.Errorf("Compile(%s) = %v, want a CompileError naming the number", sch, err)
		}
	}
}

// TestLibraryPanicRefuses checks the last guard: a panic of the library
// while validating becomes a *PanicError, not the end of the process.
func TestLibraryPanicRefuses(t *testing.T) {
	m := &meter{}
	err := m.run(t.Context(), 10, 10, func() error {
		var r *big.Rat
		return errors.New(r.String()) // a nil dereference, as in the library
	})
	var pe *PanicError
	if !errors.As(err, &pe) || !strings.Contains(pe.Error(), "schema validator failed") {
		t.Fatalf("got %v, want a *PanicError", err)
	}
	// the meter is usable again
	if err := m.run(t.Context(), 10, 10, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// FuzzNumberInRange is the guarantee the guard rests on: every text
// NumberInRange accepts, math/big reads.
func FuzzNumberInRange(f *testing.F) {
	for _, s := range []string{"0", "-0.0", "1e100000", "1e100001", "1e-100000", "0.1e-99999", "9.99e99999", "1E+00001", "-12.5e-3", "1e1000001", "abc", "1.", "01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !NumberInRange(s) {
			return
		}
		if len(s) > 2000 {
			return // math/big's time on long texts is not the question
		}
		if _, ok := new(big.Rat).SetString(s); !ok {
			t.Fatalf("NumberInRange(%q) but math/big cannot read it", s)
		}
		var n json.Number
		if err := json.Unmarshal([]byte(s), &n); err != nil {
			t.Fatalf("NumberInRange(%q) but it is not JSON: %v", s, err)
		}
	})
}

// FuzzValidate compiles a schema and validates a value with it, both
// arbitrary: the library must never fail (a *PanicError), every error is
// one of the documented types, and the text path (ValidateJSON, with its
// simple check) agrees with the decoded path (Validate) on valid or not.
func FuzzValidate(f *testing.F) {
	schemas := []string{
		`{"type":"object","properties":{"n":{"minimum":0,"multipleOf":0.5}},"required":["n"]}`,
		`{"type":"array","uniqueItems":true,"items":{"type":["number","string"]}}`,
		`{"enum":[1,"a",null,[1],{"a":1}]}`,
		`{"const":{"a":[1,2]}}`,
		`{"type":"string","pattern":"^(?=a)\\w+$","minLength":1,"maxLength":5}`,
		`{"type":"string","format":"email"}`,
		`{"if":{"properties":{"a":{"const":1}}},"then":{"required":["b"]},"else":{"maxProperties":1}}`,
		`{"$defs":{"n":{"type":"integer","exclusiveMaximum":10}},"items":{"$ref":"#/$defs/n"},"contains":{"minimum":5},"minContains":1}`,
		`{"propertyNames":{"pattern":"^[a-z]+$"},"additionalProperties":{"type":"boolean"},"unevaluatedProperties":false}`,
		`{"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"required":["d"]}}}`,
		`{"anyOf":[{"type":"null"},{"type":"number","maximum":1e308}],"not":{"const":0}}`,
		`{"type":"object","properties":{"p":{"type":"string"},"q":{"type":"integer"}},"additionalProperties":false}`,
		`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"n":{"minimum":0,"exclusiveMinimum":true}}}`,
	}
	values := []string{`{"n":1}`, `{"n":1e1000001}`, `[1,1.0,"a"]`, `[1e100001,1]`, `"abc"`, `{"a":1,"b":2}`,
		`[5,10,-1]`, `{"p":"x","q":1.5}`, `null`, `0`, `-0.0e-7`, `{"n":NaN}`, `{"n":1}x`, `[[[[[]]]]]`}
	for i, s := range schemas {
		for j, v := range values {
			if (i+j)%3 == 0 {
				f.Add(s, v)
			}
		}
	}
	f.Fuzz(func(t *testing.T, sch, val string) {
		if len(sch) > 4096 || len(val) > 4096 {
			return
		}
		v, err := Compile(json.RawMessage(sch))
		if err != nil {
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("Compile(%s): %v (%T), want a *CompileError", sch, err, err)
			}
			if pe := new(PanicError); errors.As(err, &pe) {
				t.Fatalf("Compile(%s): the library failed: %v", sch, err)
			}
			return
		}
		textErr := v.ValidateJSON([]byte(val))
		checkErrKind(t, sch, val, textErr)
		inst, derr := decodeJSON([]byte(val))
		if derr != nil {
			if textErr == nil {
				t.Fatalf("%s: ValidateJSON accepts what does not decode: %v", val, derr)
			}
			return
		}
		valErr := v.Validate(inst)
		checkErrKind(t, sch, val, valErr)
		if (textErr == nil) != (valErr == nil) {
			t.Fatalf("schema %s, value %s: ValidateJSON %v, Validate %v", sch, val, textErr, valErr)
		}
	})
}

// checkErrKind fails unless err is nil, a *ValidationError or a *LimitError.
func checkErrKind(t *testing.T, sch, val string, err error) {
	t.Helper()
	var pe *PanicError
	if errors.As(err, &pe) {
		t.Fatalf("schema %s, value %s: the library failed: %v", sch, val, err)
	}
	var ve *ValidationError
	var le *LimitError
	if err != nil && !errors.As(err, &ve) && !errors.As(err, &le) {
		t.Fatalf("schema %s, value %s: %v (%T)", sch, val, err, err)
	}
	if ve != nil && strings.HasPrefix(ve.Message, "schema validator failed") {
		t.Fatalf("schema %s, value %s: the library failed: %v", sch, val, err)
	}
}

// TestCompilePanicRefuses checks the same guard at compile time: a
// vocabulary that panics, as the library might on a hostile schema, makes
// compileBounded return a *PanicError instead of ending the process.
func TestCompilePanicRefuses(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.RegisterVocabulary(&jsonschema.Vocabulary{
		URL:    "mem:///modebox/panics",
		Schema: anySchema,
		Compile: func(*jsonschema.CompilerContext, map[string]any) (jsonschema.SchemaExt, error) {
			var r *big.Rat
			return nil, errors.New(r.String())
		},
	})
	c.AssertVocabs()
	if err := c.AddResource(baseURL, map[string]any{"type": "string"}); err != nil {
		t.Fatal(err)
	}
	_, err := compileBounded(c)
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v (%T), want a *PanicError", err, err)
	}
}
