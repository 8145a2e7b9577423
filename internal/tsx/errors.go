package tsx

import (
	"fmt"
	"strings"

	"github.com/modebox/modebox/internal/codes"
)

// Diagnostic is one problem found in a program's source.
type Diagnostic struct {
	// Message is esbuild's text, e.g. `Expected ";" but found "x"`.
	Message string
	// Line is 1-based and counts lines of the text the user sent,
	// including any markdown fence lines that were stripped; 0 if unknown.
	Line int
	// Column is 1-based and counts bytes (not characters) into Line;
	// 0 if unknown.
	Column int
	// LineText is the user's source line Line, without its line break.
	LineText string
}

// format renders the diagnostic as "file:line:col: message".
func (d Diagnostic) format(filename string) string {
	switch {
	case d.Line <= 0:
		return fmt.Sprintf("%s: %s", filename, d.Message)
	case d.Column <= 0:
		return fmt.Sprintf("%s:%d: %s", filename, d.Line, d.Message)
	default:
		return fmt.Sprintf("%s:%d:%d: %s", filename, d.Line, d.Column, d.Message)
	}
}

// Error is a program that does not compile: one or more diagnostics, in
// source order as esbuild reported them.
type Error struct {
	// Filename names the program in messages: "main.js" or "main.ts".
	Filename string
	// Diagnostics holds at least one problem.
	Diagnostics []Diagnostic
}

// Error returns one "main.ts:3:7: message" line per diagnostic.
func (e *Error) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.format(e.Filename)
	}
	if len(lines) == 0 {
		return e.Filename + ": syntax error"
	}
	return strings.Join(lines, "\n")
}

// Code returns [codes.SyntaxError].
func (e *Error) Code() codes.Code { return codes.SyntaxError }
