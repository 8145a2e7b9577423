package tsx

import (
	"fmt"
	"path"
	"strings"
)

// Lang is the source language of a program.
type Lang int

const (
	// JS is JavaScript (ES2020 plus whatever esbuild can lower to it).
	JS Lang = iota
	// TS is TypeScript; types are stripped, nothing is type-checked.
	TS
)

// String returns "js" or "ts".
func (l Lang) String() string {
	switch l {
	case JS:
		return "js"
	case TS:
		return "ts"
	default:
		return fmt.Sprintf("Lang(%d)", int(l))
	}
}

// Filename returns the name used for the program in diagnostics:
// "main.js" or "main.ts".
func (l Lang) Filename() string {
	return "main." + l.String()
}

// LangFromName picks the language from a file name's extension:
// .js, .mjs and .cjs are JS; .ts, .mts and .cts are TS. JSX and TSX are not
// supported, and any other extension reports false.
func LangFromName(filename string) (Lang, bool) {
	switch strings.ToLower(path.Ext(filename)) {
	case ".js", ".mjs", ".cjs":
		return JS, true
	case ".ts", ".mts", ".cts":
		return TS, true
	default:
		return JS, false
	}
}

// ParseLang parses a language name: "js" or "javascript" for JS, "ts" or
// "typescript" for TS (case-insensitive, surrounding spaces ignored).
func ParseLang(s string) (Lang, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "js", "javascript":
		return JS, nil
	case "ts", "typescript":
		return TS, nil
	default:
		return JS, fmt.Errorf("tsx: unknown language %q (want js or ts)", s)
	}
}
