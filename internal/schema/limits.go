package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/modebox/modebox/internal/codes"
)

// Limits on the work a schema may cause. Schemas come from downstream MCP
// servers, which are untrusted: a schema must not be able to make the host
// compile or validate for long.
const (
	// MaxSchemaBytes is the largest schema document Compile accepts.
	MaxSchemaBytes = 1 << 20
	// MaxSchemaNodes is the most subschemas (objects compiled as schemas)
	// one document may have.
	MaxSchemaNodes = 5000
	// MaxCompileTime bounds compiling one schema.
	MaxCompileTime = 2 * time.Second
	// MaxValidationSteps bounds validating one value: every subschema
	// applied to a part of the value is one step. A value that needs more
	// is refused with a [*LimitError].
	MaxValidationSteps = 1_000_000
	// probeSteps is the budget of the probe validations Compile runs: a
	// schema that needs more to check an empty object, array, string,
	// number or null is refused as too complex (nested allOf/anyOf over
	// shared $refs grow exponentially).
	probeSteps = 100_000
)

// LimitError reports a schema, or the validation of a value, that went
// beyond one of the limits above.
type LimitError struct {
	// What names the limit ("size", "subschemas", "compile time",
	// "validation steps").
	What string
	// Limit is the limit, as text ("1048576 bytes", "2s").
	Limit string
}

// Error renders "schema too complex: WHAT over LIMIT".
func (e *LimitError) Error() string {
	return fmt.Sprintf("schema too complex: %s over %s", e.What, e.Limit)
}

// Code returns [codes.SchemaTooComplex].
func (e *LimitError) Code() codes.Code { return codes.SchemaTooComplex }

// PanicError reports a failure of the JSON Schema library itself while it
// compiled a schema or validated a value: the schema or the value is
// refused instead of ending the host process. It means a bug; Value is
// what the library panicked with.
type PanicError struct {
	// Value is the panic's value, as text.
	Value string
}

// Error renders "schema validator failed: VALUE".
func (e *PanicError) Error() string { return "schema validator failed: " + e.Value }

// meter counts the steps of one validation (or the subschemas of one
// compilation). The schema extension calls step for every subschema
// applied; when the budget or the context runs out, step panics with a
// *LimitError or the context's error, which Validate recovers. One meter
// serves one Validator, so validations of one Validator run one at a time:
// mu is held from decoding the value to rendering the report.
type meter struct {
	mu    sync.Mutex
	ctx   context.Context
	left  int
	limit *LimitError
}

// stop is the panic value step uses to unwind the validator.
type stop struct{ err error }

func (m *meter) step() {
	m.left--
	if m.left < 0 {
		panic(stop{m.limit})
	}
	if m.left&1023 == 0 && m.ctx != nil {
		if err := m.ctx.Err(); err != nil {
			panic(stop{err})
		}
	}
}

// run calls f with the meter set to budget steps under ctx, and returns
// the error that stopped it, if any; a budget that runs out is reported as
// limit steps. The caller holds m.mu (or owns m alone).
func (m *meter) run(ctx context.Context, budget, limit int, f func() error) (err error) {
	m.ctx, m.left = ctx, budget
	m.limit = &LimitError{What: "validation steps", Limit: fmt.Sprint(limit)}
	defer func() {
		m.ctx = nil
		if r := recover(); r != nil {
			s, ok := r.(stop)
			if !ok {
				// a failure of the library on an untrusted value or
				// schema refuses the value; it must not end the host
				err = &PanicError{Value: fmt.Sprint(r)}
				return
			}
			err = s.err
		}
	}()
	return f()
}

// stepExt is the schema extension attached to every subschema: it counts
// one step each time the subschema is applied.
type stepExt struct{ m *meter }

// Validate implements jsonschema.SchemaExt.
func (s stepExt) Validate(*jsonschema.ValidatorContext, any) { s.m.step() }

// compileMeter bounds one compilation: subschema count and time.
type compileMeter struct {
	nodes    int
	deadline time.Time
}

// stepVocabulary returns the vocabulary that attaches a stepExt of m to
// every subschema, and counts them against cm.
func stepVocabulary(m *meter, cm *compileMeter) *jsonschema.Vocabulary {
	return &jsonschema.Vocabulary{
		URL:    "mem:///modebox/steps",
		Schema: anySchema,
		Compile: func(_ *jsonschema.CompilerContext, _ map[string]any) (jsonschema.SchemaExt, error) {
			cm.nodes++
			if cm.nodes > MaxSchemaNodes {
				panic(stop{&LimitError{What: "subschemas", Limit: fmt.Sprint(MaxSchemaNodes)}})
			}
			if cm.nodes&63 == 0 && time.Now().After(cm.deadline) {
				panic(stop{&LimitError{What: "compile time", Limit: MaxCompileTime.String()}})
			}
			return stepExt{m}, nil
		},
	}
}

