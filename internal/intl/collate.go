package intl

import (
	"encoding/json"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

type collator struct {
	mu                sync.Mutex // a collate.Collator is not safe for concurrent use
	c                 *collate.Collator
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
	c.locale = withExt(res.locale, used)
	tagText := res.locale + "-u-kf-" + map[string]string{"upper": "upper", "lower": "lower", "false": "false"}[c.caseFirst]
	if c.ignorePunctuation {
		tagText += "-ka-shifted"
	}
	tag, err := language.Parse(tagText)
	if err != nil {
		tag = language.Make(res.locale)
	}
	opts := []collate.Option{collate.OptionsFromTag(tag)}
	switch c.sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics, collate.IgnoreWidth)
	case "accent":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreWidth)
	case "case":
		opts = append(opts, collate.IgnoreDiacritics, collate.IgnoreWidth)
	}
	if c.numeric {
		opts = append(opts, collate.Numeric)
	}
	c.c = collate.New(tag, opts...)
	return c, nil
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
		return c.c.CompareString(a, b), nil
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
			out[i] = c.c.CompareString(p[0], p[1])
		}
		return out, nil
	}
	return nil, typeErr("Intl: unknown method")
}
