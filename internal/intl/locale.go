package intl

import (
	"sort"
	"strings"

	"golang.org/x/text/language"
)

// DefaultLocale is the locale a run formats in when none is asked for.
const DefaultLocale = "en-US"

// aliases maps tags that ICU treats as their parent's default content to
// the data locale that holds them; the resolved locale stays the tag.
var aliases = map[string]string{
	"en-US": "en", "de-DE": "de", "fr-FR": "fr", "es-ES": "es", "it-IT": "it", "pt-BR": "pt", "nl-NL": "nl",
	"sv-SE": "sv", "pl-PL": "pl", "ru-RU": "ru", "tr-TR": "tr", "ja-JP": "ja", "zh-CN": "zh", "zh-Hans": "zh",
	"zh-Hans-CN": "zh", "ko-KR": "ko", "hi-IN": "hi", "ar-001": "ar", "zh-TW": "zh-Hant", "zh-Hant-TW": "zh-Hant",
	"pt-PT": "pt-PT", "en-001": "en-001",
}

func canonical(tag string) (string, error) {
	if tag == "" {
		return "", rangeErr("Incorrect locale information provided")
	}
	for _, c := range tag {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return "", rangeErr("Incorrect locale information provided")
		}
	}
	t, err := language.Parse(tag)
	if _, unknown := err.(language.ValueError); err != nil && !unknown {
		return "", rangeErr("Incorrect locale information provided")
	}
	// CLDR's alias for "mo" is "ro"; golang.org/x/text adds the region MD
	if first, _, _ := strings.Cut(tag, "-"); strings.EqualFold(first, "mo") && !hasRegion(tag) {
		return strings.Replace(t.String(), "-MD", "", 1), nil
	}
	return t.String(), nil
}

