package intl

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

type dateData struct {
	HourCycle      string `json:"hourCycle"`
	HourCycle12    string `json:"hourCycle12"`
	HourCycle24    string `json:"hourCycle24"`
	DayPeriodRules []struct {
		Name   string   `json:"name"`
		From   *float64 `json:"from"`
		Before *float64 `json:"before"`
		At     *float64 `json:"at"`
	} `json:"dayPeriodRules"`
}

type names map[string]map[string]map[string]string // context -> width -> key -> name

type gregorianData struct {
	Months          names                        `json:"months"`
	MonthPatterns   names                        `json:"-"` // a lunisolar calendar's leap-month patterns
	YearNames       names                        `json:"-"` // its cyclic year names
	DateNumbers     map[string]string            `json:"-"` // numbering overrides of its date styles
	Days            names                        `json:"days"`
	DayPeriods      names                        `json:"dayPeriods"`
	Eras            map[string]map[string]string `json:"eras"`
	DateFormats     map[string]string            `json:"dateFormats"`
	TimeFormats     map[string]string            `json:"timeFormats"`
	AtTime          map[string]string            `json:"atTime"`
	DateTimeFormats struct {
		Full             string                     `json:"full"`
		Long             string                     `json:"long"`
		Medium           string                     `json:"medium"`
		Short            string                     `json:"short"`
		AvailableFormats map[string]string          `json:"availableFormats"`
		IntervalFormats  map[string]json.RawMessage `json:"intervalFormats"`
		AppendItems      map[string]string          `json:"appendItems"`
	} `json:"dateTimeFormats"`
	Zone struct {
		HourFormat    string `json:"hourFormat"`
		GMTFormat     string `json:"gmtFormat"`
		GMTZeroFormat string `json:"gmtZeroFormat"`
	} `json:"zone"`
}

type dateTimeFormat struct {
	locale, nu, tzName string
	cal                string // the calendar used: "gregory", "buddhist", ...
	dateNumbers        string // the date style's numbering override, if any
	era                string // the era option, which resolvedOptions reports as given
	loc                *time.Location
	fixedOffset        *int // minutes, for "+05:30" zones
	hc                 string
	hasHC              bool
	pattern            string
	skeleton           string // the matched skeleton (for formatRange)
	dateStyle          string
	timeStyle          string
	g                  *gregorianData
	d                  *dateData
	dataLocale         string
	digits             string
	decimal            string
}

var dayKeys = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

var dtComponents = []string{"weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"}

