// Package tsx compiles model-written JavaScript and TypeScript programs into
// scripts that QuickJS 2021-03-27 can run, and maps positions in those
// scripts back to the text the model sent.
//
// A program is the body of an async function: top-level return gives its
// result and top-level await works. Transform strips a markdown code fence
// around the whole text, wraps the body in an async function expression,
// and runs esbuild to strip TypeScript and lower syntax newer than ES2020
// (class static blocks, #x in obj, ...). Evaluated as a global script, the
// result's completion value is that async function; calling it runs the
// program.
//
// Lines are 1-based and count lines of the text as sent (fence lines
// included; CRLF and lone CR count as one line break). Columns are 1-based
// and count bytes into their line.
package tsx

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/evanw/esbuild/pkg/api"
)

const (
	// wrapperHead opens the async function that holds the program; it is
	// line 1 of what esbuild compiles, so body line n is line n+1 there.
	wrapperHead = "(async function __modebox_main() {\n"
	// wrapperTail closes it on a line of its own, so that a trailing
	// line comment in the body cannot swallow it.
	wrapperTail = "\n})"
	// codeTail is how esbuild's output ends when the wrapper statement is
	// the last statement of the script.
	codeTail = "});\n"
	// directHead and directTail wrap a program that skips esbuild. The
	// function expression is the second operand of a comma rather than
	// in parentheses: QuickJS meets a "(" at the start of an expression
	// by scanning, token by token, to its matching ")" to see whether an
	// arrow follows, and in parentheses that is the whole program, so
	// every program would be tokenized twice. Line 1 is still the
	// wrapper's alone, and the function is still the script's completion
	// value.
	directHead = "0, async function __modebox_main() {\n"
	directTail = "\n};\n"
	// maxDiagnostics caps the number of errors esbuild reports.
	maxDiagnostics = 10
)

// Program is a compiled program. It is immutable and safe for concurrent
// use; Transform may return the same *Program for the same source.
type Program struct {
	// Code is the script to evaluate. Its completion value is an async
	// function taking no arguments whose promise settles with the
	// program's result. Helper declarations (var __publicField = ...) may
	// come before the function expression statement, which is always
	// last.
	Code string
	// Lang is the language the program was compiled as.
	Lang Lang
	// Warnings holds esbuild's warnings, e.g. for a comparison with NaN.
	Warnings []Diagnostic
	// Direct is set when Code is the program as sent, only wrapped (and,
	// for TypeScript, its types replaced by spaces), and was not run
	// through esbuild (see Transform). If
	// QuickJS then refuses it as a syntax error, compile it again with
	// TransformFull for esbuild's diagnostics or lowering.
	Direct bool

	text      string       // the user's text, line breaks normalized to LF
	offset    int          // user lines before the body (a stripped fence)
	bodyLines int          // lines in the body
	wrapped   string       // what esbuild compiled (not for direct programs)
	mapOnce   sync.Once    // makes mappings and codeLines (sourceMap)
	codeLines []int        // byte offset in Code where each line starts
	mappings  [][]segment  // decoded source map, by generated line
	mapBytes  atomic.Int64 // the memory mappings and codeLines hold, once made
}

// size is about the memory p holds, for the cache's budget.
func (p *Program) size() int64 {
	return int64(len(p.text)+len(p.Code)+len(p.wrapped)) + p.mapBytes.Load()
}

// Transform compiles src, the body of an async function written in lang,
// into a Program. A syntax error is returned as an *Error. Results are
// cached by source text, so compiling the same program again is cheap.
//
// JavaScript without module syntax, classes, decorators or `using` (see
// direct) is not run through esbuild: it is only wrapped, and the result
// has Direct set. So is TypeScript whose types stripTypes can blank out
// with certainty (type annotations, interfaces, type aliases, generics,
// as, satisfies, !; not enums, namespaces, classes or decorators), when
// the JavaScript left passes the same check. Such a program may still fail
// to parse in QuickJS; the caller then uses TransformFull.
func Transform(src string, lang Lang) (*Program, error) {
	return transform(src, lang, true)
}

