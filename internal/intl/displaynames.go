package intl

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// namesData is one locale's display names (CLDR 48 localenames and the
// currency names of cldr-numbers-full, made by gen/gen.mjs).
type namesData struct {
	Language  nameTable            `json:"language"`
	Region    nameTable            `json:"region"`
	Script    nameTable            `json:"script"`
	Variant   map[string]string    `json:"variant"`
	Currency  map[string]string    `json:"currency"`
	Calendar  map[string]string    `json:"calendar"`
	DateField map[string][3]string `json:"dateField"`
	Pattern   string               `json:"pattern"`
	Separator string               `json:"separator"`
}

// nameTable holds a table's names and, apart, its "-alt-short" variants.
type nameTable struct {
	Long  map[string]string `json:"long"`
	Short map[string]string `json:"short"`
}

func (t nameTable) get(code string, short bool) (string, bool) {
	if short {
		if s, ok := t.Short[code]; ok {
			return s, true
		}
	}
	s, ok := t.Long[code]
	return s, ok
}

var (
	namesMu  sync.Mutex
	namesDec = map[string]*namesData{}
)

func namesFor(loc string) (*namesData, error) {
	dataOnce.Do(loadRaw)
	if dataErr != nil {
		return nil, dataErr
	}
	namesMu.Lock()
	defer namesMu.Unlock()
	if d := namesDec[loc]; d != nil {
		return d, nil
	}
	// the tables of one locale, gathered into one object to decode
	var b []byte
	b = append(b, '{')
	for table, byLoc := range rawNames {
		raw, ok := byLoc[loc]
		if !ok {
			return nil, fmt.Errorf("intl: no display names %s for %s", table, loc)
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(table)
		b = append(append(append(b, k...), ':'), raw...)
	}
	b = append(b, '}')
	d := new(namesData)
	if err := json.Unmarshal(b, d); err != nil {
		return nil, err
	}
	namesDec[loc] = d
	return d, nil
}

// displayNames is Intl.DisplayNames for the types language, region,
// script, currency, calendar and dateTimeField.
type displayNames struct {
	locale, style, typ, fallback, languageDisplay string
	d                                             *namesData
}

func newDisplayNames(locales []string, o options) (*displayNames, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	if _, err = o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	f := &displayNames{locale: res.locale}
	if f.style, err = o.str("style", []string{"narrow", "short", "long"}, "long"); err != nil {
		return nil, err
	}
	if f.typ, err = o.str("type", []string{"language", "region", "script", "currency", "calendar", "dateTimeField"}, ""); err != nil {
		return nil, err
	}
	if f.typ == "" {
		return nil, typeErr("invalid_argument")
	}
	if f.fallback, err = o.str("fallback", []string{"code", "none"}, "code"); err != nil {
		return nil, err
	}
	if f.languageDisplay, err = o.str("languageDisplay", []string{"dialect", "standard"}, "dialect"); err != nil {
		return nil, err
	}
	if f.d, err = namesFor(res.data); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *displayNames) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		ld := f.languageDisplay
		if f.typ != "language" {
			ld = ""
		}
		return ordered("locale", f.locale, "style", f.style, "type", f.typ, "fallback", f.fallback, "languageDisplay", nilIfEmpty(ld)), nil
	case "of":
		var code string
		if err := arg(rest, 1, &code); err != nil {
			return nil, err
		}
		name, ok, err := f.of(code)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		return name, nil
	}
	return nil, typeErr("Intl: unknown method")
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func isAlpha(s string, lo, hi int) bool {
	if len(s) < lo || len(s) > hi {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }

func isVariant(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return len(s) >= 5 && len(s) <= 8 || len(s) == 4 && s[0] >= '0' && s[0] <= '9'
}

// languageID checks code against Unicode's unicode_language_id (what
// DisplayNames accepts: no extensions, no "root") and splits the canonical
// form into language, script, region and variants.
func languageID(code string) (lang, script, region string, variants []string, ok bool) {
	parts := strings.Split(code, "-")
	if !isAlpha(parts[0], 2, 3) && !isAlpha(parts[0], 5, 8) {
		return "", "", "", nil, false
	}
	i := 1
	if i < len(parts) && isAlpha(parts[i], 4, 4) {
		i++
	}
	if i < len(parts) && (isAlpha(parts[i], 2, 2) || isDigits(parts[i], 3)) {
		i++
	}
	seen := map[string]bool{}
	for ; i < len(parts); i++ {
		v := strings.ToLower(parts[i])
		if !isVariant(v) || seen[v] {
			return "", "", "", nil, false
		}
		seen[v] = true
	}
	// golang.org/x/text replaces aliases (iw, in, sgn-GR, ...) but turns a
	// language it does not know into "und"; keep such a code as written.
	c, err := canonical(code)
	if err != nil {
		return "", "", "", nil, false
	}
	if strings.HasPrefix(c, "und") && !strings.EqualFold(parts[0], "und") {
		c = caseTag(parts)
	}
	cp := strings.Split(c, "-")
	lang, i = cp[0], 1
	if i < len(cp) && len(cp[i]) == 4 && isAlpha(cp[i], 4, 4) {
		script, i = cp[i], i+1
	}
	if i < len(cp) && (isAlpha(cp[i], 2, 2) || isDigits(cp[i], 3)) {
		region, i = cp[i], i+1
	}
	return lang, script, region, cp[i:], true
}

func invalidArg() error { return rangeErr("invalid_argument") }

// of is DisplayNames.prototype.of: the name, or ok false when there is
// none and fallback is "none".
func (f *displayNames) of(code string) (string, bool, error) {
	short := f.style != "long"
	found := func(name string, ok bool, fallback string) (string, bool, error) {
		if ok {
			return name, true, nil
		}
		if f.fallback == "none" {
			return "", false, nil
		}
		return fallback, true, nil
	}
	switch f.typ {
	case "region":
		if !isAlpha(code, 2, 2) && !isDigits(code, 3) {
			return "", false, invalidArg()
		}
		name, ok := f.d.Region.get(code, short)
		return found(name, ok, code)
	case "script":
		if !isAlpha(code, 4, 4) {
			return "", false, invalidArg()
		}
		name, ok := f.d.Script.get(code, short)
		return found(name, ok, code)
	case "calendar":
		if !isCalendarType(code) {
			return "", false, invalidArg()
		}
		key := code
		switch code { // the BCP 47 names whose CLDR keys differ
		case "gregory":
			key = "gregorian"
		case "ethioaa":
			key = "ethiopic-amete-alem"
		}
		name, ok := f.d.Calendar[key]
		return found(name, ok, code)
	case "dateTimeField":
		key, ok := dateFieldKeys[code]
		if !ok {
			return "", false, invalidArg()
		}
		w := 0
		switch f.style {
		case "short":
			w = 1
		case "narrow":
			w = 2
		}
		names := f.d.DateField[key]
		name := names[w]
		if name == "" {
			name = names[0]
		}
		return found(name, name != "", code)
	case "currency":
		if !isAlpha(code, 3, 3) {
			return "", false, invalidArg()
		}
		code = strings.ToUpper(code)
		name, ok := f.d.Currency[code]
		return found(name, ok, code)
	}
	lang, script, region, variants, valid := languageID(code)
	if !valid {
		return "", false, invalidArg()
	}
	return f.languageName(lang, script, region, variants)
}

// languageName composes a language's display name as ICU's
// LocaleDisplayNames does: with languageDisplay "dialect" a name for the
// language with its script and region, else with one of them, else the
// language's own; what is left goes in parentheses after it.
func (f *displayNames) languageName(lang, script, region string, variants []string) (string, bool, error) {
	short := f.style != "long"
	missing := false
	name := ""
	if f.languageDisplay == "dialect" {
		// as ICU: one try, with every subtag the code has
		switch {
		case script != "" && region != "":
			if n, ok := f.d.Language.get(lang+"-"+script+"-"+region, short); ok {
				name, script, region = n, "", ""
			}
		case script != "":
			if n, ok := f.d.Language.get(lang+"-"+script, short); ok {
				name, script = n, ""
			}
		case region != "":
			if n, ok := f.d.Language.get(lang+"-"+region, short); ok {
				name, region = n, ""
			}
		}
	}
	if name == "" {
		n, ok := f.d.Language.get(lang, short)
		if !ok {
			n, missing = lang, true
		}
		name = n
	}
	var details []string
	if script != "" {
		n, ok := f.d.Script.get(script, short)
		if !ok {
			n, missing = script, true
		}
		details = append(details, n)
	}
	if region != "" {
		n, ok := f.d.Region.get(region, short)
		if !ok {
			n, missing = region, true
		}
		details = append(details, n)
	}
	for _, v := range variants {
		v = strings.ToUpper(v)
		n, ok := f.d.Variant[v]
		if !ok {
			n, missing = v, true
		}
		details = append(details, n)
	}
	if missing && f.fallback == "none" {
		return "", false, nil
	}
	if len(details) == 0 {
		return name, true, nil
	}
	// ICU turns the parentheses inside the parts into brackets
	brackets := strings.NewReplacer("(", "[", ")", "]", "\uff08", "\uff3b", "\uff09", "\uff3d")
	name = brackets.Replace(name)
	for i := range details {
		details[i] = brackets.Replace(details[i])
	}
	acc := details[0]
	for _, d := range details[1:] {
		acc = strings.NewReplacer("{0}", acc, "{1}", d).Replace(f.d.Separator)
	}
	return strings.NewReplacer("{0}", name, "{1}", acc).Replace(f.d.Pattern), true, nil
}

// caseTag writes a language ID's subtags in their canonical case.
func caseTag(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		switch {
		case i == 0:
			out[i] = strings.ToLower(p)
		case len(p) == 4 && isAlpha(p, 4, 4):
			out[i] = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
		case len(p) == 2 || len(p) == 3 && isDigits(p, 3):
			out[i] = strings.ToUpper(p)
		default:
			out[i] = strings.ToLower(p)
		}
	}
	return strings.Join(out, "-")
}

// dateFieldKeys maps DisplayNames' dateTimeField codes to CLDR's fields.
var dateFieldKeys = map[string]string{
	"era": "era", "year": "year", "quarter": "quarter", "month": "month", "weekOfYear": "week", "weekday": "weekday",
	"day": "day", "dayPeriod": "dayperiod", "hour": "hour", "minute": "minute", "second": "second", "timeZoneName": "zone",
}

// isCalendarType says whether code is a Unicode "type" (3 to 8
// alphanumerics, and more such parts after hyphens), the form a calendar
// code has.
func isCalendarType(code string) bool {
	for _, p := range strings.Split(code, "-") {
		if len(p) < 3 || len(p) > 8 {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isAlnum(p[i]) {
				return false
			}
		}
	}
	return true
}
