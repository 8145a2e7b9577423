package intl

import (
	"encoding/json"
	"strconv"
	"strings"
)

// plurals holds CLDR 48's plural rules by data locale: [cardinal, ordinal],
// each category -> rule text ("i = 1 and v = 0").
var plurals map[string][2]map[string]string

// operands are CLDR's plural operands of a formatted number.
type operands struct {
	i    string // integer digits
	frac string // visible fraction digits
	e    int    // compact exponent
}

// value gives an operand as an integer; ok is false for a non-integer n.
func (o operands) value(name byte, mod int64) (int64, bool) {
	digitsMod := func(s string) int64 {
		// ICU keeps at most 18 integer digits for i (it truncates larger)
		if len(s) > 18 {
			s = s[len(s)-18:]
		}
		v, _ := strconv.ParseInt(strings.TrimLeft(s, "0")+"0", 10, 64)
		v /= 10
		if mod > 0 {
			v %= mod
		}
		return v
	}
	switch name {
	case 'n':
		if strings.Trim(o.frac, "0") != "" {
			return 0, false
		}
		return digitsMod(o.i), true
	case 'i':
		return digitsMod(o.i), true
	case 'v':
		return int64(len(o.frac)), true
	case 'w':
		return int64(len(strings.TrimRight(o.frac, "0"))), true
	case 'f':
		return digitsMod(o.frac), true
	case 't':
		return digitsMod(strings.TrimRight(o.frac, "0")), true
	case 'c', 'e':
		return int64(o.e), true
	}
	return 0, false
}

// matchRule evaluates a CLDR plural rule ("" matches everything).
func matchRule(rule string, o operands) bool {
	if strings.TrimSpace(rule) == "" {
		return true
	}
	for _, and := range strings.Split(rule, " or ") {
		ok := true
		for _, rel := range strings.Split(and, " and ") {
			if !matchRelation(strings.TrimSpace(rel), o) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func matchRelation(rel string, o operands) bool {
	neg := false
	lhs, rhs, found := strings.Cut(rel, "!=")
	if found {
		neg = true
	} else {
		lhs, rhs, _ = strings.Cut(rel, "=")
	}
	lhs = strings.TrimSpace(lhs)
	var mod int64
	if a, b, ok := strings.Cut(lhs, "%"); ok {
		lhs = strings.TrimSpace(a)
		mod, _ = strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	}
	if lhs == "" {
		return false
	}
	v, isInt := o.value(lhs[0], mod)
	in := false
	if isInt {
		for _, r := range strings.Split(rhs, ",") {
			r = strings.TrimSpace(r)
			lo, hi, isRange := strings.Cut(r, "..")
			a, _ := strconv.ParseInt(lo, 10, 64)
			b := a
			if isRange {
				b, _ = strconv.ParseInt(hi, 10, 64)
			}
			if v >= a && v <= b {
				in = true
				break
			}
		}
	}
	return in != neg
}

var categoryOrder = []string{"zero", "one", "two", "few", "many"}

func pluralRulesFor(dataLocale string, ordinal bool) map[string]string {
	dataOnce.Do(loadRaw)
	idx := 0
	if ordinal {
		idx = 1
	}
	if r, ok := plurals[dataLocale]; ok {
		return r[idx]
	}
	return plurals["en"][idx]
}

// pluralCategory is the CLDR plural category of a formatted number given
// as its integer and fraction digits (ASCII).
func pluralCategory(dataLocale string, ordinal bool, ip, fp string) string {
	return pluralCategoryE(dataLocale, ordinal, ip, fp, 0)
}

func pluralCategoryE(dataLocale string, ordinal bool, ip, fp string, e int) string {
	rules := pluralRulesFor(dataLocale, ordinal)
	o := operands{i: ip, frac: fp, e: e}
	for _, c := range categoryOrder {
		if r, ok := rules[c]; ok && matchRule(r, o) {
			return c
		}
	}
	return "other"
}

type pluralRules struct {
	nf      *numberFormat
	ordinal bool
	locale  string
}

func newPluralRules(locales []string, o options) (*pluralRules, error) {
	typ, err := o.str("type", []string{"cardinal", "ordinal"}, "cardinal")
	if err != nil {
		return nil, err
	}
	nf, err := newNumberFormat(locales, options{m: map[string]any{
		"minimumIntegerDigits": o.m["minimumIntegerDigits"], "minimumFractionDigits": o.m["minimumFractionDigits"],
		"maximumFractionDigits": o.m["maximumFractionDigits"], "minimumSignificantDigits": o.m["minimumSignificantDigits"],
		"maximumSignificantDigits": o.m["maximumSignificantDigits"], "roundingPriority": o.m["roundingPriority"],
		"roundingIncrement": o.m["roundingIncrement"], "roundingMode": o.m["roundingMode"],
		"trailingZeroDisplay": o.m["trailingZeroDisplay"],
	}, ctor: "PluralRules"})
	if err != nil {
		return nil, err
	}
	return &pluralRules{nf: nf, ordinal: typ == "ordinal", locale: pluralLocale(nf.res)}, nil
}

// pluralLocale is the locale ICU reports for plural rules: that of the
// rules it found, which CLDR gives by language (en-US and en-GB are en,
// zh-Hant is zh) but for pt-PT; or the default locale as it is when no
// requested locale is shipped.
func pluralLocale(res resolved) string {
	if res.fallback {
		return res.locale
	}
	if res.locale == "pt-PT" || strings.HasPrefix(res.locale, "pt-PT-") {
		return "pt-PT"
	}
	lang, _, _ := strings.Cut(res.locale, "-")
	return lang
}

func (p *pluralRules) categories() []string {
	rules := pluralRulesFor(p.nf.res.data, p.ordinal)
	// ICU's order: alphabetical, "other" last
	var out []string
	for _, c := range []string{"few", "many", "one", "two", "zero"} {
		if _, ok := rules[c]; ok {
			out = append(out, c)
		}
	}
	return append(out, "other")
}

func (p *pluralRules) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		ro := ordered("locale", p.locale, "type", map[bool]string{true: "ordinal", false: "cardinal"}[p.ordinal])
		nro := p.nf.resolvedOptions()
		for i := 0; i+1 < len(nro); i += 2 {
			switch nro[i] {
			case "minimumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits":
				ro = append(ro, nro[i], nro[i+1])
			}
		}
		ro = append(ro, "pluralCategories", p.categories())
		for i := 0; i+1 < len(nro); i += 2 {
			switch nro[i] {
			case "roundingIncrement", "roundingMode", "roundingPriority", "trailingZeroDisplay":
				ro = append(ro, nro[i], nro[i+1])
			}
		}
		return ro, nil
	case "select":
		if len(rest) < 2 {
			return nil, typeErr("Intl: malformed request")
		}
		x, err := parseNumArg(rest[1])
		if err != nil {
			return nil, err
		}
		if x.nan || x.inf {
			return "other", nil
		}
		ip, fp := p.nf.digitsText(p.nf.roundValue(x.value, x.neg))
		return pluralCategory(p.nf.res.data, p.ordinal, ip, fp), nil
	}
	return nil, typeErr("Intl: unknown method")
}
