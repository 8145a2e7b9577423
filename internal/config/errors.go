package config

import (
	"strconv"
	"strings"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/suggest"
)

// Error is every error this package returns: a config file that cannot be
// found or read, is not valid JSON, or does not describe a valid
// configuration. Parsing stops at the first problem.
type Error struct {
	// Code is the stable code: [codes.ConfigNotFound] (the file does not
	// exist or cannot be read), [codes.ConfigSyntax] (not valid JSON) or
	// [codes.ConfigInvalid] (a key or value refused).
	Code codes.Code
	// File is the file name as given to [Load], [Parse] or [Find]; it may
	// be empty.
	File string
	// Path is the JSON Pointer (RFC 6901) of the offending value or key,
	// such as "/tools/github.*/policy" or "/mcpServers/remote/url". It is
	// empty for errors about the whole file (not found, invalid JSON, not
	// an object). In keys, "~" is written "~0" and "/" is written "~1".
	Path string
	// Line and Column locate the offending byte: 1-based, the column
	// counted in bytes. They are set for syntax errors and, where the
	// value is known, for the others too; 0 when unknown (file errors).
	Line, Column int
	// Message says what is wrong, such as `expected "allow", "ask" or
	// "deny", got "maybe"` or "invalid JSON: unexpected '}'".
	Message string
	// Suggestion is a hint for fixing it, such as `did you mean "limits"?`;
	// empty when there is none.
	Suggestion string
	// Err is the underlying error (for example from the file system), so
	// that errors.Is(err, fs.ErrNotExist) works; usually nil.
	Err error
}

// Error renders the error on one line:
//
//	modebox.json: /tools/github.*/policy: expected "allow", "ask" or "deny", got "maybe"
//	modebox.json:3:15: invalid JSON: unexpected '}'
//	modebox.json: /limts: unknown key (did you mean "limits"?)
//
// The line and column are part of the text only when there is no Path
// (syntax errors); a path already says where the problem is.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Path == "" && e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Message)
	if e.Suggestion != "" {
		b.WriteString(" (" + e.Suggestion + ")")
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the stable code (CONFIG_INVALID when Code is unset).
func (e *Error) ErrorCode() string {
	if e.Code == "" {
		return string(codes.ConfigInvalid)
	}
	return string(e.Code)
}

// pointer appends one reference token to a JSON Pointer.
func pointer(parent, token string) string {
	token = strings.ReplaceAll(token, "~", "~0")
	token = strings.ReplaceAll(token, "/", "~1")
	return parent + "/" + token
}

// didYouMean returns `did you mean "X"?` for the candidate closest to got,
// or "" when none is close enough to be a plausible typo.
func didYouMean(got string, candidates []string) string {
	if best := closest(got, candidates); best != "" {
		return "did you mean " + strconv.Quote(best) + "?"
	}
	return ""
}

// closest returns the candidate with the smallest edit distance to got
// (ignoring case), if that distance is small relative to the words: at
// most 2 edits, and fewer than half the length of the longer word. Ties go
// to the earlier candidate.
func closest(got string, candidates []string) string {
	best, bestDist := "", -1
	g := strings.ToLower(got)
	for _, c := range candidates {
		d := suggest.Distance(g, strings.ToLower(c))
		longer := max(len(g), len(c))
		if d > 2 || 2*d >= longer {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// quoteList renders names as `"a", "b" or "c"`.
func quoteList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	return b.String()
}
