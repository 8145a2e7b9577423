package intl

import (
	"encoding/json"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

var pluralNames = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

// pluralCategory is the CLDR plural category of a formatted number given
// as its integer and fraction digits (ASCII).
func pluralCategory(dataLocale string, ordinal bool, ip, fp string) string {
	tag, err := language.Parse(dataLocale)
	if err != nil {
		tag = language.English
	}
	i, _ := strconv.Atoi(strings.TrimLeft(ip, "0"))
	if len(ip) > 9 {
		// only i mod 10^n matters to the rules
		i, _ = strconv.Atoi(ip[len(ip)-9:])
		i += 1000000000
	}
	v := len(fp)
	tf := strings.TrimRight(fp, "0")
	w := len(tf)
	fi, ti := 0, 0
	if v > 0 {
		fi, _ = strconv.Atoi(fp[:min(v, 9)])
	}
	if w > 0 {
		ti, _ = strconv.Atoi(tf[:min(w, 9)])
	}
	rules := plural.Cardinal
	if ordinal {
		rules = plural.Ordinal
	}
	return pluralNames[rules.MatchPlural(tag, i, v, w, fi, ti)]
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
	o.ctor = "PluralRules"
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
	return &pluralRules{nf: nf, ordinal: typ == "ordinal", locale: nf.res.locale}, nil
}

func (p *pluralRules) categories() []string {
	tag, _ := language.Parse(p.nf.res.data)
	rules := plural.Cardinal
	if p.ordinal {
		rules = plural.Ordinal
	}
	seen := map[string]bool{}
	// probe the rules with numbers that reach every category
	for _, probe := range []struct{ ip, fp string }{{"0", ""}, {"1", ""}, {"2", ""}, {"3", ""}, {"4", ""}, {"5", ""}, {"6", ""}, {"7", ""}, {"8", ""}, {"11", ""}, {"12", ""}, {"21", ""}, {"22", ""}, {"23", ""}, {"100", ""}, {"1000000", ""}, {"0", "5"}, {"1", "5"}} {
		i, _ := strconv.Atoi(probe.ip)
		f, _ := strconv.Atoi("0" + probe.fp)
		seen[pluralNames[rules.MatchPlural(tag, i, len(probe.fp), len(probe.fp), f, f)]] = true
	}
	var out []string
	// ICU's order: alphabetical, "other" last
	for _, c := range []string{"few", "many", "one", "two", "zero", "other"} {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
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
