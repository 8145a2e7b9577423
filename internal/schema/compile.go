package schema

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// baseURL is the made-up location under which every schema document is
// compiled. Relative references resolve against it (or against the
// document's own "$id"), and anything outside the document is refused.
const baseURL = "mem:///tool-schema.json"

// Validator checks JSON values against one compiled schema. The zero value,
// a nil *Validator and one compiled from an empty schema accept anything.
// A Validator is immutable and safe for concurrent use.
type Validator struct {
	sch *jsonschema.Schema // nil accepts anything
	doc any                // decoded schema document, for error hints
	id  string             // the document's top-level "$id", if any
	m   *meter             // bounds each validation
	// simple is the schema's simple form (simple.go), nil if it has none
	simple *simpleSchema
	// unique says the document has "uniqueItems": true somewhere, so
	// the library's uniqueItems comparisons are counted (unique.go)
	unique bool
}

// CompileError reports a schema that cannot be compiled: malformed JSON, a
// document that breaks its draft's meta-schema, an unknown draft, or a
// reference to a document other than the schema itself.
type CompileError struct {
	// Reason is a short description of what is wrong with the schema.
	Reason string
	// Ref is the reference (or "$schema" URL) that could not be resolved
	// because it points outside the schema document; empty otherwise.
	Ref string
	// Err is the underlying error, if any.
	Err error
}

// Error renders the error as "invalid schema: REASON".
func (e *CompileError) Error() string { return "invalid schema: " + e.Reason }

// Unwrap returns the underlying error.
func (e *CompileError) Unwrap() error { return e.Err }

// Compile compiles a JSON Schema once so that it can be used to validate
// many values. An empty or all-whitespace raw, or the JSON literal null,
// yields a Validator that accepts anything. Compile never reads files or the
// network: a "$ref" that does not resolve inside the document fails with a
// [*CompileError] naming it. Every error returned is a [*CompileError]; one
// for a schema beyond the limits ([MaxSchemaBytes], [MaxSchemaNodes],
// [MaxCompileTime], or too much work to check a trivial value) wraps a
// [*LimitError].
func Compile(raw json.RawMessage) (*Validator, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return &Validator{}, nil
	}
	if len(trimmed) > MaxSchemaBytes {
		le := &LimitError{What: "size", Limit: fmt.Sprintf("%d bytes", MaxSchemaBytes)}
		return nil, &CompileError{Reason: le.Error(), Err: le}
	}
	doc, err := decodeJSON(trimmed)
	if err != nil {
		return nil, &CompileError{Reason: "not valid JSON: " + err.Error(), Err: err}
	}
	if verr := checkNumbers(doc); verr != nil {
		v := verr.Violations[0]
		return nil, &CompileError{Reason: "at " + displayPath(v.Path) + ": " + v.Message, Err: verr}
	}
	clampCounts(doc)
	if countSchemas(doc, MaxSchemaNodes) > MaxSchemaNodes {
		le := &LimitError{What: "subschemas", Limit: fmt.Sprint(MaxSchemaNodes)}
		return nil, &CompileError{Reason: le.Error(), Err: le}
	}
	if expandedSize(doc) > MaxExpandedNodes {
		le := &LimitError{What: "size with its $refs expanded", Limit: fmt.Sprint(MaxExpandedNodes)}
		return nil, &CompileError{Reason: le.Error(), Err: le}
	}
	loader := &refusingLoader{}
	m := &meter{}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(loader)
	c.UseRegexpEngine(ecmaRegexp)
	c.RegisterVocabulary(stepVocabulary(m, &compileMeter{deadline: time.Now().Add(MaxCompileTime)}))
	c.AssertVocabs()
	if err := c.AddResource(baseURL, doc); err != nil {
		return nil, &CompileError{Reason: err.Error(), Err: err}
	}
	sch, err := compileBounded(c)
	if err != nil {
		var le *LimitError
		if errors.As(err, &le) {
			return nil, &CompileError{Reason: le.Error(), Err: le}
		}
		return nil, compileError(err, loader.refused, doc)
	}
	v := &Validator{sch: sch, doc: doc, m: m, simple: compileSimple(doc), unique: hasUniqueItems(doc)}
	if obj, ok := doc.(map[string]any); ok {
		v.id, _ = obj["$id"].(string)
	}
	for _, p := range probes {
		err := m.run(context.Background(), probeSteps, probeSteps, func() error { return sch.Validate(p) })
		var le *LimitError
		if errors.As(err, &le) {
			le = &LimitError{What: "validation steps for a trivial value", Limit: fmt.Sprint(probeSteps)}
			return nil, &CompileError{Reason: le.Error(), Err: le}
		}
		var pe *PanicError
		if errors.As(err, &pe) {
			return nil, &CompileError{Reason: pe.Error(), Err: pe}
		}
	}
	return v, nil
}

