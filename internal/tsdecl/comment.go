package tsdecl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	maxDocValue = 120 // runes of a value shown after a tag
	maxExamples = 3
)

// docBreaks turns every line break a reader may show as one (CRLF, CR,
// U+2028, U+2029, U+0085) into \n: a doc comment's lines are split at
// \n only, and each must start with " * ", so text after a bare CR
// cannot look like a declaration of its own.
var docBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n", "\u0085", "\n")

// splitDoc splits doc text into lines at every line break (see docBreaks).
func splitDoc(s string) []string {
	return strings.Split(docBreaks.Replace(s), "\n")
}

// isControl reports whether r is a C0 or C1 control character or DEL,
// other than tab, or a bidirectional format character (U+061C, U+200E,
// U+200F, U+202A–U+202E, U+2066–U+2069): those reorder what an editor
// or a terminal shows, so that a description could show one text to a
// person reviewing the declarations and hold another ("Trojan Source").
func isControl(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeControls writes control characters (ESC, a C1 CSI, a bidi
// override, ...; see isControl) as \u{XX}, so none reaches a reader's
// terminal or editor or shifts what it shows.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, "\\u{%02x}", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// boundTags are the schema keywords rendered as "@keyword value" lines, in
// this order.
var boundTags = []string{
	"format", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
	"multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
	"minProperties", "maxProperties", "contentEncoding", "contentMediaType",
}

// docLines returns the doc comment lines for schema n: its description
// (or its title, unless the title only repeats name), then tags. Root
// schemas pass titleOK false: generators give them titles such as
// "create_issueArguments".
func docLines(n any, name string, titleOK bool) []string {
	o, ok := n.(*object)
	if !ok {
		return nil
	}
	var lines []string
	text := strings.TrimSpace(o.str("description"))
	if t := strings.TrimSpace(o.str("title")); text == "" && titleOK && t != "" && normWord(t) != normWord(name) {
		text = t
	}
	if text != "" {
		lines = append(lines, splitDoc(cutBytes(text, MaxSchemaDocLength))...)
	}
	if note := requireNote(o); note != "" {
		lines = append(lines, note)
	}
	if v, _ := o.get("deprecated"); v == true {
		lines = append(lines, "@deprecated")
	}
	if v, ok := o.get("default"); ok {
		lines = append(lines, "@default "+clip(jsonText(v)))
	}
	for _, k := range boundTags {
		v, ok := o.get(k)
		if !ok {
			continue
		}
		switch x := v.(type) {
		case string:
			lines = append(lines, "@"+k+" "+clip(x))
		case bool: // draft-04 exclusiveMinimum/exclusiveMaximum flags
			if x {
				lines = append(lines, "@"+k)
			}
		default:
			lines = append(lines, "@"+k+" "+clip(jsonText(x)))
		}
	}
	if v, _ := o.get("uniqueItems"); v == true {
		lines = append(lines, "@uniqueItems")
	}
	var examples []any
	if v, ok := o.get("examples"); ok {
		if a, ok := v.([]any); ok {
			examples = a
		}
	}
	if v, ok := o.get("example"); ok { // OpenAPI
		examples = append(examples, v)
	}
	for i, e := range examples {
		if i == maxExamples {
			break
		}
		lines = append(lines, "@example "+clip(jsonText(e)))
	}
	return lines
}

// requireNote describes a oneOf/anyOf whose branches only list required
// properties ("give a or b"), which the type itself does not show.
func requireNote(o *object) string {
	for _, k := range []string{"oneOf", "anyOf"} {
		v, _ := o.get(k)
		branches, _ := v.([]any)
		var sets []string
		for _, b := range branches {
			bo, ok := b.(*object)
			if !ok || hasTypeInfo(bo) {
				sets = nil
				break
			}
			rv, _ := bo.get("required")
			req, _ := rv.([]any)
			var names []string
			for _, r := range req {
				if s, ok := r.(string); ok {
					names = append(names, s)
				}
			}
			if len(names) == 0 {
				sets = nil
				break
			}
			sets = append(sets, "`"+strings.Join(names, ", ")+"`")
		}
		if len(sets) > 0 {
			how := "at least"
			if k == "oneOf" {
				how = "exactly"
			}
			return "Needs " + how + " one of: " + strings.Join(sets, " | ") + "."
		}
	}
	return ""
}

// cutBytes cuts s to at most n bytes (at a rune boundary), marking a cut
// with "…".
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// clip shortens a value shown in a doc comment.
func clip(s string) string {
	s = strings.ReplaceAll(docBreaks.Replace(s), "\n", " ")
	if utf8.RuneCountInString(s) <= maxDocValue {
		return s
	}
	r := []rune(s)
	return string(r[:maxDocValue]) + "…"
}

// writeDoc writes lines as a /** */ comment at indent: on one line when
// there is a single line, else one " * " line each. A line with a line
// break in it is more lines (see docBreaks); control characters are
// escaped (see escapeControls).
func writeDoc(b *strings.Builder, indent string, lines []string) {
	for i, l := range lines {
		if strings.ContainsAny(l, "\n\r\u2028\u2029\u0085") {
			var split []string
			split = append(split, lines[:i]...)
			for _, l := range lines[i:] {
				split = append(split, splitDoc(l)...)
			}
			lines = split
			break
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return
	}
	esc := func(s string) string {
		return strings.ReplaceAll(escapeControls(strings.TrimRight(s, " \t")), "*/", "*\\/")
	}
	if len(lines) == 1 {
		b.WriteString(indent + "/** " + esc(lines[0]) + " */\n")
		return
	}
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		if l = esc(l); l == "" {
			b.WriteString(indent + " *\n")
		} else {
			b.WriteString(indent + " * " + l + "\n")
		}
	}
	b.WriteString(indent + " */\n")
}