func newDateTimeFormat(locales []string, o options) (*dateTimeFormat, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	ld, err := dataFor(res.data)
	if err != nil {
		return nil, err
	}
	f := &dateTimeFormat{g: &ld.Gregorian, d: &ld.Date, dataLocale: res.data}
	used := map[string]string{}
	ca, err := o.str("calendar", nil, "")
	if err != nil {
		return nil, err
	}
	if ca != "" && !validCalendarSyntax(ca) {
		return nil, rangeErr("Invalid calendar : %s", ca)
	}
	fromExt := false
	if ca == "" {
		ca, fromExt = res.ext["ca"], true
	}
	cal, known := resolveCalendar(ca)
	// (an option equal to the -u-ca- keyword keeps it too)
	if known && ca != "" && (fromExt || strings.EqualFold(res.ext["ca"], ca)) {
		// the locale keeps a -u-ca- it was given when the calendar is
		// one Node supports, a fallback calendar too (as Node, which computes it)
		used["ca"] = cal
		if c := strings.ToLower(ca); calendarAlias[c] == "" {
			used["ca"] = c
		}
	}
	f.cal = "gregory"
	if cal != "gregory" {
		if cd := calendarFor(res.data, cal, f.g); cd != nil {
			f.cal, f.g = cal, cd
		} else {
			delete(used, "ca")
		}
	}
	nu, _ := o.str("numberingSystem", nil, "")
	if nu == "" {
		if v := res.ext["nu"]; numberingDigits[v] != "" {
			nu = v
			used["nu"] = v
		}
	}
	if numberingDigits[nu] == "" {
		nu = ld.Number.Nu
	}
	f.nu = nu
	f.digits = numberingDigits[nu]
	f.decimal = ld.Number.Symbols[nu].Decimal
	if f.decimal == "" {
		f.decimal = ld.Number.Symbols["latn"].Decimal
	}
	hour12, hasHour12 := o.boolean("hour12")
	hc, err := o.str("hourCycle", []string{"h11", "h12", "h23", "h24"}, "")
	if err != nil {
		return nil, err
	}
	if hc == "" {
		if v := res.ext["hc"]; v == "h11" || v == "h12" || v == "h23" || v == "h24" {
			hc = v
			used["hc"] = v
		}
	}
	if hasHour12 {
		hc = ld.Date.HourCycle24
		if hour12 {
			hc = ld.Date.HourCycle12
		}
		delete(used, "hc")
	}
	f.hasHC = hc != ""
	if hc == "" {
		hc = ld.Date.HourCycle
	}
	f.hc = hc
	tz, err := o.str("timeZone", nil, "")
	if err != nil {
		return nil, err
	}
	if err := f.setZone(tz); err != nil {
		return nil, err
	}
	opts := map[string]string{}
	widths := map[string][]string{
		"weekday": {"narrow", "short", "long"}, "era": {"narrow", "short", "long"}, "year": {"2-digit", "numeric"},
		"month": {"2-digit", "numeric", "narrow", "short", "long"}, "day": {"2-digit", "numeric"},
		"dayPeriod": {"narrow", "short", "long"}, "hour": {"2-digit", "numeric"}, "minute": {"2-digit", "numeric"},
		"second": {"2-digit", "numeric"}, "timeZoneName": {"short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"},
	}
	for _, c := range dtComponents {
		if c == "fractionalSecondDigits" {
			n, ok, err := o.num(c, 1, 3, 0)
			if err != nil {
				return nil, rangeErr("fractionalSecondDigits value is out of range.")
			}
			if ok {
				opts[c] = strconv.Itoa(n)
			}
			continue
		}
		v, err := o.str(c, widths[c], "")
		if err != nil {
			return nil, err
		}
		if v != "" {
			opts[c] = v
		}
	}
	if _, err := o.str("formatMatcher", []string{"basic", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	styles := []string{"full", "long", "medium", "short"}
	if f.dateStyle, err = o.str("dateStyle", styles, ""); err != nil {
		return nil, err
	}
	if f.timeStyle, err = o.str("timeStyle", styles, ""); err != nil {
		return nil, err
	}
	f.locale = withExt(res.locale, used)
	f.era = opts["era"]
	required, _ := o.str("$required", nil, "any")
	defaults, _ := o.str("$defaults", nil, "date")
	if f.dateStyle != "" || f.timeStyle != "" {
		for _, c := range dtComponents {
			if _, ok := opts[c]; ok {
				return nil, typeErr("Invalid option : option")
			}
		}
		// toLocaleDateString takes no timeStyle, toLocaleTimeString no
		// dateStyle, even with the other style (ECMA-402's
		// CreateDateTimeFormat)
		if required == "date" && f.timeStyle != "" {
			return nil, typeErr("Invalid option : timeStyle")
		}
		if required == "time" && f.dateStyle != "" {
			return nil, typeErr("Invalid option : dateStyle")
		}
		f.pattern = f.stylePattern()
		f.dateNumbers = f.g.DateNumbers[f.dateStyle]
		// a range takes the interval formats of the style's skeleton, as
		// V8 asks ICU's DateIntervalFormat for the pattern's skeleton
		// ("MMM d, y" is yMMMd: "Jan 10 – 20, 2024")
		f.skeleton = canonicalSkeleton(f.pattern)
		return f, nil
	}
	need := true
	if required == "date" || required == "any" {
		for _, c := range []string{"weekday", "year", "month", "day"} {
			if _, ok := opts[c]; ok {
				need = false
			}
		}
	}
	if required == "time" || required == "any" {
		for _, c := range []string{"dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"} {
			if _, ok := opts[c]; ok {
				need = false
			}
		}
	}
	if need && (defaults == "date" || defaults == "all") {
		opts["year"], opts["month"], opts["day"] = "numeric", "numeric", "numeric"
	}
	if need && (defaults == "time" || defaults == "all") {
		opts["hour"], opts["minute"], opts["second"] = "numeric", "numeric", "numeric"
	}
	f.skeleton = f.skeletonOf(opts)
	f.pattern = f.bestPattern(f.skeleton)
	return f, nil
}

func (f *dateTimeFormat) hourLetter() byte {
	switch f.hc {
	case "h11":
		return 'K'
	case "h12":
		return 'h'
	case "h24":
		return 'k'
	}
	return 'H'
}

func (f *dateTimeFormat) skeletonOf(o map[string]string) string {
	var b strings.Builder
	w := func(v string, narrow, short, long string) {
		switch v {
		case "narrow":
			b.WriteString(narrow)
		case "short":
			b.WriteString(short)
		case "long":
			b.WriteString(long)
		}
	}
	w(o["era"], "GGGGG", "G", "GGGG")
	switch o["year"] {
	case "2-digit":
		b.WriteString("yy")
	case "numeric":
		b.WriteString("y")
	}
	switch o["month"] {
	case "2-digit":
		b.WriteString("MM")
	case "numeric":
		b.WriteString("M")
	default:
		w(o["month"], "MMMMM", "MMM", "MMMM")
	}
	w(o["weekday"], "EEEEE", "EEE", "EEEE")
	switch o["day"] {
	case "2-digit":
		b.WriteString("dd")
	case "numeric":
		b.WriteString("d")
	}
	// match with h or H; adjust puts the hour cycle's letter (K, k) in
	h := "H"
	if f.hourLetter() == 'h' || f.hourLetter() == 'K' {
		h = "h"
	}
	if o["hour"] == "" || h == "h" {
		// a 24-hour clock shows no day period
		w(o["dayPeriod"], "BBBBB", "B", "BBBB")
	}
	switch o["hour"] {
	case "2-digit":
		b.WriteString(h + h)
	case "numeric":
		b.WriteString(h)
	}
	switch o["minute"] {
	case "2-digit":
		b.WriteString("mm")
	case "numeric":
		b.WriteString("m")
	}
	switch o["second"] {
	case "2-digit":
		b.WriteString("ss")
	case "numeric":
		b.WriteString("s")
	}
	if n, err := strconv.Atoi(o["fractionalSecondDigits"]); err == nil {
		if o["minute"] != "" && o["second"] == "" {
			// ICU gives minutes with fractional seconds the seconds
			// between them ("mm:ss.SSS")
			b.WriteString("s")
		}
		b.WriteString(strings.Repeat("S", n))
	}
	switch o["timeZoneName"] {
	case "short":
		b.WriteString("z")
	case "long":
		b.WriteString("zzzz")
	case "shortOffset":
		b.WriteString("O")
	case "longOffset":
		b.WriteString("OOOO")
	case "shortGeneric":
		b.WriteString("v")
	case "longGeneric":
		b.WriteString("vvvv")
	}
	return b.String()
}

// fieldType groups pattern letters that are the same field.
func fieldType(c byte) byte {
	switch c {
	case 'L':
		return 'M'
	case 'c', 'e':
		return 'E'
	case 'H', 'K', 'k':
		return 'h'
	case 'v', 'O', 'V':
		return 'z'
	case 'b':
		return 'B'
	}
	return c
}

type skelField struct {
	letter byte
	n      int
}

// parseSkeleton reads a skeleton (or a pattern, ignoring quoted text).
func parseSkeleton(s string) map[byte]skelField {
	out := map[byte]skelField{}
	inQ := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			inQ = !inQ
			continue
		}
		if inQ || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			continue
		}
		j := i
		for j < len(s) && s[j] == c {
			j++
		}
		t := fieldType(c)
		if c != 'a' {
			out[t] = skelField{c, j - i}
		}
		i = j - 1
	}
	return out
}

func isNumericField(f skelField) bool {
	switch fieldType(f.letter) {
	case 'y', 'd', 'h', 'm', 's', 'S':
		return true
	case 'M', 'E':
		return f.n <= 2 && f.letter != 'E'
	}
	return false
}

const (
	missingWeight = 0x1000
	extraWeight   = 0x10000
)

// icuType is the "type" ICU's pattern generator gives a field: numeric
// fields are 0x100 plus their length, text widths are negative (narrow
// -0x101, shorter -0x102, short -0x103, long -0x104), and letters of one
// field differ by multiples of 0x10. Distances are differences of types.
func icuType(f skelField) int {
	letterDelta := map[byte]int{'H': 0xa0, 'K': 0x50, 'k': 0xb0, 'v': -0x20, 'O': -0x50, 'V': -0x60, 'c': -0x10, 'b': 0x20}[f.letter]
	if isNumericField(f) || f.letter == 'c' && f.n < 3 {
		return 0x100 + f.n + letterDelta
	}
	switch {
	case f.n == 4:
		return -0x104 + letterDelta
	case f.n == 5:
		return -0x101 + letterDelta
	case f.n >= 6:
		return -0x102 + letterDelta
	}
	return -0x103 + letterDelta
}