// compileBounded compiles the schema, turning the step vocabulary's limit
// panic into an error.
func compileBounded(c *jsonschema.Compiler) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(stop)
			if !ok {
				// a failure of the library on an untrusted schema
				// refuses the schema; it must not end the host
				sch, err = nil, &PanicError{Value: fmt.Sprint(r)}
				return
			}
			sch, err = nil, s.err
		}
	}()
	return c.Compile(baseURL)
}

// compileError turns an error from the library into a *CompileError.
func compileError(err error, refused string, doc any) *CompileError {
	if refused != "" {
		obj, _ := doc.(map[string]any)
		if meta, _ := obj["$schema"].(string); meta != "" &&
			strings.TrimSuffix(meta, "#") == strings.TrimSuffix(refused, "#") {
			return &CompileError{
				Reason: fmt.Sprintf("unsupported \"$schema\" %q: use draft 2020-12, 2019-09, 07, 06 or 04", refused),
				Ref:    refused,
				Err:    err,
			}
		}
		refused = strings.TrimPrefix(refused, "mem:///")
		return &CompileError{
			Reason: fmt.Sprintf("reference %q points outside the schema document; "+
				"remote and file references are not loaded (inline it under $defs)", refused),
			Ref: refused,
			Err: err,
		}
	}
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var verr *jsonschema.ValidationError
		if errors.As(sve.Err, &verr) {
			if vs, _, _ := collectViolations(verr, nil, 1, MaxValidationSteps); len(vs) > 0 {
				return &CompileError{Reason: "does not match its meta-schema " + vs[0].String(), Err: err}
			}
		}
	}
	return &CompileError{Reason: strings.ReplaceAll(err.Error(), baseURL, "schema"), Err: err}
}

// refusingLoader is the compiler's only URLLoader. Meta-schemas of the
// standard drafts are embedded in the library and never reach it; any other
// document is refused and remembered for the error message.
type refusingLoader struct {
	refused string
}

// errRemoteRef is returned for every document the compiler asks to load.
var errRemoteRef = errors.New("loading schemas from outside the document is disabled")

// Load refuses to load url.
func (l *refusingLoader) Load(url string) (any, error) {
	if l.refused == "" {
		l.refused = url
	}
	return nil, errRemoteRef
}

// MaxPatternTime bounds one match of a "pattern" that needs the
// backtracking engine; a match that takes longer counts as no match (the
// value is refused).
const MaxPatternTime = 100 * time.Millisecond

// ecmaRegexp compiles patterns with Go's RE2 engine (linear time). ECMA-262
// features RE2 lacks (look-around, back-references) are common in schemas
// generated by JavaScript tools; such a pattern is compiled with the
// backtracking ECMAScript engine of github.com/dlclark/regexp2, each match
// bounded by MaxPatternTime. A pattern neither compiles is an error.
func ecmaRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err == nil {
		return re, nil
	}
	bt, err2 := regexp2.Compile(s, regexp2.ECMAScript|regexp2.Unicode)
	if err2 != nil {
		bt, err2 = regexp2.Compile(s, regexp2.ECMAScript)
	}
	if err2 != nil {
		return nil, err2
	}
	bt.MatchTimeout = MaxPatternTime
	return backtracking{bt}, nil
}

