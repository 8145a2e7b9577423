package intl

import (
	"math"
	"sync"
)

// The Chinese and Korean (dangi) lunisolar calendars as ICU computes them
// (ICU's ChineseCalendar and DangiCalendar on its CalendarAstronomer):
// months begin on the day of the new moon, month 11 holds the winter
// solstice, and in a year with 13 new moons between two winter solstices
// the first month with no major solar term is the leap month. The sun's
// longitude and the moon's age are the low-precision models of
// Duffett-Smith's "Practical Astronomy with your Calculator" (epoch
// 1990.0) that ICU uses, the times of new moons and solstices are found
// with ICU's secant search to the minute, and days are counted at the
// calendar's meridian: UTC+8 for chinese, and for dangi Korea's meridians
// over time (UTC+8 before 1897, +7 in 1897, +8 to 1911, +9 from 1912,
// +8:30 from 1954, +9 from 1961). The algorithms are those of Reingold and
// Dershowitz, "Calendrical Calculations", on ICU's astronomy.

const (
	astroDayMS       = 86400000.0
	astroJulianEpoch = -210866760000000.0 // JD 0 in ms since 1970
	astroEpoch1990   = 2447891.5          // JD of 1990-01-00.0, the models' epoch
	tropicalYear     = 365.242191
	synodicMonth     = 29.530588853
	deg              = math.Pi / 180
	sunEtaG          = 279.403303 * deg // the sun's ecliptic longitude at the epoch
	sunOmegaG        = 282.768422 * deg // its longitude at perigee
	sunE             = 0.016713         // the eccentricity of its orbit
	moonL0           = 318.351648 * deg // the moon's mean longitude at the epoch
	moonP0           = 36.340410 * deg  // its mean longitude at perigee
	moonN0           = 318.510107 * deg // the mean longitude of its node
	moonI            = 5.145366 * deg   // its orbit's inclination
)

func norm2PI(a float64) float64 { return a - 2*math.Pi*math.Floor(a/(2*math.Pi)) }
func normPI(a float64) float64  { return norm2PI(a+math.Pi) - math.Pi }

// trueAnomaly solves Kepler's equation for the eccentric anomaly by
// Newton's method and returns the true anomaly.
func trueAnomaly(mean, e float64) float64 {
	E := mean
	for {
		delta := E - e*math.Sin(E) - mean
		E -= delta / (1 - e*math.Cos(E))
		if math.Abs(delta) <= 1e-5 {
			break
		}
	}
	return 2 * math.Atan(math.Tan(E/2)*math.Sqrt((1+e)/(1-e)))
}

// sunLongitude is the sun's ecliptic longitude and mean anomaly at an
// instant (ms since 1970).
func sunLongitude(ms float64) (lon, meanAnomaly float64) {
	day := (ms-astroJulianEpoch)/astroDayMS - astroEpoch1990
	epochAngle := norm2PI(2 * math.Pi / tropicalYear * day)
	meanAnomaly = norm2PI(epochAngle + sunEtaG - sunOmegaG)
	return norm2PI(trueAnomaly(meanAnomaly, sunE) + sunOmegaG), meanAnomaly
}

// moonAge is the moon's elongation from the sun (0 at new moon) at an
// instant: its mean longitude corrected for evection, the annual
// equation, the equation of the centre and variation, reduced to the
// ecliptic.
func moonAge(ms float64) float64 {
	sunLon, sunM := sunLongitude(ms)
	day := (ms-astroJulianEpoch)/astroDayMS - astroEpoch1990
	meanLon := norm2PI(13.1763966*deg*day + moonL0)
	meanAnom := norm2PI(meanLon - 0.1114041*deg*day - moonP0)
	evection := 1.2739 * deg * math.Sin(2*(meanLon-sunLon)-meanAnom)
	annual := 0.1858 * deg * math.Sin(sunM)
	a3 := 0.37 * deg * math.Sin(sunM)
	meanAnom += evection - annual - a3
	center := 6.2886 * deg * math.Sin(meanAnom)
	a4 := 0.214 * deg * math.Sin(2*meanAnom)
	lon := meanLon + evection + center - annual + a4
	lon += 0.6583 * deg * math.Sin(2*(lon-sunLon))
	node := norm2PI(moonN0-0.0529539*deg*day) - 0.16*deg*math.Sin(sunM)
	y, x := math.Sin(lon-node), math.Cos(lon-node)
	eclip := math.Atan2(y*math.Cos(moonI), x) + node
	return norm2PI(eclip - sunLon)
}

