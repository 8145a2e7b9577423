// Package intl is the host side of the guest's Intl: NumberFormat,
// DateTimeFormat, Collator, PluralRules, ListFormat, RelativeTimeFormat,
// Segmenter and DisplayNames,
// reached from the guest by a synchronous host call (evSync).
//
// Every answer is a pure function of the request and of data embedded in
// the binary: CLDR locale data taken from FormatJS's locale-data packages
// (cldr.json.gz, made by gen/gen.sh from pinned versions), golang.org/x/text
// for collation and plural rules, and Go's embedded time zone database. So
// a replayed run gets the same answers and nothing needs journaling.
package intl

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the CLDR data
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	_ "time/tzdata" // time zones are a function of the binary, not the machine
)

//go:embed cldr.json.gz
var cldrGz []byte

// MaxRequest caps a request's size in bytes.
const MaxRequest = 1 << 20

var (
	dataOnce sync.Once
	rawLocs  map[string]json.RawMessage
	rawNames map[string]map[string]json.RawMessage // by table, then locale: Intl.DisplayNames data
	// time zone data for the generic names (zone.go)
	rawZones     json.RawMessage
	rawZoneNames map[string]json.RawMessage
	// non-Gregorian calendars (calendar.go): by locale, then calendar
	rawCalendars    map[string]map[string]json.RawMessage
	rawJapaneseEras []string
	dataErr         error

	locMu   sync.Mutex
	locData = map[string]*localeData{}
)

type localeData struct {
	Number    numberData      `json:"number"`
	Date      dateData        `json:"date"`
	Gregorian gregorianData   `json:"gregorian"`
	List      json.RawMessage `json:"list"`
	Relative  json.RawMessage `json:"relative"`
}

func loadRaw() {
	zr, err := gzip.NewReader(bytes.NewReader(cldrGz))
	if err != nil {
		dataErr = err
		return
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		dataErr = err
		return
	}
	var doc struct {
		Locales   map[string]json.RawMessage            `json:"locales"`
		Names     map[string]map[string]json.RawMessage `json:"names"`
		Zones     json.RawMessage                       `json:"zones"`
		ZoneNames map[string]json.RawMessage            `json:"zoneNames"`
		Calendars map[string]map[string]json.RawMessage `json:"calendars"`
		JapEras   []string                              `json:"japaneseEras"`
		Plurals   map[string]struct {
			Cardinal map[string]string `json:"cardinal"`
			Ordinal  map[string]string `json:"ordinal"`
		} `json:"plurals"`
	}
	dataErr = json.Unmarshal(b, &doc)
	rawLocs = doc.Locales
	rawNames = doc.Names
	rawZones, rawZoneNames = doc.Zones, doc.ZoneNames
	rawCalendars, rawJapaneseEras = doc.Calendars, doc.JapEras
	plurals = map[string][2]map[string]string{}
	for k, v := range doc.Plurals {
		plurals[k] = [2]map[string]string{v.Cardinal, v.Ordinal}
	}
}

// dataFor returns the decoded data of a shipped locale (a key of the data).
func dataFor(loc string) (*localeData, error) {
	dataOnce.Do(loadRaw)
	if dataErr != nil {
		return nil, dataErr
	}
	locMu.Lock()
	defer locMu.Unlock()
	if d := locData[loc]; d != nil {
		return d, nil
	}
	raw, ok := rawLocs[loc]
	if !ok {
		return nil, fmt.Errorf("intl: no data for %s", loc)
	}
	d := new(localeData)
	if err := json.Unmarshal(raw, d); err != nil {
		return nil, err
	}
	fixLocaleData(loc, d)
	locData[loc] = d
	return d, nil
}