func distance(req, cand map[byte]skelField) (int, int) {
	d, missing := 0, 0
	for t, r := range req {
		c, ok := cand[t]
		if !ok {
			d += missingWeight
			missing++
			continue
		}
		x, y := icuType(r), icuType(c)
		if x > y {
			d += x - y
		} else {
			d += y - x
		}
	}
	for t := range cand {
		if _, ok := req[t]; !ok {
			d += extraWeight
		}
	}
	return d, missing
}

func (f *dateTimeFormat) candidates() map[string]string {
	c := map[string]string{}
	for k, v := range f.g.DateTimeFormats.AvailableFormats {
		if strings.Contains(k, "-alt-") || strings.Contains(k, "-count-") {
			continue
		}
		c[k] = v
	}
	// single fields ICU always has
	for _, l := range []string{"G", "y", "M", "E", "d", "H", "h", "m", "s", "S", "b", "z", "v", "O"} {
		if _, ok := c[l]; !ok {
			c[l] = l
		}
	}
	for _, m := range []map[string]string{f.g.DateFormats, f.g.TimeFormats} {
		for k, p := range m {
			if strings.Contains(k, "-alt-") {
				continue
			}
			var b strings.Builder
			for t, sf := range parseSkeleton(p) {
				_ = t
				b.WriteString(strings.Repeat(string(sf.letter), sf.n))
			}
			key := canonicalSkeleton(b.String())
			if _, ok := c[key]; !ok {
				c[key] = p
			}
		}
	}
	return c
}

var skeletonOrder = "GyMLEcdBbhHKkmsSzvOV"

func canonicalSkeleton(s string) string {
	f := parseSkeleton(s)
	var b strings.Builder
	for i := 0; i < len(skeletonOrder); i++ {
		for _, sf := range f {
			if sf.letter == skeletonOrder[i] {
				b.WriteString(strings.Repeat(string(sf.letter), sf.n))
			}
		}
	}
	return b.String()
}

var timeTypes = map[byte]bool{'h': true, 'm': true, 's': true, 'S': true, 'z': true, 'B': true, 'a': true}

func (f *dateTimeFormat) bestPattern(skeleton string) string {
	req := parseSkeleton(skeleton)
	best, bestKey := f.bestRaw(req)
	if _, missing := distance(req, parseSkeleton(bestKey)); missing == 0 {
		return f.adjust(best, bestKey, req)
	}
	dateReq, timeReq := map[byte]skelField{}, map[byte]skelField{}
	for t, sf := range req {
		if timeTypes[t] {
			timeReq[t] = sf
		} else {
			dateReq[t] = sf
		}
	}
	if len(dateReq) > 0 && len(timeReq) > 0 {
		datePat := f.bestAppending(dateReq)
		timePat := f.bestAppending(timeReq)
		// as ICU's DateTimePatternGenerator: the month's width decides
		// (MMMM long, or full with any weekday; MMM medium; a narrow or
		// numeric month short)
		style := "short"
		if m, ok := dateReq['M']; ok && m.n == 4 {
			style = "long"
			if _, ok := dateReq['E']; ok {
				style = "full"
			}
		} else if ok && m.n == 3 {
			style = "medium"
		}
		glue := f.g.AtTime[style]
		if glue == "" {
			glue = f.dtGlue(style)
		}
		return strings.Replace(strings.Replace(glue, "{1}", datePat, 1), "{0}", timePat, 1)
	}
	return f.bestAppending(req)
}

// icuField numbers the field types as ICU's UDateTimePatternField, whose
// order breaks ties between candidates and picks the append item.
var icuField = map[byte]int{'G': 0, 'y': 1, 'Q': 2, 'M': 3, 'w': 4, 'W': 5, 'E': 6, 'D': 7, 'F': 8, 'd': 9, 'B': 10, 'h': 11, 'm': 12, 's': 13, 'S': 14, 'z': 15}

// appendItemKeys are CLDR's appendItems keys of the fields that have one.
var appendItemKeys = map[byte]string{'G': "Era", 'y': "Year", 'Q': "Quarter", 'M': "Month", 'w': "Week", 'E': "Day-Of-Week", 'd': "Day", 'h': "Hour", 'm': "Minute", 's': "Second", 'z': "Timezone"}

// fieldNameKeys are CLDR's field display names ICU puts in an append item.
var fieldNameKeys = map[byte]string{'G': "era", 'y': "year", 'Q': "quarter", 'M': "month", 'w': "week", 'E': "weekday", 'd': "day", 'B': "dayperiod", 'h': "hour", 'm': "minute", 's': "second", 'z': "zone"}

func missingMask(req, cand map[byte]skelField) int {
	m := 0
	for t := range req {
		if _, ok := cand[t]; !ok {
			m |= 1 << icuField[t]
		}
	}
	return m
}

// bestAppending is ICU's getBestAppending: the pattern best for the
// fields, and for each field it lacks the pattern best for the rest,
// joined by the locale's append item ("h a" + "z" is "h a z"; a field
// without one is ICU's default "{0} ├{2}: {1}┤").
func (f *dateTimeFormat) bestAppending(req map[byte]skelField) string {
	p, k := f.bestRaw(req)
	out := f.adjust(p, k, req)
	missing := map[byte]skelField{}
	kf := parseSkeleton(k)
	for t, sf := range req {
		if _, ok := kf[t]; !ok {
			missing[t] = sf
		}
	}
	if _, ok := kf['s']; ok {
		// adjust wrote the fractional seconds after the seconds
		delete(missing, 'S')
	}
	for len(missing) > 0 {
		p, k := f.bestRaw(missing)
		kf := parseSkeleton(k)
		top := -1
		var topType byte
		for t := range missing {
			if _, ok := kf[t]; ok && icuField[t] > top {
				top, topType = icuField[t], t
			}
		}
		if top < 0 {
			break
		}
		sub := f.adjust(p, k, missing)
		for t := range kf {
			delete(missing, t)
		}
		item := f.g.DateTimeFormats.AppendItems[appendItemKeys[topType]]
		if item == "" {
			item = "{0} \u251c{2}: {1}\u2524"
		}
		name := ""
		if strings.Contains(item, "{2}") {
			name = fmt.Sprintf("F%d", top)
			if nd, err := namesFor(f.dataLocale); err == nil && nd.DateField[fieldNameKeys[topType]][0] != "" {
				name = nd.DateField[fieldNameKeys[topType]][0]
			}
			name = "'" + strings.ReplaceAll(name, "'", "''") + "'"
		}
		out = strings.NewReplacer("{0}", out, "{1}", sub, "{2}", name).Replace(item)
	}
	return out
}