// backtracking is a pattern RE2 cannot compile, matched by regexp2.
type backtracking struct{ re *regexp2.Regexp }

// MatchString reports whether s matches; a match that times out or fails
// is no match.
func (b backtracking) MatchString(s string) bool {
	ok, err := b.re.MatchString(s)
	return err == nil && ok
}

// String returns the original pattern.
func (b backtracking) String() string { return b.re.String() }

// Validate checks instance, a value as produced by json.Unmarshal into an
// any (map[string]any, []any, string, float64 or json.Number, bool, nil).
// It returns nil when the value is valid and a [*ValidationError] otherwise.
func (v *Validator) Validate(instance any) error {
	return v.ValidateContext(context.Background(), instance)
}

// ValidateContext is [Validator.Validate] bounded by ctx and by
// [MaxValidationSteps]: it returns ctx's error when ctx ends first and a
// [*LimitError] when the value needs more steps. Validations of one
// Validator run one at a time.
//
// The steps count every subschema applied to a part of the value, the
// comparisons of "uniqueItems" checks, and the nodes of the library's
// error tree read to write the report. Only the first violations (by
// path) are rendered, however many there are.
func (v *Validator) ValidateContext(ctx context.Context, instance any) error {
	if v == nil || v.sch == nil {
		return nil
	}
	if v.simple != nil && ctx.Err() == nil && simpleValid(v.simple, instance) {
		return nil // certainly valid: the full validator would say so too
	}
	v.m.mu.Lock()
	defer v.m.mu.Unlock()
	return v.validateLocked(ctx, instance)
}

// validateLocked is ValidateContext past its quick checks, with v.m.mu
// held.
func (v *Validator) validateLocked(ctx context.Context, instance any) error {
	if verr := checkNumbers(instance); verr != nil {
		return verr // the library cannot compare such a number
	}
	budget := MaxValidationSteps
	if v.unique {
		budget -= uniqueCost(instance, budget)
		if budget < 0 {
			return &LimitError{What: "validation steps", Limit: fmt.Sprint(MaxValidationSteps)}
		}
	}
	err := v.m.run(ctx, budget, MaxValidationSteps, func() error { return v.sch.Validate(instance) })
	if err == nil {
		return nil
	}
	var le *LimitError
	if errors.As(err, &le) || ctx.Err() != nil {
		return err
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return &ValidationError{Rule: "schema", Message: err.Error()}
	}
	vs, omitted, complete := collectViolations(verr, v, maxViolations, max(v.m.left, 0))
	return newValidationError(vs, omitted, !complete)
}

// ValidateJSON decodes data (numbers kept exact) and validates the result
// like [Validator.Validate]. Malformed JSON is reported as a
// [*ValidationError] with Rule "json".
func (v *Validator) ValidateJSON(data []byte) error {
	return v.ValidateJSONContext(context.Background(), data)
}

// ValidateJSONContext is [Validator.ValidateJSON] bounded like
// [Validator.ValidateContext]. data is decoded in the validator's turn, so
// calls waiting for it do not hold their decoded values: one Validator
// keeps at most one decoded value at a time.
func (v *Validator) ValidateJSONContext(ctx context.Context, data []byte) error {
	if v != nil && v.simple != nil && ctx.Err() == nil && simpleValidJSON(v.simple, data) {
		return nil // what decodeJSON and ValidateContext would say, without decoding
	}
	if v == nil || v.sch == nil {
		if _, err := decodeJSON(data); err != nil {
			return &ValidationError{Rule: "json", Message: "malformed JSON: " + err.Error()}
		}
		return nil
	}
	v.m.mu.Lock()
	defer v.m.mu.Unlock()
	inst, err := decodeJSON(data)
	if err != nil {
		return &ValidationError{Rule: "json", Message: "malformed JSON: " + err.Error()}
	}
	if v.simple != nil && ctx.Err() == nil && simpleValid(v.simple, inst) {
		return nil
	}
	return v.validateLocked(ctx, inst)
}
