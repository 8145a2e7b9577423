package schema

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// allOfBomb is a schema whose validation doubles with each level: level i
// is allOf [level i+1, level i+1] over $refs (linear size, 2^levels work).
func allOfBomb(levels int, leaf string) string {
	return allOfBombAt(`"$ref":"#/$defs/l0"`, levels, leaf)
}

// allOfBombAt is allOfBomb with root as the root's keywords.
func allOfBombAt(root string, levels int, leaf string) string {
	var b strings.Builder
	b.WriteString(`{` + root + `,"$defs":{`)
	for i := range levels {
		fmt.Fprintf(&b, `"l%d":{"allOf":[{"$ref":"#/$defs/l%d"},{"$ref":"#/$defs/l%d"}]},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"l%d":%s}}`, levels, leaf)
	return b.String()
}

func TestHostileAllOfRefusedAtCompile(t *testing.T) {
	start := time.Now()
	_, err := Compile(json.RawMessage(allOfBomb(40, `{}`)))
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("Compile(40-level allOf) = %v, want a *LimitError", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("refusing took %s", d)
	}
}

func TestHostileAllOfBoundedStatically(t *testing.T) {
	// under a property the probes do not reach, the bomb is caught by its
	// size with the $refs expanded
	_, err := Compile(json.RawMessage(allOfBombAt(`"type":"object","properties":{"x":{"$ref":"#/$defs/l0"}}`, 40, `{"type":"string"}`)))
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("Compile = %v, want a *LimitError", err)
	}
}

// recursiveBomb doubles its work with every level of the value's nesting:
// small when expanded (the recursion counts once), exponential to validate
// {"x":{"x":…}}.
const recursiveBomb = `{"type":"object","properties":{"x":{"allOf":[{"$ref":"#"},{"$ref":"#"}]}}}`

func deepX(n int) string {
	return strings.Repeat(`{"x":`, n) + `{}` + strings.Repeat(`}`, n)
}

func TestHostileAllOfBoundedAtValidation(t *testing.T) {
	v, err := Compile(json.RawMessage(recursiveBomb))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = v.ValidateJSON([]byte(deepX(40)))
	var le *LimitError
	if !errors.As(err, &le) || le.Code() != codes.SchemaTooComplex {
		t.Fatalf("ValidateJSON = %v, want a *LimitError", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("bounded validation took %s", d)
	}
	// a cancelled context stops validation too
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := v.ValidateJSONContext(ctx, []byte(deepX(40))); !errors.Is(err, context.Canceled) {
		t.Errorf("ValidateJSONContext(cancelled) = %v, want context.Canceled", err)
	}
	// shallow values are still checked normally
	if err := v.ValidateJSON([]byte(deepX(3))); err != nil {
		t.Errorf("a shallow value: %v", err)
	}
	if err := v.ValidateJSON([]byte(`1`)); err == nil {
		t.Error("a number passed a schema of type object")
	}
}

func TestHostileRefChainBounded(t *testing.T) {
	// a long chain of $refs: refused by size or subschema count, fast
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	n := MaxSchemaNodes + 10
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"$ref":"#/$defs/d%d"},`, i, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string"}}}`, n)
	start := time.Now()
	_, err := Compile(json.RawMessage(b.String()))
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("Compile(ref chain of %d) = %v, want a *LimitError", n, err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("refusing took %s", d)
	}
	// just under the node limit compiles, within the time bound
	b.Reset()
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	n = MaxSchemaNodes - 10
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"$ref":"#/$defs/d%d"},`, i, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string"}}}`, n)
	start = time.Now()
	if _, err := Compile(json.RawMessage(b.String())); err != nil && !errors.As(err, &le) {
		t.Fatalf("Compile(ref chain of %d) = %v", n, err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("compiling took %s", d)
	}
	big := `{"description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}`
	if _, err := Compile(json.RawMessage(big)); !errors.As(err, &le) || le.What != "size" {
		t.Errorf("Compile(%d bytes) = %v, want a size *LimitError", len(big), err)
	}
}

func TestHostilePatternBacktrackingBounded(t *testing.T) {
	// a back-reference forces the backtracking engine; a catastrophic
	// pattern is cut off by MaxPatternTime and the value refused
	v := mustCompile(t, `{"type":"string","pattern":"^(\\w+)\\1?(a+)+$"}`)
	start := time.Now()
	err := v.ValidateJSON([]byte(`"` + strings.Repeat("a", 5000) + `!"`))
	if err == nil {
		t.Error("a non-matching value passed")
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("match took %s", d)
	}
}
