package intl

import (
	"encoding/json"
	"strings"
)

type listPatterns struct {
	Start  string `json:"start"`
	Middle string `json:"middle"`
	End    string `json:"end"`
	Pair   string `json:"pair"`
}

type listFormat struct {
	locale, typ, style string
	p                  listPatterns
	spanish            bool // "y" and "o" change before some words
}

func newListFormat(locales []string, o options) (*listFormat, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	if _, err = o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	f := &listFormat{locale: res.locale}
	if f.typ, err = o.str("type", []string{"conjunction", "disjunction", "unit"}, "conjunction"); err != nil {
		return nil, err
	}
	if f.style, err = o.str("style", []string{"long", "short", "narrow"}, "long"); err != nil {
		return nil, err
	}
	ld, err := dataFor(res.data)
	if err != nil {
		return nil, err
	}
	var all map[string]map[string]listPatterns
	if err := json.Unmarshal(ld.List, &all); err != nil {
		return nil, err
	}
	f.p = all[f.typ][f.style]
	f.spanish = res.data == "es" || strings.HasPrefix(res.data, "es-")
	return f, nil
}

// spanishPattern is ICU's contextual Spanish list pattern: "y" is "e"
// before a word that starts with the sound "i" (i..., hi... but not
// hia..., hie...), "o" is "u" before o..., ho..., 8... and the number 11
// ("11" alone or before a space). As ICU, only unaccented letters count.
func spanishPattern(p, next string) string {
	lower := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, next)
	switch p {
	case "{0} y {1}":
		if strings.HasPrefix(lower, "i") || strings.HasPrefix(lower, "hi") && !strings.HasPrefix(lower, "hia") && !strings.HasPrefix(lower, "hie") {
			return "{0} e {1}"
		}
	case "{0} o {1}":
		if strings.HasPrefix(lower, "o") || strings.HasPrefix(lower, "8") || strings.HasPrefix(lower, "ho") || lower == "11" || strings.HasPrefix(lower, "11 ") {
			return "{0} u {1}"
		}
	}
	return p
}

func (f *listFormat) parts(items []string) []part {
	el := func(s string) []part { return []part{{Type: "element", Value: s}} }
	switch len(items) {
	case 0:
		return nil
	case 1:
		return el(items[0])
	}
	n := len(items)
	pair, end := f.p.Pair, f.p.End
	if f.spanish {
		pair, end = spanishPattern(pair, items[n-1]), spanishPattern(end, items[n-1])
	}
	if n == 2 {
		return substitute(pair, el(items[0]), el(items[1]))
	}
	acc := substitute(end, el(items[n-2]), el(items[n-1]))
	for i := n - 3; i >= 1; i-- {
		acc = substitute(f.p.Middle, el(items[i]), acc)
	}
	return mergeLiterals(substitute(f.p.Start, el(items[0]), acc))
}

func mergeLiterals(ps []part) []part {
	var out []part
	for _, p := range ps {
		if n := len(out); n > 0 && p.Type == "literal" && out[n-1].Type == "literal" {
			out[n-1].Value += p.Value
			continue
		}
		out = append(out, p)
	}
	return out
}

func (f *listFormat) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		return ordered("locale", f.locale, "type", f.typ, "style", f.style), nil
	case "format", "formatToParts":
		var items []string
		if err := arg(rest, 1, &items); err != nil {
			return nil, err
		}
		ps := f.parts(items)
		if methodName(rest) == "format" {
			var b strings.Builder
			for _, p := range ps {
				b.WriteString(p.Value)
			}
			return b.String(), nil
		}
		if ps == nil {
			ps = []part{}
		}
		return ps, nil
	}
	return nil, typeErr("Intl: unknown method")
}
