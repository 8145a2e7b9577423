package intl

import (
	"encoding/json"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// collationLocales are the tags of ours that ICU has collation data for
// under their own name; others resolve to their language, as in Node.
var collationLocales = map[string]bool{"en-US": true, "zh-CN": true, "zh-TW": true, "fr-CA": true, "de-AT": true}

type collator struct {
	mu                sync.Mutex // a collate.Collator is not safe for concurrent use
	c                 *collate.Collator
	primary           *collate.Collator // for the case level and case-first
	accent            *collate.Collator
	locale            string
	usage             string
	sensitivity       string
	ignorePunctuation bool
	collation         string
	numeric           bool
	caseFirst         string
}

func newCollator(locales []string, o options) (*collator, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	c := &collator{collation: "default"}
	if c.usage, err = o.str("usage", []string{"sort", "search"}, "sort"); err != nil {
		return nil, err
	}
	if _, err = o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	used := map[string]string{}
	if b, ok := o.boolean("numeric"); ok {
		c.numeric = b
	} else if v, ok := res.ext["kn"]; ok && (v == "true" || v == "false") {
		c.numeric = v == "true"
		used["kn"] = v
	}
	if c.caseFirst, err = o.str("caseFirst", []string{"upper", "lower", "false"}, ""); err != nil {
		return nil, err
	}
	if c.caseFirst == "" {
		if v, ok := res.ext["kf"]; ok && (v == "upper" || v == "lower" || v == "false") {
			c.caseFirst = v
			used["kf"] = v
		} else {
			c.caseFirst = "false"
		}
	}
	if c.sensitivity, err = o.str("sensitivity", []string{"base", "accent", "case", "variant"}, "variant"); err != nil {
		return nil, err
	}
	c.ignorePunctuation, _ = o.boolean("ignorePunctuation")
	loc := res.locale
	if !collationLocales[loc] {
		loc, _, _ = strings.Cut(loc, "-")
	}
	c.locale = withExt(loc, used)
	tag, err := language.Parse(res.locale)
	if err != nil {
		tag = language.English
	}
	num := []collate.Option{}
	if c.numeric {
		num = append(num, collate.Numeric)
	}
	opts := append([]collate.Option{}, num...)
	switch c.sensitivity {
	case "base", "case":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics, collate.IgnoreWidth)
	case "accent":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreWidth)
	}
	c.c = collate.New(tag, opts...)
	c.primary = collate.New(tag, append(num, collate.IgnoreCase, collate.IgnoreDiacritics, collate.IgnoreWidth)...)
	c.accent = collate.New(tag, append(num, collate.IgnoreCase)...)
	return c, nil
}

// caseSignature is the case of each letter (true for upper), accents and
// widths folded away: ICU's case level.
func caseSignature(s string) []bool {
	var out []bool
	s = strings.ReplaceAll(strings.ReplaceAll(s, "ß", "ss"), "ẞ", "SS")
	for _, r := range norm.NFKD.String(width.Fold.String(s)) {
		if unicode.Is(unicode.Mn, r) || !unicode.IsLetter(r) {
			continue
		}
		out = append(out, unicode.IsUpper(r) || unicode.IsTitle(r))
	}
	return out
}

// compareCase orders case signatures, lower first unless upperFirst.
func compareCase(a, b []bool, upperFirst bool) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] == upperFirst {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

func stripPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// scriptReorder is CLDR's [reorder ...] of a language's standard
// collation: these scripts sort first, in this order.
var scriptReorder = map[string][]*unicode.RangeTable{
	"ru": {unicode.Cyrillic}, "ja": {unicode.Latin, unicode.Katakana, unicode.Hiragana, unicode.Han},
	"ko": {unicode.Han, unicode.Hangul}, "zh": {unicode.Han}, "hi": {unicode.Devanagari}, "ar": {unicode.Arabic},
}

// scriptRank of a string's first letter: its script's place in the
// reorder list, len(list) for other scripts, -1 when it starts with no
// letter (spaces, punctuation and digits sort before every script).
func scriptRank(s string, list []*unicode.RangeTable) int {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			if unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) {
				return -1
			}
			continue
		}
		for i, t := range list {
			if unicode.Is(t, r) {
				if t == unicode.Hiragana {
					return i - 1 // kana are one group
				}
				return i
			}
		}
		return len(list)
	}
	return -1
}

func (c *collator) compare(a, b string) int {
	if c.ignorePunctuation {
		a, b = stripPunct(a), stripPunct(b)
	}
	lang, _, _ := strings.Cut(c.locale, "-")
	if list := scriptReorder[lang]; list != nil {
		ra, rb := scriptRank(a, list), scriptRank(b, list)
		if ra >= 0 && rb >= 0 && ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
	}
	r := c.c.CompareString(a, b)
	switch {
	case c.sensitivity == "case" && r == 0:
		return compareCase(caseSignature(a), caseSignature(b), c.caseFirst == "upper")
	case c.caseFirst == "upper" && r != 0 && (c.sensitivity == "variant" || c.sensitivity == "case") && c.accent.CompareString(a, b) == 0:
		// they differ in case (or width) only: upper case first
		if x := compareCase(caseSignature(a), caseSignature(b), true); x != 0 {
			return x
		}
	}
	return r
}

func (c *collator) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		return ordered("locale", c.locale, "usage", c.usage, "sensitivity", c.sensitivity,
			"ignorePunctuation", c.ignorePunctuation, "collation", c.collation, "numeric", c.numeric, "caseFirst", c.caseFirst), nil
	case "compare":
		var a, b string
		if err := arg(rest, 1, &a); err != nil {
			return nil, err
		}
		if err := arg(rest, 2, &b); err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.compare(a, b), nil
	case "sort":
		// compare many pairs in one call: [[a, b], ...]
		var pairs [][2]string
		if err := arg(rest, 1, &pairs); err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		out := make([]int, len(pairs))
		for i, p := range pairs {
			out[i] = c.compare(p[0], p[1])
		}
		return out, nil
	}
	return nil, typeErr("Intl: unknown method")
}