// timeOfAngle finds the next (or previous) instant after t at which fn
// reaches the angle, by the secant method to within a minute, restarting
// an eighth of a period further on when the search diverges.
func timeOfAngle(fn func(float64) float64, t, desired, periodDays float64, next bool) float64 {
	const epsilon = 60000.0
	for {
		start := t
		last := fn(t)
		deltaA := norm2PI(desired - last)
		if !next {
			deltaA -= 2 * math.Pi
		}
		deltaT := deltaA * periodDays * astroDayMS / (2 * math.Pi)
		lastDelta := deltaT
		t += math.Ceil(deltaT)
		restart := false
		for {
			a := fn(t)
			factor := math.Abs(deltaT / normPI(a-last))
			deltaT = normPI(desired-a) * factor
			if math.Abs(deltaT) > math.Abs(lastDelta) {
				d := math.Ceil(periodDays * astroDayMS / 8)
				if next {
					t = start + d
				} else {
					t = start - d
				}
				restart = true
				break
			}
			lastDelta, last = deltaT, a
			t += math.Ceil(deltaT)
			if math.Abs(deltaT) <= epsilon {
				break
			}
		}
		if !restart {
			return t
		}
	}
}

func sunLon(ms float64) float64 { l, _ := sunLongitude(ms); return l }

// lunisolar is one of the two calendars: its meridian (hours east of UTC
// at a local day) and its caches.
type lunisolar struct {
	offset   func(ms float64) float64 // ms east of UTC at an instant
	mu       sync.Mutex
	solstice map[int]int64
	newMoon  map[[2]int64]int64
}

var chineseCal = &lunisolar{offset: func(float64) float64 { return 8 * 3600000 }}

// Korea's meridians, switched at ICU's approximate instants (365-day
// years from 1970).
var dangiCal = &lunisolar{offset: func(ms float64) float64 {
	y := func(year int) float64 { return float64(year-1970) * 365 * astroDayMS }
	h := 8.0
	switch {
	case ms >= y(1961):
		h = 9
	case ms >= y(1954):
		h = 8.5
	case ms >= y(1912):
		h = 9
	case ms >= y(1898):
		h = 8
	case ms >= y(1897):
		h = 7
	}
	return h * 3600000
}}

// daysToMS is the UTC instant of a local midnight (days since 1970).
func (c *lunisolar) daysToMS(days int64) float64 {
	ms := float64(days) * astroDayMS
	return ms - c.offset(ms)
}

// msToDays is the local day (since 1970) of an instant.
func (c *lunisolar) msToDays(ms float64) int64 {
	return int64(math.Floor((ms + c.offset(ms)) / astroDayMS))
}