func (f *dateTimeFormat) dtGlue(style string) string {
	switch style {
	case "full":
		return f.g.DateTimeFormats.Full
	case "long":
		return f.g.DateTimeFormats.Long
	case "medium":
		return f.g.DateTimeFormats.Medium
	}
	return f.g.DateTimeFormats.Short
}

func (f *dateTimeFormat) bestRaw(req map[byte]skelField) (string, string) {
	cands := f.candidates()
	keys := make([]string, 0, len(cands))
	for k := range cands {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	bestD := math.MaxInt
	var bestKey string
	bestMissing := -1
	for _, k := range keys {
		cand := parseSkeleton(k)
		d, _ := distance(req, cand)
		// as ICU, of two as near it takes the one missing later fields
		if m := missingMask(req, cand); d < bestD || d == bestD && m > bestMissing {
			bestD, bestKey, bestMissing = d, k, m
		}
	}
	return cands[bestKey], bestKey
}

// adjust gives the pattern's fields the requested widths (ICU's
// adjustFieldTypes) and the hour cycle's letter.
func (f *dateTimeFormat) adjust(pattern, key string, req map[byte]skelField) string {
	skel := parseSkeleton(key)
	var b strings.Builder
	inQ := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '\'' {
			inQ = !inQ
			b.WriteByte(c)
			continue
		}
		if inQ || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteByte(c)
			continue
		}
		j := i
		for j < len(pattern) && pattern[j] == c {
			j++
		}
		n := j - i
		t := fieldType(c)
		letter := c
		if r, ok := req[t]; ok && c != 'a' {
			pf := skelField{c, n}
			sk, hasSk := skel[t]
			// V8 asks ICU to match the hour's length only: a pattern's
			// minutes and seconds keep theirs ("m" stays "4" for
			// minute "2-digit", "mm" stays "04" for "numeric")
			if !(hasSk && sk.n == r.n) && isNumericField(pf) == isNumericField(r) && c != 'c' && c != 'e' && t != 'm' && t != 's' {
				n = r.n
			}
			if t == 'E' && c == 'c' && !isNumericField(r) && r.n != sk.n {
				n = r.n
			}
		}
		if r, ok := req[t]; ok && t != 'h' && t != 'M' && t != 'E' && t != 'y' {
			letter = r.letter // ICU takes the requested letter (z for v, ...)
		}
		if t == 'h' {
			letter = f.hourLetter()
		}
		if c == 'S' {
			// fractional seconds follow the seconds
		}
		b.WriteString(strings.Repeat(string(letter), n))
		if c == 's' {
			if r, ok := req['S']; ok && !strings.Contains(pattern, "S") {
				b.WriteString("'" + f.decimal + "'" + strings.Repeat("S", r.n))
			}
		}
		i = j - 1
	}
	out := b.String()
	// a 24-hour pattern has no day period
	if f.hourLetter() == 'H' || f.hourLetter() == 'k' {
		out = removeDayPeriod(out)
	}
	return out
}

func removeDayPeriod(p string) string {
	for _, sep := range []string{"\u202fa", " a", "a\u202f", "a "} {
		p = strings.Replace(p, sep, "", 1)
	}
	return p
}

func (f *dateTimeFormat) stylePattern() string {
	var dp, tp string
	if f.dateStyle != "" {
		dp = f.g.DateFormats[f.dateStyle]
	}
	if f.timeStyle != "" {
		tp = f.g.TimeFormats[f.timeStyle]
		if f.hasHC {
			tp = f.withHourCycle(tp)
		}
	}
	switch {
	case dp != "" && tp != "":
		glue := f.g.AtTime[f.dateStyle]
		if glue == "" {
			glue = f.dtGlue(f.dateStyle)
		}
		return strings.Replace(strings.Replace(glue, "{1}", dp, 1), "{0}", tp, 1)
	case dp != "":
		return dp
	}
	return tp
}

// nnbsp: V8's format (not formatToParts) writes U+202F, CLDR's space
// before AM/PM, as a plain space.
func nnbsp(p string) string { return strings.ReplaceAll(p, "\u202f", " ") }

// zoneAliases are the IANA names whose canonical form in CLDR (and so in
// ICU and Node) is the older name, plus the links Node resolves.
var zoneAliases = map[string]string{
	"Asia/Kolkata": "Asia/Calcutta", "Asia/Kathmandu": "Asia/Katmandu", "Asia/Ho_Chi_Minh": "Asia/Saigon",
	"Asia/Yangon": "Asia/Rangoon", "America/Argentina/Buenos_Aires": "America/Buenos_Aires", "Europe/Kyiv": "Europe/Kiev",
	"Atlantic/Faroe": "Atlantic/Faeroe", "America/Nuuk": "America/Godthab", "Pacific/Chuuk": "Pacific/Truk",
	"Pacific/Pohnpei": "Pacific/Ponape", "America/Indiana/Indianapolis": "America/Indianapolis",
	"America/Kentucky/Louisville": "America/Louisville", "Africa/Asmara": "Africa/Asmera",
	"US/Eastern": "America/New_York", "US/Central": "America/Chicago", "US/Mountain": "America/Denver",
	"US/Pacific": "America/Los_Angeles", "US/Alaska": "America/Anchorage", "US/Hawaii": "Pacific/Honolulu",
	"EST5EDT": "America/New_York", "CST6CDT": "America/Chicago", "MST7MDT": "America/Denver", "PST8PDT": "America/Los_Angeles",
	"Asia/Istanbul": "Europe/Istanbul", "Japan": "Asia/Tokyo", "Singapore": "Asia/Singapore", "Hongkong": "Asia/Hong_Kong",
	"Europe/Belfast": "Europe/London", "GB": "Europe/London", "Asia/Chongqing": "Asia/Shanghai", "PRC": "Asia/Shanghai",
	"Australia/ACT": "Australia/Sydney", "Australia/NSW": "Australia/Sydney", "Canada/Eastern": "America/Toronto",
	"Canada/Pacific": "America/Vancouver", "Brazil/East": "America/Sao_Paulo", "Mexico/General": "America/Mexico_City",
}

