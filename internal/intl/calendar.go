package intl

import (
	"encoding/json"
	"math"
	"strings"
	"sync"
	"time"
)

// Non-Gregorian calendars for DateTimeFormat (the calendar option and the
// -u-ca- keyword). The arithmetic calendars are computed here as ICU
// computes them (buddhist, japanese, roc on the proleptic Gregorian
// calendar; persian, indian, coptic, ethiopic, ethioaa, islamic-civil,
// islamic-tbla, hebrew by their rules), and so are the astronomical ones
// (chinese, dangi, islamic, islamic-rgsa: chinese.go); their names and
// patterns are CLDR's (gen.sh). islamic-umalqura, whose dates are a
// table ICU carries and CLDR does not, and iso8601 (no CLDR patterns)
// fall back, to islamic-civil and gregory, and resolvedOptions().calendar
// says which was used.

// calendarFallback maps a calendar Node supports but modebox computes
// another way to the one used.
var calendarFallback = map[string]string{
	"islamic-umalqura": "islamic-civil", "iso8601": "gregory",
}

// calendarAlias holds the CLDR aliases of calendar types.
var calendarAlias = map[string]string{"ethiopic-amete-alem": "ethioaa", "islamicc": "islamic-civil"}

// validCalendarSyntax is the type production of Unicode locale
// identifiers: (3*8alphanum) *("-" (3*8alphanum)).
func validCalendarSyntax(s string) bool {
	if s == "" {
		return false
	}
	for _, p := range strings.Split(s, "-") {
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

// resolveCalendar is the calendar used for a requested one ("" or
// unsupported: gregory) and whether the request named a calendar Node
// supports (so the locale keeps its -u-ca- keyword).
func resolveCalendar(name string) (used string, known bool) {
	name = strings.ToLower(name)
	if a, ok := calendarAlias[name]; ok {
		name = a
	}
	if name == "gregory" {
		return "gregory", true
	}
	if fb, ok := calendarFallback[name]; ok {
		return fb, true
	}
	if calendarKinds[name] {
		return name, true
	}
	return "gregory", false
}

var calendarKinds = map[string]bool{
	"buddhist": true, "japanese": true, "roc": true, "persian": true, "indian": true, "coptic": true,
	"ethiopic": true, "ethioaa": true, "islamic-civil": true, "islamic-tbla": true, "hebrew": true,
	"islamic": true, "islamic-rgsa": true, "chinese": true, "dangi": true,
}

// calendarDataName is the calendar whose CLDR names a calendar uses
// (CLDR's islamic-rgsa is an alias of islamic).
func calendarDataName(cal string) string {
	if cal == "islamic-rgsa" {
		return "islamic"
	}
	return cal
}

// calendarNames is one calendar's CLDR data for a locale.
type calendarNames struct {
	Months          names                        `json:"months"`
	MonthPatterns   names                        `json:"monthPatterns"`
	YearNames       names                        `json:"yearNames"`
	DateNumbers     map[string]string            `json:"dateNumbers"`
	Eras            map[string]map[string]string `json:"eras"`
	DateFormats     map[string]string            `json:"dateFormats"`
	DateTimeFormats struct {
		Full             string                     `json:"full"`
		Long             string                     `json:"long"`
		Medium           string                     `json:"medium"`
		Short            string                     `json:"short"`
		AvailableFormats map[string]string          `json:"availableFormats"`
		IntervalFormats  map[string]json.RawMessage `json:"intervalFormats"`
		AppendItems      map[string]string          `json:"appendItems"`
	} `json:"dateTimeFormats"`
}

var (
	calMu   sync.Mutex
	calData = map[string]*gregorianData{}
)

// calendarFor is the locale's Gregorian data with the calendar's months,
// eras and date patterns in place (days, day periods, times and zones
// stay the Gregorian calendar's), or nil without data.
func calendarFor(loc, cal string, g *gregorianData) *gregorianData {
	dataOnce.Do(loadRaw)
	key := loc + "\x00" + cal
	calMu.Lock()
	defer calMu.Unlock()
	if d, ok := calData[key]; ok {
		return d
	}
	raw, ok := rawCalendars[loc][calendarDataName(cal)]
	if !ok {
		calData[key] = nil
		return nil
	}
	var c calendarNames
	if err := json.Unmarshal(raw, &c); err != nil {
		calData[key] = nil
		return nil
	}
	if !ownPatterns(loc, cal) {
		var gen calendarNames
		if json.Unmarshal(rawCalendars[loc]["generic"], &gen) == nil {
			c.DateFormats, c.DateTimeFormats = gen.DateFormats, gen.DateTimeFormats
		}
	}
	d := *g
	d.Eras = c.Eras
	d.MonthPatterns, d.YearNames, d.DateNumbers = c.MonthPatterns, c.YearNames, c.DateNumbers
	switch cal {
	case "buddhist", "japanese", "roc":
		// CLDR's months of these calendars are the Gregorian ones (an
		// alias), so they come from the current Gregorian data
	default:
		d.Months = c.Months
	}
	if c.DateFormats != nil {
		d.DateFormats = c.DateFormats
	}
	dt := &d.DateTimeFormats
	pick := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	pick(&dt.Full, c.DateTimeFormats.Full)
	pick(&dt.Long, c.DateTimeFormats.Long)
	pick(&dt.Medium, c.DateTimeFormats.Medium)
	pick(&dt.Short, c.DateTimeFormats.Short)
	if c.DateTimeFormats.AvailableFormats != nil {
		dt.AvailableFormats = c.DateTimeFormats.AvailableFormats
	}
	if c.DateTimeFormats.IntervalFormats != nil {
		dt.IntervalFormats = c.DateTimeFormats.IntervalFormats
	}
	if c.DateTimeFormats.AppendItems != nil {
		dt.AppendItems = c.DateTimeFormats.AppendItems
	}
	calData[key] = &d
	return &d
}

// calDate is a date in a calendar: the era's key in CLDR's era names, the
// year in that era, the month's key (1-based; Hebrew's leap Adar II is
// "7-yeartype-leap"), its number as shown, and the day; for chinese and
// dangi, whether the month is a leap month and the Gregorian year the
// year starts in (the era is the 60-year cycle, the year one in it).
type calDate struct {
	era      string
	year     int
	monthKey string
	month    int
	day      int
	leap     bool
	related  int
}

// julianDay is the Julian day number of a proleptic Gregorian date.
func julianDay(y, m, d int) int64 {
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix()/86400 + 2440588
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

var japaneseEraStart struct {
	once sync.Once
	jd   []int64
}

func japaneseEras() []int64 {
	japaneseEraStart.once.Do(func() {
		for _, s := range rawJapaneseEras {
			var y, m, d int
			neg := strings.HasPrefix(s, "-")
			parts := strings.Split(strings.TrimPrefix(s, "-"), "-")
			if len(parts) != 3 {
				continue
			}
			y, m, d = atoi(parts[0]), atoi(parts[1]), atoi(parts[2])
			if neg {
				y = -y
			}
			japaneseEraStart.jd = append(japaneseEraStart.jd, julianDay(y, m, d))
		}
	})
	return japaneseEraStart.jd
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return n
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// toCalendar converts a proleptic Gregorian date (y, m, d) to the calendar.
func toCalendar(cal string, y, m, d int) calDate {
	return toCalendarAt(cal, y, m, d, float64(julianDay(y, m, d)-2440588)*astroDayMS+astroDayMS/2)
}

// toCalendarAt converts the local date (y, m, d) of the instant ms (ICU's
// astronomical islamic calendar looks at the moon at that instant).
func toCalendarAt(cal string, y, m, d int, ms float64) calDate {
	jd := julianDay(y, m, d)
	plain := func(era string, year, month, day int) calDate {
		return calDate{era: era, year: year, monthKey: itoa(month), month: month, day: day}
	}
	switch cal {
	case "chinese", "dangi":
		c := chineseCal
		if cal == "dangi" {
			c = dangiCal
		}
		x := c.date(y, m, d)
		return calDate{era: itoa(x.cycle), year: x.year, monthKey: itoa(x.month), month: x.month, day: x.day, leap: x.leap, related: x.related}
	case "islamic", "islamic-rgsa":
		return islamicAstroDate(y, m, d, ms)
	case "buddhist":
		return plain("0", y+543, m, d)
	case "roc":
		if y > 1911 {
			return plain("1", y-1911, m, d)
		}
		return plain("0", 1912-y, m, d)
	case "japanese":
		eras := japaneseEras()
		i := len(eras) - 1
		for i > 0 && jd < eras[i] {
			i--
		}
		if len(eras) == 0 {
			return plain("0", y, m, d)
		}
		start := time.Unix((eras[i]-2440588)*86400, 0).UTC()
		return plain(itoa(i), y-start.Year()+1, m, d)
	case "persian":
		const epoch = 1948320
		days := jd - epoch
		year := 1 + floorDiv(33*days+3, 12053)
		farvardin1 := 365*(year-1) + floorDiv(8*year+21, 33)
		doy := int(days - farvardin1)
		var month int
		if doy < 216 {
			month = doy / 31
		} else {
			month = (doy - 6) / 30
		}
		cum := [12]int{0, 31, 62, 93, 124, 155, 186, 216, 246, 276, 306, 336}
		return plain("0", int(year), month+1, doy-cum[month]+1)
	case "indian":
		yday := int(jd - julianDay(y, 1, 1))
		iy := y - 78
		leap := func(g int) bool { return g%4 == 0 && (g%100 != 0 || g%400 == 0) }
		var first int
		if yday < 80 {
			iy--
			first = 30
			if leap(y - 1) {
				first = 31
			}
			yday += first + 31*5 + 30*3 + 10
		} else {
			first = 30
			if leap(y) {
				first = 31
			}
			yday -= 80
		}
		if yday < first {
			return plain("0", iy, 1, yday+1)
		}
		md := yday - first
		if md < 31*5 {
			return plain("0", iy, md/31+2, md%31+1)
		}
		md -= 31 * 5
		return plain("0", iy, md/30+7, md%30+1)
	case "coptic", "ethiopic", "ethioaa":
		offset := int64(1824665)
		if cal != "coptic" {
			offset = 1723856
		}
		r4 := (jd - offset) % 1461
		c4 := floorDiv(jd-offset, 1461)
		if r4 < 0 {
			r4 += 1461
		}
		year := int(4*c4 + (r4/365 - r4/1460))
		doy := int(r4 % 365)
		if r4 == 1460 {
			doy = 365
		}
		month, day := doy/30+1, doy%30+1
		switch cal {
		case "coptic":
			if year <= 0 {
				return plain("0", 1-year, month, day)
			}
			return plain("1", year, month, day)
		case "ethiopic":
			if year <= 0 {
				return plain("0", year+5500, month, day)
			}
			return plain("1", year, month, day)
		}
		return plain("0", year+5500, month, day)
	case "islamic-civil", "islamic-tbla":
		epoch := int64(1948440)
		if cal == "islamic-tbla" {
			epoch = 1948439
		}
		days := jd - epoch
		year := floorDiv(30*days+10646, 10631)
		yearStart := func(y int64) int64 { return (y-1)*354 + floorDiv(3+11*y, 30) }
		monthStart := func(y int64, m int) int64 {
			return int64(math.Ceil(29.5*float64(m))) + yearStart(y)
		}
		month := int(math.Ceil(float64(days-29-yearStart(year)) / 29.5))
		if month > 11 {
			month = 11
		}
		if month < 0 {
			month = 0
		}
		return plain("0", int(year), month+1, int(days-monthStart(year, month))+1)
	case "hebrew":
		return hebrewDate(jd)
	}
	return plain("1", y, m, d)
}

// The Hebrew calendar as ICU computes it: the molad of Tishri with its
// postponements, months numbered from Tishri 1..13 with Adar I (6)
// only in leap years.
const (
	hebrewHourParts  = 1080
	hebrewDayParts   = 24 * hebrewHourParts
	hebrewMonthDays  = 29
	hebrewMonthFract = 12*hebrewHourParts + 793
	hebrewMonthParts = hebrewMonthDays*hebrewDayParts + hebrewMonthFract
	hebrewBaharad    = 11*hebrewHourParts + 204
	hebrewEpoch      = 347997 // the Julian day of 1 Tishri 1 AM
)

func hebrewLeap(y int64) bool {
	x := (y*12 + 17) % 19
	if x < 0 {
		x += 19
	}
	return x >= 12
}

// hebrewStartOfYear is the day number (from the epoch) of 1 Tishri.
func hebrewStartOfYear(year int64) int64 {
	monthsBefore := floorDiv(235*year-234, 19)
	frac := monthsBefore*hebrewMonthFract + hebrewBaharad
	day := monthsBefore*29 + frac/hebrewDayParts
	frac %= hebrewDayParts
	wd := day % 7
	if wd == 2 || wd == 4 || wd == 6 {
		day++ // (ICU tests the next rules with the weekday before this)
	}
	if wd == 1 && frac > 15*hebrewHourParts+204 && !hebrewLeap(year) {
		day += 2
	} else if wd == 0 && frac > 21*hebrewHourParts+589 && hebrewLeap(year-1) {
		day++
	}
	return day
}

// hebrewYearType: 0 deficient, 1 regular, 2 complete.
func hebrewYearType(year int64) int {
	n := hebrewStartOfYear(year+1) - hebrewStartOfYear(year)
	if n > 380 {
		n -= 30
	}
	switch n {
	case 353:
		return 0
	case 354:
		return 1
	case 355:
		return 2
	}
	return 1
}

// month lengths by month (Tishri = 0 .. Elul = 12) and year type
var hebrewMonthLength = [13][3]int{
	{30, 30, 30}, {29, 29, 30}, {29, 30, 30}, {29, 29, 29}, {30, 30, 30}, {30, 30, 30}, {29, 29, 29},
	{30, 30, 30}, {29, 29, 29}, {30, 30, 30}, {29, 29, 29}, {30, 30, 30}, {29, 29, 29},
}

func hebrewDate(jd int64) calDate {
	d := jd - hebrewEpoch
	m := floorDiv(d*hebrewDayParts, hebrewMonthParts)
	year := floorDiv(19*m+234, 235) + 1
	ys := hebrewStartOfYear(year)
	doy := d - ys
	for doy < 1 {
		year--
		ys = hebrewStartOfYear(year)
		doy = d - ys
	}
	typ := hebrewYearType(year)
	leap := hebrewLeap(year)
	month := 0
	left := int(doy) // 1-based day of year
	for month < 13 {
		if month == 5 && !leap {
			month++ // no Adar I
			continue
		}
		n := hebrewMonthLength[month][typ]
		if left <= n {
			break
		}
		left -= n
		month++
	}
	key := itoa(month + 1)
	if month == 6 && leap {
		key = "7-yeartype-leap"
	}
	shown := month + 1
	if !leap && month > 5 {
		shown = month // ICU's ordinal month skips Adar I in common years
	}
	return calDate{era: "0", year: int(year), monthKey: key, month: shown, day: left}
}

// ownPatterns says whether a calendar has patterns of its own in a locale
// rather than the generic calendar's. The cldr-cal-* packages the
// registry serves are of older CLDR versions and resolve every locale's
// patterns by their own inheritance, so which locales have a calendar's
// own patterns in CLDR 48 (ICU 78) is this list, checked against Node 22
// by intl_calendars.js; the rest take CLDR 48's generic patterns.
func ownPatterns(loc, cal string) bool {
	lang, _, _ := strings.Cut(loc, "-")
	switch cal {
	case "japanese":
		return loc == "en" || lang == "es" || lang == "fr" || lang == "pt" || lang == "tr" || lang == "zh" || lang == "ja"
	case "buddhist":
		return lang == "hi" || lang == "ja" || lang == "sv" || lang == "zh"
	case "roc":
		return lang == "zh"
	case "hebrew", "islamic-civil", "islamic-tbla", "islamic", "islamic-rgsa", "chinese", "dangi":
		return true
	}
	return false
}
