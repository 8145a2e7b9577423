package schema

import (
	"strconv"
	"strings"

	"github.com/modebox/modebox/internal/codes"
)

const (
	// maxViolations caps how many violations one ValidationError keeps.
	maxViolations = 10
	// shownViolations caps how many violations Error renders.
	shownViolations = 3
	// maxMessage caps the length of one violation's message.
	maxMessage = 200
)

// Violation is one failed rule at one location of the validated value.
type Violation struct {
	// Path is the JSON Pointer (RFC 6901) of the offending value, such as
	// "/items/0/name"; "" is the whole value.
	Path string
	// Rule is the schema keyword that failed, such as "type", "required",
	// "enum", "minimum" or "additionalProperties".
	Rule string
	// Message says what was wrong, such as "got number, want string".
	Message string
}

// String renders the violation as "at PATH: RULE: MESSAGE", with "root"
// standing for the empty path.
func (v Violation) String() string {
	return "at " + displayPath(v.Path) + ": " + v.Rule + ": " + v.Message
}

// displayPath renders a JSON Pointer for humans.
func displayPath(p string) string {
	if p == "" {
		return "root"
	}
	return p
}

// ValidationError reports a value that does not match its schema. Path,
// Rule and Message describe the first violation (ordered by path); all
// violations found, up to a cap, are in Violations.
type ValidationError struct {
	// Path is the JSON Pointer of the first offending value ("" for root).
	Path string
	// Rule is the keyword of the first failed rule.
	Rule string
	// Message describes the first failure.
	Message string
	// Violations lists the first violations by path (array indexes
	// numerically, a parent before its children, then by rule), first one
	// included, capped at a small number.
	Violations []Violation
	// Omitted counts violations found beyond the cap. Only the reported
	// ones are rendered; the others are counted (a violation that two
	// subschemas report alike may count twice).
	Omitted int
	// Incomplete says the library's error tree was larger than the step
	// budget left after validation, so not all of it was read: Violations
	// are then the first by path among those read, and Omitted is a lower
	// bound.
	Incomplete bool
}

// newValidationError builds a ValidationError from ordered violations.
func newValidationError(vs []Violation, omitted int, incomplete bool) *ValidationError {
	e := &ValidationError{Violations: vs, Omitted: omitted, Incomplete: incomplete}
	if len(vs) > 0 {
		e.Path, e.Rule, e.Message = vs[0].Path, vs[0].Rule, vs[0].Message
	} else {
		e.Rule, e.Message = "schema", "value does not match the schema"
	}
	return e
}

// Code returns [codes.InvalidArgument].
func (e *ValidationError) Code() codes.Code { return codes.InvalidArgument }

// Error renders up to three violations, for example
//
//	invalid argument at /items/0/name: type: got number, want string
//	invalid argument at root: required: missing property "q"; at /n: minimum: got -1, want >= 0
func (e *ValidationError) Error() string {
	vs := e.Violations
	if len(vs) == 0 {
		vs = []Violation{{Path: e.Path, Rule: e.Rule, Message: e.Message}}
	}
	var b strings.Builder
	b.WriteString("invalid argument ")
	for i, v := range vs {
		if i == shownViolations {
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	more := max(len(vs)-shownViolations, 0) + e.Omitted
	switch {
	case e.Incomplete && more > 0:
		b.WriteString(" (and at least " + strconv.Itoa(more) + " more)")
	case e.Incomplete:
		b.WriteString(" (and possibly more)")
	case more > 0:
		b.WriteString(" (and " + strconv.Itoa(more) + " more)")
	}
	return b.String()
}

// truncate shortens s to at most n bytes, marking the cut with "...".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// utf8Start reports whether b begins a UTF-8 encoded rune.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