// winterSolstice is the local day of the winter solstice of a Gregorian year.
func (c *lunisolar) winterSolstice(gyear int) int64 {
	c.mu.Lock()
	if v, ok := c.solstice[gyear]; ok {
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()
	t := c.daysToMS(julianDay(gyear, 12, 1) - 2440588)
	v := c.msToDays(timeOfAngle(sunLon, t, 3*math.Pi/2, tropicalYear, true))
	c.mu.Lock()
	if c.solstice == nil || len(c.solstice) > 1<<14 {
		c.solstice = map[int]int64{}
	}
	c.solstice[gyear] = v
	c.mu.Unlock()
	return v
}

// newMoonNear is the local day of the first new moon after (or the last
// before) the local midnight of days.
func (c *lunisolar) newMoonNear(days int64, after bool) int64 {
	key := [2]int64{days, 0}
	if after {
		key[1] = 1
	}
	c.mu.Lock()
	if v, ok := c.newMoon[key]; ok {
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()
	v := c.msToDays(timeOfAngle(moonAge, c.daysToMS(days), 0, synodicMonth, after))
	c.mu.Lock()
	if c.newMoon == nil || len(c.newMoon) > 1<<16 {
		c.newMoon = map[[2]int64]int64{}
	}
	c.newMoon[key] = v
	c.mu.Unlock()
	return v
}

func synodicMonthsBetween(a, b int64) int64 {
	return int64(math.Floor(0.5 + float64(b-a)/synodicMonth))
}

// majorSolarTerm is the major solar term (1..12, 1 at the sun's 330°)
// in force at the local midnight of days.
func (c *lunisolar) majorSolarTerm(days int64) int {
	term := (int(6*sunLon(c.daysToMS(days))/math.Pi) + 2) % 12
	if term < 1 {
		term += 12
	}
	return term
}

const synodicGap = 25

func (c *lunisolar) hasNoMajorSolarTerm(newMoon int64) bool {
	return c.majorSolarTerm(newMoon) == c.majorSolarTerm(c.newMoonNear(newMoon+synodicGap, true))
}

func (c *lunisolar) isLeapMonthBetween(a, b int64) bool {
	for b >= a {
		if c.hasNoMajorSolarTerm(b) {
			return true
		}
		b = c.newMoonNear(b-synodicGap, false)
	}
	return false
}

// lunisolarDate is a date of the calendar: the 60-year cycle (the era),
// the year in it (1..60), the Gregorian year it starts in, the month
// (1..12), whether it is the leap month, and the day.
type lunisolarDate struct {
	cycle, year, related, month int
	leap                        bool
	day                         int
}

// date converts a proleptic Gregorian date to the calendar.
func (c *lunisolar) date(gy, gm, gd int) lunisolarDate {
	days := julianDay(gy, gm, gd) - 2440588
	after := c.winterSolstice(gy)
	var before int64
	if days < after {
		before = c.winterSolstice(gy - 1)
	} else {
		before, after = after, c.winterSolstice(gy+1)
	}
	firstMoon := c.newMoonNear(before+1, true)
	lastMoon := c.newMoonNear(after+1, false)
	thisMoon := c.newMoonNear(days+1, false)
	leapYear := synodicMonthsBetween(firstMoon, lastMoon) == 12
	month := int(synodicMonthsBetween(firstMoon, thisMoon))
	if leapYear && c.isLeapMonthBetween(firstMoon, thisMoon) {
		month--
	}
	if month < 1 {
		month += 12
	}
	leap := leapYear && c.hasNoMajorSolarTerm(thisMoon) &&
		!c.isLeapMonthBetween(firstMoon, c.newMoonNear(thisMoon-synodicGap, false))
	cycleYear := gy + 2636 // years since the cycle's epoch, 2637 BCE
	if month < 11 || gm >= 7 {
		cycleYear++
	}
	cycle := floorDiv(int64(cycleYear-1), 60)
	return lunisolarDate{
		cycle: int(cycle) + 1, year: cycleYear - 1 - int(cycle)*60 + 1, related: cycleYear - 2637,
		month: month, leap: leap, day: int(days-thisMoon) + 1,
	}
}

// The astronomical islamic calendar (and islamic-rgsa, which ICU
// computes the same way) as ICU computes it: a month starts on the day
// after the last UTC midnight at which the moon's age (above) is still
// negative, searched day by day from the month's mean start; years are 12
// such months from the Hijra (16 July 622).
const (
	hijraMS          = -42521587200000.0 // 622-07-16T00:00Z
	islamicAstroJD   = 1948440           // the Julian day the day count starts from
	islamicCacheSize = 1 << 14
)

var islamicStarts struct {
	mu sync.Mutex
	m  map[int64]int64
}

// moonAgeDeg is the moon's age in degrees, in (-180, 180].
func moonAgeDeg(ms float64) float64 {
	a := moonAge(ms) * 180 / math.Pi
	if a > 180 {
		a -= 360
	}
	return a
}

// islamicMonthStart is the day (from the epoch) on which month number
// months (from the Hijra) starts.
func islamicMonthStart(months int64) int64 {
	islamicStarts.mu.Lock()
	if v, ok := islamicStarts.m[months]; ok {
		islamicStarts.mu.Unlock()
		return v
	}
	islamicStarts.mu.Unlock()
	origin := hijraMS + math.Floor(float64(months)*synodicMonth)*astroDayMS
	if moonAgeDeg(origin) >= 0 {
		for {
			origin -= astroDayMS
			if moonAgeDeg(origin) < 0 {
				break
			}
		}
	} else {
		for {
			origin += astroDayMS
			if moonAgeDeg(origin) >= 0 {
				break
			}
		}
	}
	v := int64(math.Floor((origin-hijraMS)/astroDayMS)) + 1
	islamicStarts.mu.Lock()
	if islamicStarts.m == nil || len(islamicStarts.m) > islamicCacheSize {
		islamicStarts.m = map[int64]int64{}
	}
	islamicStarts.m[months] = v
	islamicStarts.mu.Unlock()
	return v
}

// islamicAstroDate is the astronomical islamic date of the local date
// (y, m, d) formatted at the instant ms: ICU guesses the month from the
// mean month and the moon's age at that instant, then steps back to the
// month whose start is on or before the day.
func islamicAstroDate(y, m, d int, ms float64) calDate {
	days := julianDay(y, m, d) - islamicAstroJD
	months := int64(math.Floor(float64(days) / synodicMonth))
	start := int64(math.Floor(float64(months) * synodicMonth))
	if days-start >= 25 && moonAgeDeg(ms) > 0 {
		months++
	}
	for {
		start = islamicMonthStart(months)
		if start <= days {
			break
		}
		months--
	}
	var year int64
	if months >= 0 {
		year = months/12 + 1
	} else {
		year = (months + 1) / 12
	}
	month := int(((months % 12) + 12) % 12)
	day := days - islamicMonthStart(12*(year-1)+int64(month)) + 1
	return calDate{era: "0", year: int(year), monthKey: itoa(month + 1), month: month + 1, day: int(day)}
}