// anySchema is the (empty) meta-schema of the step vocabulary.
var anySchema = func() *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///modebox/steps.json", map[string]any{}); err != nil {
		panic(err)
	}
	s, err := c.Compile("mem:///modebox/steps.json")
	if err != nil {
		panic(err)
	}
	return s
}()

// probes are the values every compiled schema is tried on.
var probes = []any{map[string]any{}, []any{}, "", jsonNumberZero, nil, true}
var jsonNumberZero = json.Number("0")

// MaxExpandedNodes bounds the size of a schema with its local "$ref"s
// expanded in place (each reference counted as a copy of its target; a
// reference back into its own chain counts once). Nested allOf/anyOf over
// shared $refs grow exponentially in this measure, which is roughly the
// work of validating a value that reaches every part.
const MaxExpandedNodes = 1_000_000

// expandedSize returns the expanded size of doc, saturating just above
// MaxExpandedNodes.
func expandedSize(doc any) int {
	memo := map[string]int{}
	onStack := map[string]bool{}
	var size func(v any, ptr string) int
	resolve := func(ref string) (any, string, bool) {
		if !strings.HasPrefix(ref, "#/") && ref != "#" {
			return nil, "", false
		}
		cur := doc
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			if u, err := url.PathUnescape(tok); err == nil {
				tok = u
			}
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(c) {
					return nil, "", false
				}
				cur = c[i]
			default:
				return nil, "", false
			}
		}
		return cur, ref, true
	}
	add := func(a, b int) int { return min(a+b, MaxExpandedNodes+1) }
	size = func(v any, ptr string) int {
		switch c := v.(type) {
		case map[string]any:
			n := 1
			for k, child := range c {
				n = add(n, size(child, ptr+"/"+k))
				if k == "$ref" {
					if ref, ok := child.(string); ok {
						if target, tptr, ok := resolve(ref); ok {
							n = add(n, sizeRef(target, tptr, memo, onStack, size))
						}
					}
				}
				if n > MaxExpandedNodes {
					return n
				}
			}
			return n
		case []any:
			n := 1
			for i, child := range c {
				n = add(n, size(child, ptr+"/"+strconv.Itoa(i)))
				if n > MaxExpandedNodes {
					return n
				}
			}
			return n
		}
		return 1
	}
	return size(doc, "#")
}

// sizeRef is the expanded size of a reference's target, memoized; a
// target already being expanded (a recursive schema) counts 1.
func sizeRef(target any, ptr string, memo map[string]int, onStack map[string]bool, size func(any, string) int) int {
	if n, ok := memo[ptr]; ok {
		return n
	}
	if onStack[ptr] {
		return 1
	}
	onStack[ptr] = true
	n := size(target, ptr)
	delete(onStack, ptr)
	memo[ptr] = n
	return n
}

// Keywords whose value is one subschema, a list of them, or a map of them
// (in every draft the library reads), for countSchemas.
var (
	oneSchemaKeywords = map[string]bool{
		"not": true, "if": true, "then": true, "else": true, "contains": true,
		"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true,
		"propertyNames": true, "additionalItems": true, "items": true, "contentSchema": true,
	}
	listSchemaKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	mapSchemaKeywords  = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
		"dependentSchemas": true, "dependencies": true,
	}
)

// countSchemas counts the subschemas of doc (objects and booleans where a
// keyword takes a schema), stopping just past limit. Compile refuses a
// document with more than [MaxSchemaNodes] before the library sees it:
// the library's own queue of subschemas to compile is searched linearly
// for each one it adds, so ~45,000 sibling properties took it 9 s before
// its first subschema reached the step vocabulary's count.
func countSchemas(doc any, limit int) int {
	n := 0
	var walk func(s any)
	walk = func(s any) {
		if n > limit {
			return
		}
		switch s := s.(type) {
		case bool:
			n++
		case map[string]any:
			n++
			for k, v := range s {
				switch {
				case mapSchemaKeywords[k]:
					if m, ok := v.(map[string]any); ok {
						for _, sub := range m {
							walk(sub) // "dependencies" lists of names are neither
						}
					}
				case listSchemaKeywords[k]:
					if l, ok := v.([]any); ok {
						for _, sub := range l {
							walk(sub)
						}
					} else if oneSchemaKeywords[k] {
						walk(v)
					}
				case oneSchemaKeywords[k]:
					walk(v)
				}
			}
		}
	}
	walk(doc)
	return n
}
