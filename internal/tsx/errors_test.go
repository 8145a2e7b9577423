package tsx

import (
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

func TestSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		name      string
		lang      Lang
		src       string
		line, col int
		msg       string
		lineText  string
	}{
		{"ts missing semicolon", TS, "const a = 1\nlet x y = 2\n", 2, 7, `Expected ";" but found "y"`, "let x y = 2"},
		{"js dangling operator", JS, "// one\n// two\nlet x = 1 +;", 3, 12, `Unexpected ";"`, "let x = 1 +;"},
		{"ts in js", JS, "let n: number = 1;\nreturn n;", 1, 6, `Expected ";" but found ":"`, "let n: number = 1;"},
		{"ts fenced", TS, "```ts\nconst a: number = 1\nlet x y\n```", 3, 7, `Expected ";" but found "y"`, "let x y"},
		{"js fenced with blank lines", JS, "\n\n  ```javascript\nreturn 1 +;\n```\n", 4, 11, `Unexpected ";"`, "return 1 +;"},
		{"crlf", TS, "const a = 1\r\nlet x y\r\n", 2, 7, `Expected ";" but found "y"`, "let x y"},
		{"bytes not characters", JS, "const s = \"é😀\"; let x y", 1, 27, `Expected ";" but found "y"`, "const s = \"é😀\"; let x y"},
		{"unclosed call", JS, "const a = 1;\nif (a) {\n  foo(\n\n", 3, 7, "Unexpected end of program", "  foo("},
		{"unclosed block", TS, "if (true) {\n  return 1;", 2, 12, "Unexpected end of program", "  return 1;"},
		{"unterminated template", JS, "const s = `abc\nreturn s;", 2, 10, "Unterminated string literal", "return s;"},
		{"unterminated string", JS, "const s = 'abc\nreturn s;", 1, 15, "Unterminated string literal", "const s = 'abc"},
		{"redeclared", JS, "let a = 1;\nlet a = 2;", 2, 5, `The symbol "a" has already been declared`, "let a = 2;"},
		{"export", TS, "export const a = 1;", 1, 1, `Unexpected "export"`, "export const a = 1;"},
		{"value import", JS, "\nimport x from 'y';", 2, 1, "import declarations are not supported", "import x from 'y';"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := TransformFull(tt.src, tt.lang)
			if err == nil {
				t.Fatalf("no error; code:\n%s", p.Code)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if se.Code() != codes.SyntaxError {
				t.Errorf("Code() = %q", se.Code())
			}
			d := se.Diagnostics[0]
			if d.Line != tt.line || d.Column != tt.col || !strings.HasPrefix(d.Message, tt.msg) || d.LineText != tt.lineText {
				t.Errorf("diagnostic = %+v\nwant line %d col %d msg %q text %q", d, tt.line, tt.col, tt.msg, tt.lineText)
			}
			prefix := tt.lang.Filename() + ":"
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), d.Message) {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{Filename: "main.ts", Diagnostics: []Diagnostic{
		{Message: `Expected ";" but found "x"`, Line: 3, Column: 7},
		{Message: "no column", Line: 4},
		{Message: "nowhere"},
	}}
	want := "main.ts:3:7: Expected \";\" but found \"x\"\nmain.ts:4: no column\nmain.ts: nowhere"
	if e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	if (&Error{Filename: "main.js"}).Error() != "main.js: syntax error" {
		t.Error("empty Error() wrong")
	}
}