// withHourCycle rewrites a time pattern's hours for the hour cycle.
func (f *dateTimeFormat) withHourCycle(p string) string {
	l := f.hourLetter()
	twelve := l == 'h' || l == 'K'
	had12 := strings.ContainsAny(p, "hK")
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case 'h', 'H', 'K', 'k':
			b.WriteByte(l)
		default:
			b.WriteByte(p[i])
		}
	}
	out := b.String()
	if !twelve && had12 {
		out = removeDayPeriod(out)
	}
	if twelve && !had12 {
		// put the day period after the seconds or minutes
		out = strings.Replace(out, ":ss", ":ss\u202fa", 1)
		if !strings.Contains(out, "a") {
			out = strings.Replace(out, ":mm", ":mm\u202fa", 1)
		}
	}
	return out
}

func (f *dateTimeFormat) setZone(tz string) error {
	if tz == "" {
		f.tzName, f.loc = "UTC", time.UTC
		return nil
	}
	if off, ok := parseOffsetZone(tz); ok {
		f.fixedOffset = &off
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		f.tzName = fmt.Sprintf("%s%02d:%02d", sign, off/60, off%60)
		f.loc = time.FixedZone(f.tzName, *f.fixedOffset*60)
		return nil
	}
	switch strings.ToUpper(tz) {
	case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "ETC/UCT", "UCT", "ETC/ZULU", "ZULU", "ETC/UNIVERSAL", "UNIVERSAL", "ETC/GREENWICH", "GREENWICH", "ETC/GMT0", "GMT0", "ETC/GMT+0", "ETC/GMT-0", "GMT+0", "GMT-0":
		f.tzName, f.loc = "UTC", time.UTC
		return nil
	}
	name := tz
	loc, err := time.LoadLocation(name)
	if err != nil {
		name = titleZone(tz)
		loc, err = time.LoadLocation(name)
	}
	if err != nil || strings.HasPrefix(name, "/") || strings.Contains(name, "..") || name == "Local" {
		return rangeErr("Invalid time zone specified: %s", tz)
	}
	if a, ok := zoneAliases[name]; ok {
		name = a
	}
	f.tzName, f.loc = name, loc
	return nil
}

func titleZone(tz string) string {
	parts := strings.Split(strings.ToLower(tz), "/")
	for i, p := range parts {
		words := strings.Split(p, "_")
		for j, w := range words {
			subs := strings.Split(w, "-")
			for k, s := range subs {
				if s != "" && s != "es" && s != "of" && s != "au" && s != "da" {
					subs[k] = strings.ToUpper(s[:1]) + s[1:]
				}
			}
			words[j] = strings.Join(subs, "-")
		}
		parts[i] = strings.Join(words, "_")
	}
	if parts[0] == "Etc" && len(parts) == 2 {
		parts[1] = strings.ToUpper(parts[1])
	}
	return strings.Join(parts, "/")
}

func parseOffsetZone(s string) (int, bool) {
	if len(s) < 3 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	body := s[1:]
	var h, m int
	switch {
	case len(body) == 2:
		h, _ = strconv.Atoi(body)
	case len(body) == 4:
		h, _ = strconv.Atoi(body[:2])
		m, _ = strconv.Atoi(body[2:])
	case len(body) == 5 && body[2] == ':':
		h, _ = strconv.Atoi(body[:2])
		m, _ = strconv.Atoi(body[3:])
	default:
		return 0, false
	}
	for _, c := range strings.ReplaceAll(body, ":", "") {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	return sign * (h*60 + m), true
}

func (f *dateTimeFormat) resolvedOptions() orderedObject {
	ro := ordered("locale", f.locale, "calendar", f.cal, "numberingSystem", f.nu, "timeZone", f.tzName)
	// V8 reads the fields from the pattern without skipping quoted text
	// (Spanish "MMMM 'de' y" reports a day); so does this
	fields := map[byte]skelField{}
	raw := strings.ReplaceAll(f.pattern, "'", "")
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if strings.IndexByte("GyMLEcdBbhHKkmsSzvOV", c) < 0 {
			continue
		}
		j := i
		for j < len(raw) && raw[j] == c {
			j++
		}
		if _, ok := fields[fieldType(c)]; !ok {
			fields[fieldType(c)] = skelField{c, j - i}
		}
		i = j - 1
	}
	if _, ok := fields['h']; ok || f.timeStyle != "" {
		ro = append(ro, "hourCycle", f.hc, "hour12", f.hc == "h11" || f.hc == "h12")
	}
	if f.dateStyle != "" || f.timeStyle != "" {
		if f.dateStyle != "" {
			ro = append(ro, "dateStyle", f.dateStyle)
		}
		if f.timeStyle != "" {
			ro = append(ro, "timeStyle", f.timeStyle)
		}
		return ro
	}
	text := func(n int) string {
		switch {
		case n == 4:
			return "long"
		case n == 5:
			return "narrow"
		}
		return "short"
	}
	num := func(n int) string {
		if n == 2 {
			return "2-digit"
		}
		return "numeric"
	}
	for _, c := range dtComponents {
		switch c {
		case "weekday":
			if sf, ok := fields['E']; ok {
				ro = append(ro, c, text(sf.n))
			}
		case "era":
			// V8 reports the era option given, else GGG and longer
			// (a calendar's default "y G" is not reported)
			if sf, ok := fields['G']; ok && f.era != "" {
				ro = append(ro, c, f.era)
			} else if ok && sf.n >= 3 {
				ro = append(ro, c, text(sf.n))
			}
		case "year":
			if sf, ok := fields['y']; ok {
				ro = append(ro, c, num(sf.n))
			}
		case "month":
			if sf, ok := fields['M']; ok {
				if sf.n <= 2 {
					ro = append(ro, c, num(sf.n))
				} else {
					ro = append(ro, c, text(sf.n))
				}
			}
		case "day":
			if sf, ok := fields['d']; ok {
				ro = append(ro, c, num(sf.n))
			}
		case "dayPeriod":
			if sf, ok := fields['B']; ok {
				ro = append(ro, c, text(sf.n))
			}
		case "hour":
			if sf, ok := fields['h']; ok {
				ro = append(ro, c, num(sf.n))
			}
		case "minute":
			if sf, ok := fields['m']; ok {
				ro = append(ro, c, num(sf.n))
			}
		case "second":
			if sf, ok := fields['s']; ok {
				ro = append(ro, c, num(sf.n))
			}
		case "fractionalSecondDigits":
			if sf, ok := fields['S']; ok {
				ro = append(ro, c, sf.n)
			}
		case "timeZoneName":
			if sf, ok := fields['z']; ok {
				v := map[byte][2]string{'z': {"short", "long"}, 'O': {"shortOffset", "longOffset"}, 'v': {"shortGeneric", "longGeneric"}}[sf.letter]
				if sf.n >= 4 {
					ro = append(ro, c, v[1])
				} else {
					ro = append(ro, c, v[0])
				}
			}
		}
	}
	return ro
}

