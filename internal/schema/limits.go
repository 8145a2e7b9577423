package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// CodeSchemaTooComplex is the error code of a [*LimitError].
const CodeSchemaTooComplex = "SCHEMA_TOO_COMPLEX"

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

// Code returns [CodeSchemaTooComplex].
func (e *LimitError) Code() string { return CodeSchemaTooComplex }

// meter counts the steps of one validation (or the subschemas of one
// compilation). The schema extension calls step for every subschema
// applied; when the budget or the context runs out, step panics with a
// *LimitError or the context's error, which Validate recovers. One meter
// serves one Validator, so validations of one Validator run one at a time.
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
// the error that stopped it, if any.
func (m *meter) run(ctx context.Context, budget int, f func() error) (err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ctx, m.left = ctx, budget
	m.limit = &LimitError{What: "validation steps", Limit: fmt.Sprint(budget)}
	defer func() {
		m.ctx = nil
		if r := recover(); r != nil {
			s, ok := r.(stop)
			if !ok {
				panic(r)
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