func canonicalizeList(locs []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, l := range locs {
		c, err := canonical(l)
		if err != nil {
			return nil, err
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// resolved is the outcome of locale negotiation.
type resolved struct {
	locale string            // the tag resolvedOptions reports (without -u-)
	data   string            // the data locale used
	ext    map[string]string // -u- keywords asked for (nu, ca, hc, co, kn, kf)
	// fallback: none of the requested locales is shipped, so locale is
	// DefaultLocale
	fallback bool
}

// lookup finds the data for a canonical tag, removing subtags from the
// end as ICU's fallback does.
func lookup(tag string) (string, string, bool) {
	base := tag
	for {
		if d, ok := aliases[base]; ok {
			return base, d, true
		}
		if _, ok := rawLocs[base]; ok {
			return base, base, true
		}
		i := strings.LastIndexByte(base, '-')
		if i < 0 {
			return "", "", false
		}
		base = base[:i]
	}
}

func stripExt(tag string) (string, map[string]string) {
	ext := map[string]string{}
	i := strings.Index(tag, "-u-")
	if i < 0 {
		if j := strings.Index(tag, "-x-"); j >= 0 {
			return tag[:j], ext
		}
		return tag, ext
	}
	base, rest := tag[:i], tag[i+3:]
	if j := strings.Index(rest, "-x-"); j >= 0 {
		rest = rest[:j]
	}
	parts := strings.Split(rest, "-")
	for k := 0; k < len(parts); k++ {
		if len(parts[k]) == 2 {
			key := parts[k]
			var vals []string
			for k+1 < len(parts) && len(parts[k+1]) > 2 {
				k++
				vals = append(vals, parts[k])
			}
			if len(vals) == 0 {
				ext[key] = "true"
			} else {
				ext[key] = strings.Join(vals, "-")
			}
		}
	}
	// a tag's other singletons (-t-, ...) stay out of the base
	if j := strings.Index(base, "-t-"); j >= 0 {
		base = base[:j]
	}
	return base, ext
}

func resolveLocale(locales []string) (resolved, error) {
	dataOnce.Do(loadRaw)
	if dataErr != nil {
		return resolved{}, dataErr
	}
	list, err := canonicalizeList(locales)
	if err != nil {
		return resolved{}, err
	}
	for _, l := range list {
		base, ext := stripExt(l)
		if loc, d, ok := lookup(base); ok {
			return resolved{locale: loc, data: d, ext: ext}, nil
		}
	}
	return resolved{locale: DefaultLocale, data: "en", ext: map[string]string{}, fallback: true}, nil
}

func supportedLocales(locs []string) ([]string, error) {
	dataOnce.Do(loadRaw)
	list, err := canonicalizeList(locs)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, l := range list {
		base, _ := stripExt(l)
		if _, _, ok := lookup(base); ok {
			out = append(out, l)
		}
	}
	return out, nil
}

// withExt appends the -u- keywords that were used, sorted by key.
func withExt(loc string, used map[string]string) string {
	if len(used) == 0 {
		return loc
	}
	keys := make([]string, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(loc)
	b.WriteString("-u")
	for _, k := range keys {
		b.WriteString("-" + k)
		if used[k] != "true" {
			b.WriteString("-" + used[k])
		}
	}
	return b.String()
}

// localeInfo answers Intl.Locale: the canonical tag, its parts, and the
// maximized and minimized forms (CLDR likely subtags, from x/text).
func localeInfo(tag string, opts map[string]any) (any, error) {
	c, err := canonical(tag)
	if err != nil {
		return nil, err
	}
	base, ext := stripExt(c)
	t, err := language.Parse(base)
	if err != nil {
		return nil, rangeErr("Incorrect locale information provided")
	}
	b, s, r := t.Raw()
	lang, script, region := b.String(), "", ""
	if s.String() != "Zzzz" {
		script = s.String()
	}
	if r.String() != "ZZ" {
		region = r.String()
	}
	if v, ok := opts["language"].(string); ok {
		lang = v
	}
	if v, ok := opts["script"].(string); ok {
		script = v
	}
	if v, ok := opts["region"].(string); ok {
		region = v
	}
	keys := map[string]string{"calendar": "ca", "collation": "co", "hourCycle": "hc", "caseFirst": "kf", "numberingSystem": "nu"}
	for k, u := range keys {
		if v, ok := opts[k].(string); ok {
			ext[u] = v
		}
	}
	if v, ok := opts["numeric"].(bool); ok {
		ext["kn"] = map[bool]string{true: "true", false: "false"}[v]
	}
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, "-")
	}
	baseName := join(lang, script, region)
	full := withExt(baseName, ext)
	mt, _ := language.Parse(baseName)
	mb, _ := mt.Base()
	ms, _ := mt.Script()
	mr, _ := mt.Region()
	maxBase := join(mb.String(), ms.String(), mr.String())
	// minimize: the shortest of language, language-region, language-script
	// that maximizes to the same
	minBase := maxBase
	for _, cand := range []string{mb.String(), join(mb.String(), mr.String()), join(mb.String(), ms.String())} {
		ct, err := language.Parse(cand)
		if err != nil {
			continue
		}
		cb, _ := ct.Base()
		cs, _ := ct.Script()
		cr, _ := ct.Region()
		if join(cb.String(), cs.String(), cr.String()) == maxBase {
			minBase = cand
			break
		}
	}
	info := map[string]any{
		"tag": full, "baseName": baseName, "language": lang,
		"maximized": withExt(maxBase, ext), "minimized": withExt(minBase, ext),
	}
	if script != "" {
		info["script"] = script
	}
	if region != "" {
		info["region"] = region
	}
	for k, u := range keys {
		if v, ok := ext[u]; ok {
			info[k] = v
		}
	}
	if v, ok := ext["kn"]; ok {
		info["numeric"] = v == "true"
	} else {
		info["numeric"] = false
	}
	return info, nil
}

// hasRegion says whether a tag names a region subtag itself.
func hasRegion(tag string) bool {
	for i, p := range strings.Split(tag, "-") {
		if i > 0 && (len(p) == 2 || len(p) == 3 && p[0] >= '0' && p[0] <= '9') {
			return true
		}
	}
	return false
}