func (f *dateTimeFormat) call(rest []json.RawMessage) (any, error) {
	m := methodName(rest)
	switch m {
	case "resolvedOptions":
		return f.resolvedOptions(), nil
	case "format", "formatToParts":
		var t float64
		if err := arg(rest, 1, &t); err != nil {
			return nil, err
		}
		ps := f.parts(f.pattern, t)
		if m == "format" {
			return nnbsp(joinParts(ps)), nil
		}
		return ps, nil
	case "formatRange", "formatRangeToParts":
		var a, b float64
		if err := arg(rest, 1, &a); err != nil {
			return nil, err
		}
		if err := arg(rest, 2, &b); err != nil {
			return nil, err
		}
		ps := f.rangeParts(a, b)
		if m == "formatRange" {
			return joinParts(ps), nil // V8 keeps U+202F here
		}
		return ps, nil
	}
	return nil, typeErr("Intl: unknown method")
}

type fields struct {
	year, month, day, weekday, hour, minute, second, ms int
	offset                                              int    // seconds east of UTC
	era                                                 string // the era's key in the calendar's era names
	eraYear                                             int
	monthKey                                            string // the month's key in the calendar's month names
	leap                                                bool   // a lunisolar calendar's leap month
	related                                             int    // the Gregorian year a lunisolar year starts in
	at                                                  int64  // the instant, ms since the epoch
}

func (f *dateTimeFormat) fieldsAt(ms float64) fields {
	t := time.UnixMilli(int64(ms)).In(f.loc)
	_, off := t.Zone()
	fl := fields{year: t.Year(), month: int(t.Month()), day: t.Day(), weekday: int(t.Weekday()), hour: t.Hour(),
		minute: t.Minute(), second: t.Second(), ms: int(int64(ms) - int64(math.Floor(ms/1000))*1000), offset: off, at: int64(ms)}
	if f.cal != "" && f.cal != "gregory" {
		cd := toCalendarAt(f.cal, fl.year, fl.month, fl.day, ms)
		fl.era, fl.eraYear, fl.monthKey, fl.month, fl.day = cd.era, cd.year, cd.monthKey, cd.month, cd.day
		fl.leap, fl.related = cd.leap, cd.related
		fl.year = cd.year
	} else {
		fl.era, fl.eraYear, fl.monthKey = "1", fl.year, strconv.Itoa(fl.month)
		if fl.year <= 0 {
			fl.era, fl.eraYear = "0", 1-fl.year
		}
	}
	return fl
}

func (f *dateTimeFormat) num(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return mapDigits(s, f.digits)
}

func widthName(n int) string {
	switch {
	case n == 4:
		return "wide"
	case n == 5:
		return "narrow"
	case n == 6:
		return "short"
	}
	return "abbreviated"
}

func (f *dateTimeFormat) name(set names, context string, n int, key string) string {
	w := widthName(n)
	if m := set[context][w]; m != nil && m[key] != "" {
		return m[key]
	}
	if w == "short" {
		if m := set[context]["abbreviated"]; m != nil && m[key] != "" {
			return m[key]
		}
	}
	if m := set["format"][w]; m != nil && m[key] != "" {
		return m[key]
	}
	return key
}

func (f *dateTimeFormat) parts(pattern string, ms float64) []part {
	fl := f.fieldsAt(ms)
	var out []part
	lit := func(s string) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Type == "literal" {
			out[n-1].Value += s
			return
		}
		out = append(out, part{Type: "literal", Value: s})
	}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '\'' {
			j := i + 1
			if j < len(pattern) && pattern[j] == '\'' {
				lit("'")
				i = j
				continue
			}
			for j < len(pattern) && pattern[j] != '\'' {
				j++
			}
			lit(pattern[i+1 : min(j, len(pattern))])
			i = j
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			j := i
			for j < len(pattern) && pattern[j] != '\'' && !(pattern[j] >= 'a' && pattern[j] <= 'z' || pattern[j] >= 'A' && pattern[j] <= 'Z') {
				j++
			}
			lit(pattern[i:j])
			i = j - 1
			continue
		}
		j := i
		for j < len(pattern) && pattern[j] == c {
			j++
		}
		n := j - i
		i = j - 1
		p := f.field(c, n, fl)
		if f.dateNumbers != "" && strings.IndexByte("yMLdrD", c) >= 0 {
			p.Value = f.overrideDigits(c, p.Value)
		}
		if c == 'y' && fl.eraYear == 1 && f.cal == "japanese" && strings.HasPrefix(f.dataLocale, "ja") && strings.HasPrefix(pattern[j:], "年") {
			// CLDR's ja patterns of the Japanese calendar number the
			// year with jpanyear: an era's first year is 元年
			p.Value = "元"
		}
		out = append(out, p)
	}
	return out
}

// overrideDigits applies the date style's numbering override (CLDR's
// "hanidec" for every date field, "d=hanidec" for one) to a numeric
// field's value, as ICU does for the date fields of a style pattern. An
// algorithmic numbering system ("hanidays") is not applied.
func (f *dateTimeFormat) overrideDigits(c byte, v string) string {
	for _, o := range strings.Split(f.dateNumbers, ";") {
		nu := o
		if k, rest, ok := strings.Cut(o, "="); ok {
			if len(k) != 1 || k[0] != c {
				continue
			}
			nu = rest
		}
		digits := numberingDigits[nu]
		if digits == "" {
			continue
		}
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return v
			}
		}
		return mapDigits(v, digits)
	}
	return v
}

