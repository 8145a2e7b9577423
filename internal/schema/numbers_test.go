package schema

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

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
	err := m.run(t.Context(), 10, func() error {
		var r *big.Rat
		return errors.New(r.String()) // a nil dereference, as in the library
	})
	var pe *PanicError
	if !errors.As(err, &pe) || !strings.Contains(pe.Error(), "schema validator failed") {
		t.Fatalf("got %v, want a *PanicError", err)
	}
	// the meter is usable again
	if err := m.run(t.Context(), 10, func() error { return nil }); err != nil {
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