// fixLocaleData fills in what FormatJS's and the CLDR JSON's data of a
// locale lack or have otherwise than ICU 78 (Node 22).
func fixLocaleData(loc string, d *localeData) {
	if d.Date.HourCycle == "" {
		// FormatJS gives zh-Hant no hour cycle: ICU takes the preferred
		// one of the locale's region (TW: h), which its short time
		// pattern ("Bh:mm") shows
		d.Date.HourCycle = "h23"
		for _, c := range d.Gregorian.TimeFormats["short"] {
			switch c {
			case 'h':
				d.Date.HourCycle = "h12"
			case 'K':
				d.Date.HourCycle = "h11"
			case 'k':
				d.Date.HourCycle = "h24"
			}
		}
	}
	if loc == "zh-Hant" {
		// CLDR 48's JSON glues zh-Hant's date and time as "{1}{0}"; ICU
		// 78's data, and so Node 22 (and FormatJS's data), has "{1} {0}",
		// and a thin space for the short style ("2024/11/28\u2009下午3:00:00")
		g := &d.Gregorian.DateTimeFormats
		g.Full, g.Long, g.Medium, g.Short = "{1} {0}", "{1} {0}", "{1} {0}", "{1}\u2009{0}"
		d.Gregorian.AtTime = map[string]string{"full": g.Full, "long": g.Long, "medium": g.Medium, "short": g.Short}
	}
}

// jsError is an exception the guest throws: Name is the constructor.
type jsError struct {
	Name, Message string
}

func (e *jsError) Error() string { return e.Name + ": " + e.Message }

func rangeErr(format string, a ...any) error {
	return &jsError{"RangeError", fmt.Sprintf(format, a...)}
}

func typeErr(format string, a ...any) error {
	return &jsError{"TypeError", fmt.Sprintf(format, a...)}
}

// Handle answers one request from the guest. The request is JSON
// [op, args...]. The reply's first byte says what follows: 's' the string
// result itself, 'n' an integer result in decimal, 'j' the result as JSON,
// 'e' JSON {"e": constructor name, "m": message} of an error to throw.
func Handle(req []byte) []byte {
	if len(req) > MaxRequest {
		return errReply(rangeErr("Intl: request too large"))
	}
	var msg []json.RawMessage
	if err := json.Unmarshal(req, &msg); err != nil || len(msg) == 0 {
		return errReply(typeErr("Intl: malformed request"))
	}
	var op string
	if err := json.Unmarshal(msg[0], &op); err != nil {
		return errReply(typeErr("Intl: malformed request"))
	}
	v, err := dispatch(op, msg[1:])
	if err != nil {
		return errReply(err)
	}
	switch x := v.(type) {
	case string:
		return append([]byte{'s'}, x...)
	case int:
		return strconv.AppendInt([]byte{'n'}, int64(x), 10)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return errReply(typeErr("Intl: %v", err))
	}
	return append([]byte{'j'}, b...)
}

func errReply(err error) []byte {
	je, ok := err.(*jsError)
	if !ok {
		je = &jsError{"Error", err.Error()}
	}
	b, _ := json.Marshal(struct {
		E string `json:"e"`
		M string `json:"m"`
	}{je.Name, je.Message})
	return append([]byte{'e'}, b...)
}

func arg(args []json.RawMessage, i int, v any) error {
	if i >= len(args) {
		return nil
	}
	if err := json.Unmarshal(args[i], v); err != nil {
		return typeErr("Intl: malformed argument %d", i)
	}
	return nil
}