func (f *dateTimeFormat) field(c byte, n int, fl fields) part {
	eraYear, era := fl.eraYear, fl.era
	switch c {
	case 'G':
		key := "eraAbbr"
		if n == 4 {
			key = "eraNames"
		} else if n == 5 {
			key = "eraNarrow"
		}
		return part{Type: "era", Value: f.g.Eras[key][era]}
	case 'y':
		if n == 2 {
			return part{Type: "year", Value: f.num(eraYear%100, 2)}
		}
		return part{Type: "year", Value: f.num(eraYear, n)}
	case 'M', 'L':
		ctx := "format"
		if c == 'L' {
			ctx = "stand-alone"
		}
		var v string
		if n <= 2 {
			v = f.num(fl.month, n)
		} else {
			v = f.name(f.g.Months, ctx, n, fl.monthKey)
		}
		if fl.leap {
			// a lunisolar leap month: CLDR's monthPatterns ("{0}bis", "闰{0}")
			pat := ""
			if n <= 2 {
				pat = f.g.MonthPatterns["numeric"]["all"]["leap"]
			} else {
				pat = f.name(f.g.MonthPatterns, ctx, n, "leap")
			}
			if pat != "" && pat != "leap" {
				v = strings.Replace(pat, "{0}", v, 1)
			}
		}
		return part{Type: "month", Value: v}
	case 'U':
		return part{Type: "yearName", Value: f.name(f.g.YearNames, "format", n, strconv.Itoa(eraYear))}
	case 'r':
		return part{Type: "relatedYear", Value: f.num(fl.related, n)}
	case 'E', 'c', 'e':
		ctx := "format"
		if c == 'c' {
			ctx = "stand-alone"
		}
		if n < 3 && c != 'E' {
			return part{Type: "weekday", Value: f.num(fl.weekday+1, n)}
		}
		return part{Type: "weekday", Value: f.name(f.g.Days, ctx, n, dayKeys[fl.weekday])}
	case 'd':
		return part{Type: "day", Value: f.num(fl.day, n)}
	case 'a':
		key := "am"
		if fl.hour >= 12 {
			key = "pm"
		}
		if n < 4 {
			n = 4 // ICU's "a" takes the wide AM/PM names
		}
		// ICU's data spaces "a. m." with U+202F where the CLDR JSON has U+00A0
		return part{Type: "dayPeriod", Value: strings.ReplaceAll(f.name(f.g.DayPeriods, "format", n, key), "\u00a0", "\u202f")}
	case 'B', 'b':
		return part{Type: "dayPeriod", Value: f.name(f.g.DayPeriods, "format", n, f.flexibleDayPeriod(fl))}
	case 'h':
		h := fl.hour % 12
		if h == 0 {
			h = 12
		}
		return part{Type: "hour", Value: f.num(h, n)}
	case 'H':
		return part{Type: "hour", Value: f.num(fl.hour, n)}
	case 'K':
		return part{Type: "hour", Value: f.num(fl.hour%12, n)}
	case 'k':
		h := fl.hour
		if h == 0 {
			h = 24
		}
		return part{Type: "hour", Value: f.num(h, n)}
	case 'm':
		return part{Type: "minute", Value: f.num(fl.minute, n)}
	case 's':
		return part{Type: "second", Value: f.num(fl.second, n)}
	case 'S':
		s := fmt.Sprintf("%03d", fl.ms)
		if n < 3 {
			s = s[:n]
		}
		return part{Type: "fractionalSecond", Value: mapDigits(s, f.digits)}
	case 'z', 'v', 'O', 'V':
		return part{Type: "timeZoneName", Value: f.zoneName(c, n, fl)}
	}
	return part{Type: "literal", Value: strings.Repeat(string(c), n)}
}

func (f *dateTimeFormat) flexibleDayPeriod(fl fields) string {
	ms := float64((fl.hour*3600 + fl.minute*60 + fl.second) * 1000)
	for _, r := range f.d.DayPeriodRules {
		if r.At != nil && *r.At == ms && r.Name != "midnight" {
			return r.Name
		}
	}
	for _, r := range f.d.DayPeriodRules {
		if r.From != nil && r.Before != nil {
			from, before := *r.From, *r.Before
			if from <= before && ms >= from && ms < before || from > before && (ms >= from || ms < before) {
				return r.Name
			}
		}
	}
	if fl.hour < 12 {
		return "am"
	}
	return "pm"
}

// gmtFormat is the localized GMT format; zero says whether offset 0 is
// written as the GMT-zero format ("GMT") or as "GMT+0".
func (f *dateTimeFormat) gmtFormat(offset int, long, zero bool) string {
	z := f.g.Zone
	if offset == 0 && zero {
		if z.GMTZeroFormat != "" {
			return z.GMTZeroFormat
		}
		return "GMT"
	}
	pos, neg, _ := strings.Cut(z.HourFormat, ";")
	p := pos
	if offset == 0 {
		p = strings.Replace(pos, "+", "+", 1)
	}
	if offset < 0 {
		p, offset = neg, -offset
	}
	h, m, sec := offset/3600, (offset%3600)/60, offset%60
	if sec != 0 {
		// seconds follow the minutes with the separator before them, as
		// ICU writes a local mean time's offset (GMT-4:56:02)
		if i, j := strings.Index(p, "HH"), strings.Index(p, "mm"); i >= 0 && j > i+2 {
			p = p[:j+2] + p[i+2:j] + "ss" + p[j+2:]
			p = strings.Replace(p, "ss", fmt.Sprintf("%02d", sec), 1)
		}
	}
	var s string
	if long {
		s = strings.Replace(strings.Replace(p, "HH", fmt.Sprintf("%02d", h), 1), "mm", fmt.Sprintf("%02d", m), 1)
	} else {
		// the short form drops a leading zero and zero minutes
		hp := strings.Replace(p, "HH", strconv.Itoa(h), 1)
		if m == 0 && sec == 0 {
			if i := strings.Index(hp, ":mm"); i >= 0 {
				hp = hp[:i] + hp[i+3:]
			} else {
				hp = strings.Replace(hp, "mm", "", 1)
			}
			s = hp
		} else {
			s = strings.Replace(hp, "mm", fmt.Sprintf("%02d", m), 1)
		}
	}
	s = mapDigits(s, f.digits)
	g := z.GMTFormat
	if g == "" {
		g = "GMT{0}"
	}
	return strings.Replace(g, "{0}", s, 1)
}

func (f *dateTimeFormat) zoneName(c byte, n int, fl fields) string {
	long := n >= 4
	switch c {
	case 'z':
		if s := f.specificName(long, fl.at); s != "" {
			return s
		}
	case 'v':
		if s := f.genericName(long, fl.at); s != "" {
			return s
		}
	}
	return f.gmtFormat(fl.offset, long, c == 'V')
}