// TransformFull is Transform always through esbuild: its diagnostics for a
// program that does not parse, and its lowering of syntax newer than
// QuickJS 2021-03-27.
func TransformFull(src string, lang Lang) (*Program, error) {
	return transform(src, lang, false)
}

func transform(src string, lang Lang, allowDirect bool) (*Program, error) {
	if lang != JS && lang != TS {
		return nil, fmt.Errorf("tsx: unknown language %v", lang)
	}
	key := keyFor(lang, allowDirect, src)
	if p, ok := programs.get(key); ok {
		return p, nil
	}
	p, err := compile(src, lang, allowDirect)
	if err != nil {
		return nil, err
	}
	programs.add(key, p)
	return p, nil
}

// compile does the work of Transform, without the cache.
func compile(src string, lang Lang, allowDirect bool) (*Program, error) {
	text := normalizeNewlines(src)
	body, offset := stripFence(text)
	p := &Program{
		Lang:      lang,
		text:      text,
		offset:    offset,
		bodyLines: strings.Count(body, "\n") + 1,
	}
	body, problems := dropLeadingImports(body, lang)
	if len(problems) > 0 {
		e := &Error{Filename: lang.Filename()}
		for _, pr := range problems {
			e.Diagnostics = append(e.Diagnostics, p.bodyDiagnostic(body, pr.msg, pr.offset))
		}
		return nil, e
	}

	// esbuild and stripTypes recurse as deep as the program nests
	// (nesting.go); a direct JavaScript program goes to QuickJS alone
	checked := false
	checkDepth := func() error {
		if checked {
			return nil
		}
		checked = true
		if ne := checkNesting(body); ne != nil {
			return &Error{Filename: lang.Filename(), Diagnostics: []Diagnostic{p.bodyDiagnostic(body, ne.msg, ne.offset)}}
		}
		return nil
	}

	if allowDirect {
		code, ok := body, false
		if lang == TS {
			if err := checkDepth(); err != nil {
				return nil, err
			}
			var stripped bool
			code, ok, stripped = stripTypes(body)
			ok = ok && stripped
		} else {
			ok = direct(body)
		}
		if ok {
			p.Direct = true
			p.Code = directHead + code + directTail
			return p, nil
		}
	}

	if err := checkDepth(); err != nil {
		return nil, err
	}
	wrapped := wrapperHead + body + wrapperTail
	res := api.Transform(wrapped, esbuildOptions(lang, false))
	if len(res.Errors) > 0 {
		e := &Error{Filename: lang.Filename()}
		for _, m := range res.Errors {
			d := p.messageDiagnostic(m)
			d.Message = explainNamespace(d)
			e.Diagnostics = append(e.Diagnostics, d)
		}
		return nil, e
	}
	for _, m := range res.Warnings {
		p.Warnings = append(p.Warnings, p.messageDiagnostic(m))
	}

	p.Code = string(res.Code)
	if !strings.HasSuffix(p.Code, codeTail) ||
		!(strings.HasPrefix(p.Code, wrapperHead) || strings.Contains(p.Code, "\n"+wrapperHead)) {
		return nil, fmt.Errorf("tsx: esbuild output does not end with the program's function expression")
	}
	p.wrapped = wrapped
	return p, nil
}

// nativeClassFeatures are the ES2022 class features the engine runs as
// they are (public and private fields, methods and accessors, static
// ones too), which esbuild is told not to lower: lowered, a class whose
// static members name it became `const _Reg = class _Reg`, and
// `Reg.name` read "_Reg". Brand checks (`#x in o`) and static blocks are
// still lowered: the engine's parser has neither.
var nativeClassFeatures = map[string]bool{
	"class-field": true, "class-private-field": true,
	"class-private-method": true, "class-private-accessor": true,
	"class-static-field": true, "class-private-static-field": true,
	"class-private-static-method": true, "class-private-static-accessor": true,
}