func dispatch(op string, args []json.RawMessage) (any, error) {
	switch op {
	case "canonical":
		var locs []string
		if err := arg(args, 0, &locs); err != nil {
			return nil, err
		}
		return canonicalizeList(locs)
	case "supported":
		var locs []string
		if err := arg(args, 0, &locs); err != nil {
			return nil, err
		}
		return supportedLocales(locs)
	case "locale":
		var tag string
		var opts map[string]any
		if err := arg(args, 0, &tag); err != nil {
			return nil, err
		}
		if err := arg(args, 1, &opts); err != nil {
			return nil, err
		}
		return localeInfo(tag, opts)
	case "nf":
		return cached("NumberFormat", args, newNumberFormat, func(f *numberFormat, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "dtf":
		return cached("DateTimeFormat", args, newDateTimeFormat, func(f *dateTimeFormat, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "coll":
		return cached("Collator", args, newCollator, func(f *collator, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "pr":
		return cached("PluralRules", args, newPluralRules, func(f *pluralRules, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "lf":
		return cached("ListFormat", args, newListFormat, func(f *listFormat, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "seg":
		return cached("Segmenter", args, newSegmenter, func(f *segmenter, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "dn":
		return cached("DisplayNames", args, newDisplayNames, func(f *displayNames, rest []json.RawMessage) (any, error) { return f.call(rest) })
	case "rtf":
		return cached("RelativeTimeFormat", args, newRelativeTimeFormat, func(f *relativeTimeFormat, rest []json.RawMessage) (any, error) { return f.call(rest) })
	}
	return nil, typeErr("Intl: unknown operation %q", op)
}

// options are a constructor's options as the guest read them: the guest
// reads each property once, as the spec orders, and sends the values.
type options struct {
	m    map[string]any
	ctor string // for error messages: "NumberFormat", ...
}

func (o options) str(name string, allowed []string, def string) (string, error) {
	v, ok := o.m[name]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		s = fmt.Sprint(v)
		if b, isBool := v.(bool); isBool {
			s = fmt.Sprint(b)
		}
	}
	if allowed != nil {
		for _, a := range allowed {
			if a == s {
				return s, nil
			}
		}
		return "", rangeErr("Value %s out of range for Intl.%s options property %s", s, o.ctor, name)
	}
	return s, nil
}

func (o options) has(name string) bool {
	v, ok := o.m[name]
	return ok && v != nil
}

func (o options) num(name string, lo, hi int, def int) (int, bool, error) {
	v, ok := o.m[name]
	if !ok || v == nil {
		return def, false, nil
	}
	f, isNum := v.(float64)
	if !isNum {
		return 0, false, rangeErr("%s value is out of range.", name)
	}
	if f != f || f < float64(lo) || f > float64(hi) {
		return 0, false, rangeErr("%s value is out of range.", name)
	}
	return int(f), true, nil
}

func (o options) boolean(name string) (bool, bool) {
	v, ok := o.m[name]
	if !ok || v == nil {
		return false, false
	}
	b, isBool := v.(bool)
	return b, isBool
}

// cached builds (or reuses) the formatter that args[0] (locales) and
// args[1] (options) describe and calls it with the rest. The cache key is
// the request text itself, so the answer never depends on the cache.
func cached[F any](ctor string, args []json.RawMessage, mk func(locales []string, opts options) (F, error), call func(F, []json.RawMessage) (any, error)) (any, error) {
	if len(args) < 2 {
		return nil, typeErr("Intl: malformed request")
	}
	key := ctor + "\x00" + string(args[0]) + "\x00" + string(args[1])
	var f F
	if c, ok := cacheGet(key); ok {
		f = c.(F)
	} else {
		var locales []string
		if err := arg(args, 0, &locales); err != nil {
			return nil, err
		}
		opts := options{ctor: ctor}
		if err := arg(args, 1, &opts.m); err != nil {
			return nil, err
		}
		var err error
		f, err = mk(locales, opts)
		if err != nil {
			return nil, err
		}
		cachePut(key, f)
	}
	if methodName(args[2:]) == "new" {
		return 0, nil
	}
	return call(f, args[2:])
}

// cacheMax bounds the formatters kept; cacheKeyMax the length of a key
// (its constructor, locales and options) whose formatter is kept. A
// longer request, such as one of thousands of private-use locale tags,
// is made each time: 600 of 800 KB each held 800 MB after their run.
const (
	cacheMax    = 512
	cacheKeyMax = 1 << 10
)

var (
	cacheMu sync.Mutex
	cache   = map[string]any{}
)

func cacheGet(k string) (any, bool) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	v, ok := cache[k]
	return v, ok
}

func cachePut(k string, v any) {
	if len(k) > cacheKeyMax {
		return
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if len(cache) >= cacheMax {
		for old := range cache {
			delete(cache, old)
			break
		}
	}
	cache[k] = v
}

func methodName(rest []json.RawMessage) string {
	var m string
	if len(rest) > 0 {
		_ = json.Unmarshal(rest[0], &m)
	}
	return m
}

func ordered(kv ...any) orderedObject { return orderedObject(kv) }

// orderedObject marshals as a JSON object whose keys keep their order
// (resolvedOptions lists its properties in the spec's order).
type orderedObject []any

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for i := 0; i+1 < len(o); i += 2 {
		if o[i+1] == nil {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(o[i])
		v, err := json.Marshal(o[i+1])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}