// rangeParts formats a date range with CLDR's interval formats.
func (f *dateTimeFormat) rangeParts(a, b float64) []part {
	fa, fb := f.fieldsAt(a), f.fieldsAt(b)
	pf := parseSkeleton(f.pattern)
	// the greatest field that differs, among those shown
	var diff byte
	switch {
	case fa.year != fb.year:
		diff = 'y'
	case fa.month != fb.month:
		diff = 'M'
	case fa.day != fb.day:
		diff = 'd'
	case (fa.hour < 12) != (fb.hour < 12):
		diff = 'a'
	case fa.hour != fb.hour:
		diff = 'h'
	case fa.minute != fb.minute:
		diff = 'm'
	case fa.second != fb.second:
		diff = 's'
	}
	shown := func(t byte) bool {
		switch t {
		case 'a':
			_, ok := pf['h']
			return ok
		case 'd':
			_, ok := pf['d']
			_, okE := pf['E']
			return ok || okE
		}
		_, ok := pf[t]
		return ok
	}
	if diff == 0 || !shownOrFiner(diff, shown) {
		ps := f.parts(f.pattern, a)
		for i := range ps {
			ps[i].Source = "shared" // one date: every part is shared
		}
		return ps
	}
	if f.skeleton != "" {
		if p, ok := f.intervalPattern(diff); ok {
			return f.splitInterval(p, a, b, diff)
		}
	}
	fallback := f.intervalFallback()
	pattern := f.pattern
	if _, zone := pf['z']; zone && !shown('h') {
		// ICU's interval format finds no interval pattern for a zone
		// without a time, and falls back to two dates in the pattern
		// best for the skeleton read back from the pattern (ja
		// "y年M月d日 v" reads as yMdv: "y/M/d v")
		pattern = f.bestPattern(canonicalSkeleton(f.pattern))
	}
	pa, pb := f.parts(pattern, a), f.parts(pattern, b)
	for i := range pa {
		pa[i].Source = "startRange"
	}
	for i := range pb {
		pb[i].Source = "endRange"
	}
	return mergeLiterals(substituteShared(fallback, pa, pb))
}

func shownOrFiner(diff byte, shown func(byte) bool) bool {
	order := []byte{'y', 'M', 'd', 'a', 'h', 'm', 's'}
	on := false
	for _, t := range order {
		if t == diff {
			on = true
		}
		if on && shown(t) {
			return true
		}
	}
	return false
}

func (f *dateTimeFormat) intervalFallback() string {
	var m map[string]json.RawMessage = f.g.DateTimeFormats.IntervalFormats
	var s string
	_ = json.Unmarshal(m["intervalFormatFallback"], &s)
	if s == "" {
		s = "{0} – {1}"
	}
	return s
}

func (f *dateTimeFormat) intervalPattern(diff byte) (string, bool) {
	req := parseSkeleton(f.skeleton)
	bestD := math.MaxInt
	var best map[string]string
	var bestKey string
	keys := make([]string, 0, len(f.g.DateTimeFormats.IntervalFormats))
	for k := range f.g.DateTimeFormats.IntervalFormats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "intervalFormatFallback" {
			continue
		}
		d, missing := distance(req, parseSkeleton(k))
		if missing == 0 && d < bestD && d < extraWeight {
			var m map[string]string
			if json.Unmarshal(f.g.DateTimeFormats.IntervalFormats[k], &m) == nil {
				bestD, best, bestKey = d, m, k
			}
		}
	}
	if best == nil {
		return "", false
	}
	key := string(diff)
	if diff == 'h' || diff == 'a' {
		if f.hourLetter() == 'H' || f.hourLetter() == 'k' {
			key = "H"
			if diff == 'a' {
				key = "H"
			}
		} else if diff == 'a' {
			key = "a"
		} else {
			key = "h"
		}
	}
	p, ok := best[key]
	if !ok && diff == 'a' {
		p, ok = best["h"]
	}
	if !ok {
		return "", false
	}
	return f.adjust(p, bestKey, req), true
}

// splitInterval formats an interval pattern: the fields up to the first
// repeated one are the start, the rest the end.
func (f *dateTimeFormat) splitInterval(p string, a, b float64, diff byte) []part {
	seen := map[byte]bool{}
	inQ := false
	split := len(p)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\'' {
			inQ = !inQ
			continue
		}
		if inQ || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			continue
		}
		t := fieldType(c)
		if seen[t] {
			split = i
			break
		}
		seen[t] = true
		for i+1 < len(p) && p[i+1] == c {
			i++
		}
	}
	pa := f.parts(p[:split], a)
	pb := f.parts(p[split:], b)
	for i := range pa {
		pa[i].Source = "startRange"
	}
	for i := range pb {
		pb[i].Source = "endRange"
	}
	// as ICU's spans: a half's span runs from its first field that the
	// other half repeats to its last; the rest ("Jan" and "2024" of
	// "Jan 10 – 20, 2024") and literals outside are shared
	sharedOutside(pa, patternFields(p[split:]))
	sharedOutside(pb, patternFields(p[:split]))
	return append(pa, pb...)
}

// partFields are the pattern fields (as fieldType gives them) of parts.
var partFields = map[string]byte{"era": 'G', "year": 'y', "relatedYear": 'r', "yearName": 'U', "month": 'M', "day": 'd',
	"weekday": 'E', "dayPeriod": 'B', "hour": 'h', "minute": 'm', "second": 's', "fractionalSecond": 'S', "timeZoneName": 'z'}

func patternFields(p string) map[byte]bool {
	out := map[byte]bool{}
	inQ := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\'' {
			inQ = !inQ
			continue
		}
		if !inQ && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			t := fieldType(c)
			if t == 'a' {
				t = 'B'
			}
			out[t] = true
		}
	}
	return out
}

func sharedOutside(ps []part, other map[byte]bool) {
	first, last := -1, -1
	for i, p := range ps {
		if t, ok := partFields[p.Type]; ok && other[t] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := range ps {
		if first < 0 || i < first || i > last {
			ps[i].Source = "shared"
		}
	}
}

func substituteShared(pattern string, a, b []part) []part {
	out := substitute(pattern, a, b)
	for i := range out {
		if out[i].Source == "" {
			out[i].Source = "shared"
		}
	}
	return out
}
