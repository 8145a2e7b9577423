package intl

import (
	"testing"
	"time"
)

// Every calendar's dates move one day at a time: from one Gregorian day to
// the next, the day of the month goes up by one, or it is the first of the
// next month (or of the first month of the next year, or a Japanese era
// begins), and months never repeat within a year, from 1800 to 2200. (The differential test
// compares the dates with Node 22; this checks that the arithmetic has no
// gaps or overlaps between the dates it samples.)
func TestCalendarDaysAreContiguous(t *testing.T) {
	if err := loadForTest(); err != nil {
		t.Fatal(err)
	}
	for cal := range calendarKinds {
		start := time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)
		end := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
		prev := toCalendar(cal, start.Year(), int(start.Month()), start.Day())
		months := map[int]bool{}
		for d := start.AddDate(0, 0, 1); d.Before(end); d = d.AddDate(0, 0, 1) {
			c := toCalendar(cal, d.Year(), int(d.Month()), d.Day())
			sameYear := c.era == prev.era && c.year == prev.year
			switch {
			case sameYear && c.monthKey == prev.monthKey && c.day == prev.day+1:
			case sameYear && c.day == 1 && c.leap && !prev.leap && c.month == prev.month:
				// a lunisolar leap month repeats the month before's number
			case sameYear && c.day == 1 && c.month == prev.month+1:
				if months[c.month] {
					t.Fatalf("%s %s: month %d again in year %d", cal, d.Format("2006-01-02"), c.month, c.year)
				}
			case c.day == 1 && c.month == 1 && (c.year == prev.year+1 || c.era != prev.era || cal == "roc" && c.era == "0" && c.year == prev.year-1):
				months = map[int]bool{}
			case cal == "japanese" && c.era != prev.era && c.year == 1 && (c.day == prev.day+1 || c.day == 1):
				months = map[int]bool{} // a new era starts mid-year
			default:
				t.Fatalf("%s %s: %+v after %+v", cal, d.Format("2006-01-02"), c, prev)
			}
			months[c.month] = true
			if c.day < 1 || c.day > 31 {
				t.Fatalf("%s %s: day %d", cal, d.Format("2006-01-02"), c.day)
			}
			prev = c
		}
	}
}

// Dates checked against published tables (and Node 22).
func TestCalendarKnownDates(t *testing.T) {
	if err := loadForTest(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cal     string
		y, m, d int
		want    calDate
	}{
		{"buddhist", 2024, 1, 15, calDate{"0", 2567, "1", 1, 15, false, 0}},
		{"roc", 2024, 1, 15, calDate{"1", 113, "1", 1, 15, false, 0}},
		{"roc", 1900, 1, 1, calDate{"0", 12, "1", 1, 1, false, 0}},
		{"japanese", 2019, 5, 1, calDate{"236", 1, "5", 5, 1, false, 0}},
		{"japanese", 2019, 4, 30, calDate{"235", 31, "4", 4, 30, false, 0}},
		{"japanese", 1989, 1, 7, calDate{"234", 64, "1", 1, 7, false, 0}},
		{"persian", 2024, 3, 20, calDate{"0", 1403, "1", 1, 1, false, 0}},
		{"persian", 2024, 1, 15, calDate{"0", 1402, "10", 10, 25, false, 0}},
		{"indian", 2024, 3, 21, calDate{"0", 1946, "1", 1, 1, false, 0}},
		{"indian", 2023, 3, 22, calDate{"0", 1945, "1", 1, 1, false, 0}},
		{"coptic", 2023, 9, 12, calDate{"1", 1740, "1", 1, 1, false, 0}},
		{"ethiopic", 2023, 9, 12, calDate{"1", 2016, "1", 1, 1, false, 0}},
		{"ethioaa", 2023, 9, 12, calDate{"0", 7516, "1", 1, 1, false, 0}},
		{"islamic-civil", 2024, 1, 15, calDate{"0", 1445, "7", 7, 4, false, 0}},
		{"islamic-tbla", 2024, 1, 15, calDate{"0", 1445, "7", 7, 5, false, 0}},
		{"hebrew", 2023, 9, 16, calDate{"0", 5784, "1", 1, 1, false, 0}},
		{"hebrew", 2024, 3, 24, calDate{"0", 5784, "7-yeartype-leap", 7, 14, false, 0}}, // 14 Adar II 5784 (Purim)
		{"hebrew", 2023, 3, 7, calDate{"0", 5783, "7", 6, 14, false, 0}},                // 14 Adar 5783, a common year
		// Chinese New Year 2024 (jia-chen, year 41 of cycle 78), the leap
		// second month of 2023, and Korea's 1958 new year a day after
		// China's (Korea then kept UTC+8:30)
		{"chinese", 2024, 2, 10, calDate{"78", 41, "1", 1, 1, false, 2024}},
		{"chinese", 2023, 3, 22, calDate{"78", 40, "2", 2, 1, true, 2023}},
		{"chinese", 2023, 3, 21, calDate{"78", 40, "2", 2, 30, false, 2023}},
		{"chinese", 1958, 2, 18, calDate{"77", 35, "1", 1, 1, false, 1958}},
		{"dangi", 1958, 2, 18, calDate{"77", 34, "12", 12, 30, false, 1957}},
		{"dangi", 1958, 2, 19, calDate{"77", 35, "1", 1, 1, false, 1958}},
		{"islamic", 2024, 3, 11, calDate{"0", 1445, "9", 9, 1, false, 0}},
		{"islamic-rgsa", 2024, 3, 11, calDate{"0", 1445, "9", 9, 1, false, 0}},
	} {
		if got := toCalendar(c.cal, c.y, c.m, c.d); got != c.want {
			t.Errorf("%s %04d-%02d-%02d: got %+v, want %+v", c.cal, c.y, c.m, c.d, got, c.want)
		}
	}
}

func loadForTest() error {
	dataOnce.Do(loadRaw)
	return dataErr
}

// The cost of a date in the astronomical calendars, walking day by day
// (the solstices and new moons of a year are computed once and cached).
func BenchmarkLunisolarDate(b *testing.B) {
	for _, cal := range []string{"chinese", "islamic"} {
		b.Run(cal, func(b *testing.B) {
			d := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := 0; i < b.N; i++ {
				toCalendar(cal, d.Year(), int(d.Month()), d.Day())
				if d = d.AddDate(0, 0, 1); d.Year() > 2100 {
					d = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
				}
			}
		})
	}
}

// The cost of one Chinese date with nothing cached (a year's solstices,
// new moons and solar terms found anew).
func BenchmarkLunisolarDateCold(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := &lunisolar{offset: chineseCal.offset}
		c.date(2024, 2, 10)
	}
}
