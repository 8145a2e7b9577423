package intl

import (
	"encoding/json"
	"strings"
)

type relativeTimeFormat struct {
	locale, style, numeric, nu string
	data                       map[string]json.RawMessage
	nf                         *numberFormat
}

var relUnits = map[string]string{
	"second": "second", "seconds": "second", "minute": "minute", "minutes": "minute", "hour": "hour", "hours": "hour",
	"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
	"quarter": "quarter", "quarters": "quarter", "year": "year", "years": "year",
}

func newRelativeTimeFormat(locales []string, o options) (*relativeTimeFormat, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	if _, err = o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	f := &relativeTimeFormat{locale: res.locale}
	if f.style, err = o.str("style", []string{"long", "short", "narrow"}, "long"); err != nil {
		return nil, err
	}
	if f.numeric, err = o.str("numeric", []string{"always", "auto"}, "always"); err != nil {
		return nil, err
	}
	ld, err := dataFor(res.data)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(ld.Relative, &f.data); err != nil {
		return nil, err
	}
	f.nf, err = newNumberFormat([]string{res.locale}, options{m: map[string]any{}, ctor: "RelativeTimeFormat"})
	if err != nil {
		return nil, err
	}
	f.nu = f.nf.nu
	return f, nil
}

func (f *relativeTimeFormat) parts(x numArg, unitArg string) ([]part, error) {
	unit, ok := relUnits[unitArg]
	if !ok {
		return nil, rangeErr("Invalid unit argument for Intl.RelativeTimeFormat.prototype.format() '%s'", unitArg)
	}
	if x.nan || x.inf {
		return nil, rangeErr("Invalid number value")
	}
	key := unit
	if f.style != "long" {
		key = unit + "-" + f.style
	}
	var d map[string]json.RawMessage
	_ = json.Unmarshal(f.data[key], &d)
	if f.numeric == "auto" && (x.value.isZero() || x.value.point <= 3) {
		ip, fp := x.value.intDigits(), x.value.fracDigits()
		if fp == "" {
			k := ip
			if x.neg && ip != "0" {
				k = "-" + ip
			}
			if raw, ok := d[k]; ok {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					return []part{{Type: "literal", Value: s}}, nil
				}
			}
		}
	}
	dir := "future"
	if x.neg {
		dir = "past"
	}
	var forms map[string]string
	_ = json.Unmarshal(d[dir], &forms)
	num := f.nf.formatParts(numArg{value: x.value})
	ip, fp := f.nf.digitsText(f.nf.roundValue(x.value, false))
	cat := pluralCategory(f.nf.res.data, false, ip, fp)
	p := forms[cat]
	if p == "" {
		p = forms["other"]
	}
	for i := range num {
		num[i].Unit = unit
	}
	before, after, found := strings.Cut(p, "{0}")
	if !found {
		// a form that spells the number out (Arabic's dual, "قبل ثانيتين")
		// has no number in it
		return []part{{Type: "literal", Value: p}}, nil
	}
	var out []part
	if before != "" {
		out = append(out, part{Type: "literal", Value: before})
	}
	out = append(out, num...)
	if after != "" {
		out = append(out, part{Type: "literal", Value: after})
	}
	return out, nil
}

func (f *relativeTimeFormat) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		return ordered("locale", f.locale, "style", f.style, "numeric", f.numeric, "numberingSystem", f.nu), nil
	case "format", "formatToParts":
		if len(rest) < 3 {
			return nil, typeErr("Intl: malformed request")
		}
		x, err := parseNumArg(rest[1])
		if err != nil {
			return nil, err
		}
		var unit string
		if err := arg(rest, 2, &unit); err != nil {
			return nil, err
		}
		ps, err := f.parts(x, unit)
		if err != nil {
			return nil, err
		}
		if methodName(rest) == "format" {
			return joinParts(ps), nil
		}
		return ps, nil
	}
	return nil, typeErr("Intl: unknown method")
}