// esbuildOptions are compile's options for esbuild's transform, with a
// source map or without.
func esbuildOptions(lang Lang, sourceMap bool) api.TransformOptions {
	o := api.TransformOptions{
		LogLevel:   api.LogLevelSilent,
		LogLimit:   maxDiagnostics,
		Target:     api.ES2020,
		Supported:  nativeClassFeatures,
		Sourcefile: lang.Filename(),
		Loader:     api.LoaderJS,
	}
	if lang == TS {
		o.Loader = api.LoaderTS
	}
	if sourceMap {
		o.Sourcemap, o.SourcesContent = api.SourceMapExternal, api.SourcesContentExclude
	}
	return o
}

// sourceMap returns the decoded source map of a program compiled by
// esbuild and the byte offsets where the lines of Code start. They are
// made on first use, by transforming the program again with a source map
// (esbuild prints the same code either way; a program whose code differs,
// or whose map does not decode, maps no position): only an error's
// position needs them, and a transform without a map costs less (see
// BenchmarkEsbuildOptions).
func (p *Program) sourceMap() ([][]segment, []int) {
	p.mapOnce.Do(func() {
		res := api.Transform(p.wrapped, esbuildOptions(p.Lang, true))
		if len(res.Errors) > 0 || string(res.Code) != p.Code {
			return
		}
		m, err := decodeSourceMap(res.Map)
		if err != nil {
			return
		}
		p.mappings, p.codeLines = m, lineStarts(p.Code)
		n := int64(len(m))*int64(unsafe.Sizeof([]segment(nil))) + int64(len(p.codeLines))*int64(unsafe.Sizeof(0))
		for _, l := range m {
			n += int64(cap(l)) * int64(unsafe.Sizeof(segment{}))
		}
		p.mapBytes.Store(n)
	})
	return p.mappings, p.codeLines
}

// messageDiagnostic converts an esbuild message to a Diagnostic in the
// user's text.
func (p *Program) messageDiagnostic(m api.Message) Diagnostic {
	if m.Location == nil {
		return Diagnostic{Message: m.Text}
	}
	return p.diagnostic(m.Text, m.Location.Line, m.Location.Column)
}

// diagnostic builds a Diagnostic from a position in the wrapped source
// (1-based line, 0-based byte column). A position on the wrapper's first
// line is moved to the start of the body, one on its last line to the end
// of the body's last non-blank line, where it means the body ended too soon.
func (p *Program) diagnostic(msg string, line, col int) Diagnostic {
	d := Diagnostic{Message: msg}
	switch bodyLine := line - 1; {
	case bodyLine < 1:
		d.Line, d.Column = p.offset+1, 1
	case bodyLine > p.bodyLines:
		d.Line = p.offset + p.bodyLines
		for d.Line > p.offset+1 && strings.TrimSpace(p.LineText(d.Line)) == "" {
			d.Line--
		}
		d.Column = len(p.LineText(d.Line)) + 1
		for _, tok := range []string{`"}"`, `")"`} {
			if strings.HasSuffix(msg, tok) {
				d.Message = strings.TrimSuffix(msg, tok) + "end of program"
				break
			}
		}
	default:
		d.Line, d.Column = p.offset+bodyLine, col+1
	}
	d.LineText = p.LineText(d.Line)
	return d
}

// bodyDiagnostic builds a Diagnostic for the byte offset off of body.
func (p *Program) bodyDiagnostic(body, msg string, off int) Diagnostic {
	line := 1 + strings.Count(body[:off], "\n")
	col := off - (strings.LastIndexByte(body[:off], '\n') + 1)
	return p.diagnostic(msg, line+1, col)
}

// LineText returns line n (1-based) of the text the user sent, without its
// line break, or "" if there is no such line.
func (p *Program) LineText(n int) string {
	if n < 1 {
		return ""
	}
	// Found by scanning: it is read only for diagnostics and errors.
	t := p.text
	for ; n > 1; n-- {
		i := strings.IndexByte(t, '\n')
		if i < 0 {
			return ""
		}
		t = t[i+1:]
	}
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		return t[:i]
	}
	return t
}

// lineStarts returns the byte offset at which each line of s starts.
func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}
