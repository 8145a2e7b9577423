package intl

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/language"
)

// Generic time zone names (the 'v' and 'vvvv' fields: timeZoneName
// "shortGeneric" and "longGeneric"), built as ICU's TimeZoneGenericNames
// builds them from CLDR: the zone's own name, else its metazone's name at
// that date (the standard name when the zone keeps no daylight time within
// 184 days of it), with the region or city in parentheses when the zone's
// offset differs from the metazone's reference zone for the locale's
// region; else the location format ("Germany Time", "Sydney Time"); else
// the localized GMT offset.

// zoneDB is the locale-independent zone data gen.sh takes from CLDR.
type zoneDB struct {
	Meta    map[string][][]any           `json:"meta"`    // zone -> [metazone, from ms|null, to ms|null]...
	Golden  map[string]map[string]string `json:"golden"`  // metazone -> region -> reference zone
	Alias   map[string]string            `json:"alias"`   // IANA alias -> CLDR canonical id
	Country map[string]string            `json:"country"` // canonical id -> region
	Primary map[string]int               `json:"primary"` // canonical ids that stand for their region
}

// zoneNameData is one locale's zone names: [long generic, long standard,
// long daylight, short generic, short standard, short daylight] for
// metazones and zones, exemplar cities,
// and the region ("{0} Time") and fallback ("{1} ({0})") formats.
type zoneNameData struct {
	Region   string              `json:"region"`
	Fallback string              `json:"fallback"`
	Metazone map[string][]string `json:"metazone"`
	Zone     map[string][]string `json:"zone"`
	City     map[string]string   `json:"city"`
}

var (
	zoneOnce sync.Once
	zones    zoneDB
	zoneErr  error

	zoneNamesMu sync.Mutex
	zoneNamesBy = map[string]*zoneNameData{}
)

func loadZones() *zoneDB {
	zoneOnce.Do(func() {
		dataOnce.Do(loadRaw)
		if dataErr != nil {
			zoneErr = dataErr
			return
		}
		zoneErr = json.Unmarshal(rawZones, &zones)
	})
	if zoneErr != nil {
		return &zoneDB{}
	}
	return &zones
}

func zoneNamesFor(loc string) *zoneNameData {
	dataOnce.Do(loadRaw)
	zoneNamesMu.Lock()
	defer zoneNamesMu.Unlock()
	if d := zoneNamesBy[loc]; d != nil {
		return d
	}
	d := new(zoneNameData)
	if raw, ok := rawZoneNames[loc]; ok {
		_ = json.Unmarshal(raw, d)
	}
	zoneNamesBy[loc] = d
	return d
}

// canonicalZone is the CLDR canonical id of an IANA name.
func (db *zoneDB) canonical(id string) string {
	if c, ok := db.Alias[id]; ok {
		return c
	}
	return id
}

// metazone is the metazone a canonical zone uses at ms, or "". A mapping
// with no start starts on 1970-01-01, as in ICU's data (Node): an earlier
// date has no metazone, so its names fall back to the location and GMT
// formats.
func (db *zoneDB) metazone(id string, ms int64) string {
	for _, e := range db.Meta[id] {
		if len(e) != 3 {
			continue
		}
		mz, _ := e[0].(string)
		from, ok := e[1].(float64)
		if !ok {
			from = 0
		}
		if float64(ms) < from {
			continue
		}
		if to, ok := e[2].(float64); ok && float64(ms) >= to {
			continue
		}
		return mz
	}
	return ""
}

const dstCheckRange = 184 * 24 * time.Hour

// isDaylight says whether t is in daylight time as ICU's (rearguard) data
// has it: Go's tz data marks Europe/Dublin's winter GMT as the daylight
// period with a negative saving; ICU calls summer (IST) daylight there.
func isDaylight(t time.Time) bool {
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	var other time.Time
	switch {
	case !start.IsZero():
		other = start.Add(-time.Second)
	case !end.IsZero():
		other = end
	default:
		return t.IsDST()
	}
	other = other.In(t.Location())
	_, ooff := other.Zone()
	if t.IsDST() && !other.IsDST() && off < ooff {
		return false // a negative saving: the standard time
	}
	if !t.IsDST() && other.IsDST() && ooff < off {
		return true // the other side of a negative saving
	}
	return t.IsDST()
}

// usesDaylightNear says whether the zone was in daylight time just before
// its previous transition or will be just after its next one, within 184
// days of t (ICU's test for showing the standard name as the generic one).
func usesDaylightNear(t time.Time) bool {
	start, end := t.ZoneBounds()
	if !start.IsZero() && t.Sub(start) < dstCheckRange && isDaylight(start.Add(-time.Second).In(t.Location())) {
		return true
	}
	if !end.IsZero() && end.Sub(t) < dstCheckRange && isDaylight(end.In(t.Location())) {
		return true
	}
	return false
}

