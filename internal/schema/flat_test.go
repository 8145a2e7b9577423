package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A schema of ~45,000 sibling properties (1 MiB, under MaxSchemaBytes) is
// refused for its subschemas before the library compiles it: the library
// took 9 s over it, quadratic in the number of siblings, and the refusal
// then came from the compile-time limit, long after it had passed. The
// count of what a keyword takes as a schema agrees with the library's own
// count where a schema compiles.
func TestFlatSchemaRefusedBeforeCompiling(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type": "object", "properties": {`)
	for i := 0; b.Len() < MaxSchemaBytes-40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d": {"type": "string"}`, i)
	}
	b.WriteString(`}}`)
	_, err := Compile(json.RawMessage(b.String()))
	var le *LimitError
	if !errors.As(err, &le) || le.What != "subschemas" {
		t.Fatalf("%d bytes of properties: %v", b.Len(), err)
	}
	for _, c := range []struct {
		doc  string
		want int
	}{
		{`{"type": "object", "properties": {"a": {}, "b": true}, "additionalProperties": false}`, 4},
		{`{"prefixItems": [{}, {}], "items": {"not": {}}}`, 5},
		{`{"items": {"anyOf": [{}, {"$ref": "#/$defs/x"}]}, "$defs": {"x": {"type": "string"}}}`, 5},
		{`{"dependencies": {"a": ["b"], "c": {"required": ["d"]}}, "enum": [{"not": {}}]}`, 2},
	} {
		var doc any
		if err := json.Unmarshal([]byte(c.doc), &doc); err != nil {
			t.Fatal(err)
		}
		if n := countSchemas(doc, MaxSchemaNodes); n != c.want {
			t.Errorf("%s: %d subschemas, want %d", c.doc, n, c.want)
		}
		if _, err := Compile(json.RawMessage(c.doc)); err != nil {
			t.Errorf("%s: %v", c.doc, err)
		}
	}
}