// targetRegion is the locale's region, or its likely region.
func (f *dateTimeFormat) targetRegion() string {
	tag := f.locale
	if i := strings.Index(tag, "-u-"); i >= 0 {
		tag = tag[:i]
	}
	if r, _ := language.Make(tag).Region(); r.String() != "ZZ" {
		return r.String()
	}
	return "001"
}

// genericName is the 'v' (short) or 'vvvv' (long) name of the zone at ms,
// or "" when there is none (the caller then writes the GMT offset).
func (f *dateTimeFormat) genericName(long bool, ms int64) string {
	if f.fixedOffset != nil || f.tzName == "UTC" {
		return ""
	}
	db := loadZones()
	zn := zoneNamesFor(f.dataLocale)
	id := db.canonical(f.tzName)
	gi, si := 0, 1
	if !long {
		gi, si = 3, 4
	}
	if n := zn.Zone[id]; len(n) == 6 && n[gi] != "" {
		return n[gi]
	}
	t := time.UnixMilli(ms).In(f.loc)
	if mz := db.metazone(id, ms); mz != "" {
		mzNames := zn.Metazone[mz]
		mzGeneric := ""
		if len(mzNames) == 6 {
			mzGeneric = mzNames[gi]
		}
		if !isDaylight(t) && !usesDaylightNear(t) {
			std := ""
			if n := zn.Zone[id]; len(n) == 6 {
				std = n[si]
			}
			if std == "" && len(mzNames) == 6 {
				std = mzNames[si]
			}
			if std != "" && !strings.EqualFold(std, mzGeneric) {
				return std
			}
		}
		if mzGeneric != "" {
			golden := db.Golden[mz][f.targetRegion()]
			if golden == "" {
				golden = db.Golden[mz]["001"]
			}
			if golden != "" && golden != id {
				if gl, err := time.LoadLocation(golden); err == nil {
					gt := t.In(gl)
					_, off := t.Zone()
					_, goff := gt.Zone()
					if off != goff || isDaylight(t) != isDaylight(gt) {
						return f.partialLocation(db, zn, id, mz, mzGeneric)
					}
				}
			}
			return mzGeneric
		}
	}
	return f.locationName(db, zn, id)
}

// partialLocation is "{metazone name} ({region or city})".
func (f *dateTimeFormat) partialLocation(db *zoneDB, zn *zoneNameData, id, mz, mzName string) string {
	loc := ""
	if cc := db.Country[id]; cc != "" {
		if db.Golden[mz][cc] == id {
			loc = f.regionName(cc)
		} else {
			loc = exemplarCity(zn, id)
		}
	} else {
		loc = exemplarCity(zn, id)
		if loc == "" {
			loc = id
		}
	}
	p := zn.Fallback
	if p == "" {
		p = "{1} ({0})"
	}
	return strings.NewReplacer("{0}", loc, "{1}", mzName).Replace(p)
}

// locationName is the generic location format: the region's name for the
// region's primary zone, else the exemplar city, in the region format.
func (f *dateTimeFormat) locationName(db *zoneDB, zn *zoneNameData, id string) string {
	cc := db.Country[id]
	if cc == "" {
		return ""
	}
	var loc string
	if db.Primary[id] == 1 {
		loc = f.regionName(cc)
	} else {
		loc = exemplarCity(zn, id)
	}
	if loc == "" {
		return ""
	}
	p := zn.Region
	if p == "" {
		p = "{0}"
	}
	return strings.Replace(p, "{0}", loc, 1)
}

func exemplarCity(zn *zoneNameData, id string) string {
	if c := zn.City[id]; c != "" {
		return c
	}
	if strings.HasPrefix(id, "Etc/") || strings.HasPrefix(id, "SystemV/") {
		return ""
	}
	i := strings.LastIndexByte(id, '/')
	if i <= 0 || i+1 >= len(id) {
		return ""
	}
	return strings.ReplaceAll(id[i+1:], "_", " ")
}

// regionName is the locale's name of a region (Intl.DisplayNames' data).
func (f *dateTimeFormat) regionName(cc string) string {
	if d, err := namesFor(f.dataLocale); err == nil {
		if n := d.Region.Long[cc]; n != "" {
			return n
		}
	}
	return cc
}

// specificName is the 'z' (short) or 'zzzz' (long) name of the zone at ms:
// the zone's own standard or daylight name, else its metazone's at that
// date, or "" (the caller then writes the GMT offset).
func (f *dateTimeFormat) specificName(long bool, ms int64) string {
	if f.fixedOffset != nil {
		return ""
	}
	db := loadZones()
	zn := zoneNamesFor(f.dataLocale)
	id := db.canonical(f.tzName)
	if f.tzName == "UTC" {
		id = "Etc/UTC"
	}
	t := time.UnixMilli(ms).In(f.loc)
	i := 1
	if isDaylight(t) {
		i = 2
	}
	if !long {
		i += 3
	}
	if n := zn.Zone[id]; len(n) == 6 && n[i] != "" {
		return n[i]
	}
	if mz := db.metazone(id, ms); mz != "" {
		if n := zn.Metazone[mz]; len(n) == 6 {
			return n[i]
		}
	}
	return ""
}
