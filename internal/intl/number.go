package intl

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
)

type symbols struct {
	Decimal     string `json:"decimal"`
	Group       string `json:"group"`
	MinusSign   string `json:"minusSign"`
	PlusSign    string `json:"plusSign"`
	PercentSign string `json:"percentSign"`
	PerMille    string `json:"perMille"`
	Exponential string `json:"exponential"`
	Infinity    string `json:"infinity"`
	NaN         string `json:"nan"`
	Approx      string `json:"approximatelySign"`
}

type compactPatterns map[string]map[string]string // 10^n -> plural -> pattern

type decimalPatterns struct {
	Standard string          `json:"standard"`
	Short    compactPatterns `json:"short"`
	Long     compactPatterns `json:"long"`
}

type currencyPatterns struct {
	Standard        string `json:"standard"`
	Accounting      string `json:"accounting"`
	AlphaStandard   string `json:"alphaStandard"`   // when letters touch the number
	AlphaAccounting string `json:"alphaAccounting"` // likewise
	NoCurrency      string `json:"noCurrency"`      // for currency names
	Spacing         struct {
		After  string `json:"afterInsertBetween"`
		Before string `json:"beforeInsertBetween"`
	} `json:"currencySpacing"`
	Short       compactPatterns `json:"short"`
	UnitPattern string          `json:"unitPattern"`
}

type currencyNames struct {
	DisplayName map[string]string `json:"displayName"`
	Narrow      string            `json:"narrow"`
	Symbol      string            `json:"symbol"`
}

type unitNames struct {
	Long    map[string]string `json:"long"`
	Short   map[string]string `json:"short"`
	Narrow  map[string]string `json:"narrow"`
	PerUnit map[string]string `json:"perUnit"`
}

type numberData struct {
	Nu                    string                      `json:"nu"`
	Symbols               map[string]symbols          `json:"symbols"`
	Decimal               map[string]decimalPatterns  `json:"decimal"`
	Percent               map[string]string           `json:"percent"`
	Currency              map[string]currencyPatterns `json:"currency"`
	MinimumGroupingDigits int                         `json:"minimumGroupingDigits"`
	Currencies            map[string]currencyNames    `json:"currencies"`
	Units                 struct {
		Simple   map[string]unitNames `json:"simple"`
		Compound map[string]struct {
			Long   string `json:"long"`
			Short  string `json:"short"`
			Narrow string `json:"narrow"`
		} `json:"compound"`
	} `json:"units"`
}

var numberingDigits = map[string]string{
	"latn": "0123456789", "arab": "٠١٢٣٤٥٦٧٨٩", "arabext": "۰۱۲۳۴۵۶۷۸۹", "deva": "०१२३४५६७८९",
	"beng": "০১২৩৪৫৬৭৮৯", "thai": "๐๑๒๓๔๕๖๗๘๙", "fullwide": "０１２３４５６７８９", "hanidec": "〇一二三四五六七八九",
}

// sanctioned units (ECMA-402 table 2)
var sanctionedUnits = map[string]bool{}

func init() {
	for _, u := range strings.Fields(`acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit
	gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile
	mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound second stone
	terabit terabyte week yard year`) {
		sanctionedUnits[u] = true
	}
}

type numberFormat struct {
	res                              resolved
	locale                           string
	nu                               string
	data                             *numberData
	style, currency, currencyDisplay string
	currencySign, unit, unitDisplay  string
	notation, compactDisplay         string
	signDisplay, roundingMode        string
	roundingPriority, roundingType   string
	trailingZeroDisplay              string
	useGrouping                      any // "auto", "always", "min2" or false
	minInt, minFrac, maxFrac         int
	minSig, maxSig                   int
	roundingIncrement                int
}

func newNumberFormat(locales []string, o options) (*numberFormat, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	ld, err := dataFor(res.data)
	if err != nil {
		return nil, err
	}
	f := &numberFormat{res: res, data: &ld.Number}
	used := map[string]string{}
	nu, err := o.str("numberingSystem", nil, "")
	if err != nil {
		return nil, err
	}
	if nu == "" {
		if v, ok := res.ext["nu"]; ok && numberingDigits[v] != "" {
			nu = v
			used["nu"] = v
		}
	} else if res.ext["nu"] == nu {
		used["nu"] = nu
	}
	if nu == "" || numberingDigits[nu] == "" {
		nu = f.data.Nu
	}
	f.nu = nu
	f.locale = withExt(res.locale, used)
	if f.style, err = o.str("style", []string{"decimal", "percent", "currency", "unit"}, "decimal"); err != nil {
		return nil, err
	}
	cur, err := o.str("currency", nil, "")
	if err != nil {
		return nil, err
	}
	if cur != "" {
		if len(cur) != 3 || strings.Trim(strings.ToUpper(cur), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return nil, rangeErr("Invalid currency code : %s", cur)
		}
	}
	if f.currencyDisplay, err = o.str("currencyDisplay", []string{"code", "symbol", "narrowSymbol", "name"}, "symbol"); err != nil {
		return nil, err
	}
	if f.currencySign, err = o.str("currencySign", []string{"standard", "accounting"}, "standard"); err != nil {
		return nil, err
	}
	unit, err := o.str("unit", nil, "")
	if err != nil {
		return nil, err
	}
	if unit != "" && !wellFormedUnit(unit) {
		return nil, rangeErr("Invalid unit argument for Intl.NumberFormat() '%s'", unit)
	}
	if f.unitDisplay, err = o.str("unitDisplay", []string{"short", "narrow", "long"}, "short"); err != nil {
		return nil, err
	}
	if f.style == "currency" {
		if cur == "" {
			return nil, typeErr("Currency code is required with currency style.")
		}
		f.currency = strings.ToUpper(cur)
	}
	if f.style == "unit" {
		if unit == "" {
			return nil, typeErr("Unit is required with unit style.")
		}
		f.unit = unit
	}
	if f.notation, err = o.str("notation", []string{"standard", "scientific", "engineering", "compact"}, "standard"); err != nil {
		return nil, err
	}
	mnfdDefault, mxfdDefault := 0, 3
	if f.style == "currency" && f.notation == "standard" {
		d := currencyDigits(f.currency)
		mnfdDefault, mxfdDefault = d, d
	} else if f.style == "percent" {
		mxfdDefault = 0
	}
	if err := f.digitOptions(o, mnfdDefault, mxfdDefault); err != nil {
		return nil, err
	}
	if f.compactDisplay, err = o.str("compactDisplay", []string{"short", "long"}, "short"); err != nil {
		return nil, err
	}
	defGrouping := "auto"
	if f.notation == "compact" {
		defGrouping = "min2"
	}
	f.useGrouping = defGrouping
	if v, ok := o.m["useGrouping"]; ok && v != nil {
		switch x := v.(type) {
		case bool:
			if x {
				f.useGrouping = "always"
			} else {
				f.useGrouping = false
			}
		case string:
			switch x {
			case "min2", "auto", "always":
				f.useGrouping = x
			case "true", "false":
			case "":
				f.useGrouping = false
			default:
				return nil, rangeErr("Value %s out of range for Intl.NumberFormat options property useGrouping", x)
			}
		default:
			// ToBoolean of the other values the guest sent
			if n, isNum := v.(float64); isNum && (n == 0 || n != n) {
				f.useGrouping = false
			} else {
				f.useGrouping = "always"
			}
		}
	}
	if f.signDisplay, err = o.str("signDisplay", []string{"auto", "never", "always", "exceptZero", "negative"}, "auto"); err != nil {
		return nil, err
	}
	return f, nil
}

func wellFormedUnit(u string) bool {
	if sanctionedUnits[u] {
		return true
	}
	a, b, ok := strings.Cut(u, "-per-")
	return ok && sanctionedUnits[a] && sanctionedUnits[b]
}

func currencyDigits(code string) int {
	u, err := currency.ParseISO(code)
	if err != nil {
		return 2
	}
	scale, _ := currency.Standard.Rounding(u)
	return scale
}

func (f *numberFormat) digitOptions(o options, mnfdDefault, mxfdDefault int) error {
	var err error
	if f.minInt, _, err = o.num("minimumIntegerDigits", 1, 21, 1); err != nil {
		return err
	}
	ri, _, err := o.num("roundingIncrement", 1, 5000, 1)
	if err != nil {
		return err
	}
	switch ri {
	case 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000:
	default:
		return rangeErr("roundingIncrement value is out of range.")
	}
	f.roundingIncrement = ri
	if f.roundingMode, err = o.str("roundingMode", []string{"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"}, "halfExpand"); err != nil {
		return err
	}
	if f.roundingPriority, err = o.str("roundingPriority", []string{"auto", "morePrecision", "lessPrecision"}, "auto"); err != nil {
		return err
	}
	if f.trailingZeroDisplay, err = o.str("trailingZeroDisplay", []string{"auto", "stripIfInteger"}, "auto"); err != nil {
		return err
	}
	if ri != 1 {
		mxfdDefault = mnfdDefault
	}
	hasSd := o.has("minimumSignificantDigits") || o.has("maximumSignificantDigits")
	hasFd := o.has("minimumFractionDigits") || o.has("maximumFractionDigits")
	needSd, needFd := true, true
	if f.roundingPriority == "auto" {
		needSd = hasSd
		if needSd || (!hasFd && f.notation == "compact") {
			needFd = false
		}
	}
	if needSd {
		if hasSd {
			mn, _, err := o.num("minimumSignificantDigits", 1, 21, 1)
			if err != nil {
				return err
			}
			mx, _, err := o.num("maximumSignificantDigits", mn, 21, 21)
			if err != nil {
				return err
			}
			f.minSig, f.maxSig = mn, mx
		} else {
			f.minSig, f.maxSig = 1, 21
		}
	}
	if needFd {
		if hasFd {
			mn, hasMn, err := o.num("minimumFractionDigits", 0, 100, 0)
			if err != nil {
				return err
			}
			mx, hasMx, err := o.num("maximumFractionDigits", 0, 100, 0)
			if err != nil {
				return err
			}
			switch {
			case !hasMn:
				mn = min(mnfdDefault, mx)
			case !hasMx:
				mx = max(mxfdDefault, mn)
			case mn > mx:
				return rangeErr("maximumFractionDigits value is out of range.")
			}
			f.minFrac, f.maxFrac = mn, mx
		} else {
			f.minFrac, f.maxFrac = mnfdDefault, mxfdDefault
		}
	}
	switch {
	case !needSd && !needFd:
		f.minFrac, f.maxFrac, f.minSig, f.maxSig = 0, 0, 1, 2
		f.roundingType = "morePrecision"
		f.roundingPriority = "morePrecision"
	case f.roundingPriority == "morePrecision" || f.roundingPriority == "lessPrecision":
		f.roundingType = f.roundingPriority
	case hasSd:
		f.roundingType = "significantDigits"
	default:
		f.roundingType = "fractionDigits"
	}
	if ri != 1 {
		if f.roundingType != "fractionDigits" {
			return typeErr("roundingIncrement is only allowed with fraction digits")
		}
		if f.maxFrac != f.minFrac {
			return rangeErr("maximumFractionDigits must be equal to minimumFractionDigits when roundingIncrement is used")
		}
	}
	return nil
}

func (f *numberFormat) resolvedOptions() orderedObject {
	ro := ordered("locale", f.locale, "numberingSystem", f.nu, "style", f.style)
	if f.style == "currency" {
		ro = append(ro, "currency", f.currency, "currencyDisplay", f.currencyDisplay, "currencySign", f.currencySign)
	}
	if f.style == "unit" {
		ro = append(ro, "unit", f.unit, "unitDisplay", f.unitDisplay)
	}
	ro = append(ro, "minimumIntegerDigits", f.minInt)
	if f.roundingType != "significantDigits" {
		ro = append(ro, "minimumFractionDigits", f.minFrac, "maximumFractionDigits", f.maxFrac)
	}
	if f.roundingType != "fractionDigits" {
		ro = append(ro, "minimumSignificantDigits", f.minSig, "maximumSignificantDigits", f.maxSig)
	}
	ro = append(ro, "useGrouping", f.useGrouping, "notation", f.notation)
	if f.notation == "compact" {
		ro = append(ro, "compactDisplay", f.compactDisplay)
	}
	ro = append(ro, "signDisplay", f.signDisplay, "roundingIncrement", f.roundingIncrement, "roundingMode", f.roundingMode,
		"roundingPriority", f.roundingPriority, "trailingZeroDisplay", f.trailingZeroDisplay)
	return ro
}

// part is one piece of a formatted value, as formatToParts gives it.
type part struct {
	Type   string `json:"type"`
	Value  string `json:"value"`
	Unit   string `json:"unit,omitempty"`   // RelativeTimeFormat's parts only
	Source string `json:"source,omitempty"` // formatRangeToParts only
}

// numArg is a number the guest sent: a JSON number, or {"s": text} for a
// BigInt, a decimal string or a special value ("NaN", "Infinity", "-0").
type numArg struct {
	neg   bool
	nan   bool
	inf   bool
	value decimal
}

func parseNumArg(raw json.RawMessage) (numArg, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return numArg{neg: f < 0, value: decimalFromFloat(f)}, nil
	}
	var s struct {
		S   string `json:"s"`
		Big bool   `json:"big"` // a BigInt: its digits, whatever their number
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return numArg{}, typeErr("Intl: malformed number")
	}
	switch s.S {
	case "NaN":
		return numArg{nan: true}, nil
	case "Infinity":
		return numArg{inf: true}, nil
	case "-Infinity":
		return numArg{inf: true, neg: true}, nil
	case "-0":
		return numArg{neg: true}, nil
	}
	d, neg, ok := decimalFromString(s.S)
	if !ok {
		return numArg{nan: true}, nil
	}
	if s.Big && d.point <= maxBigIntDigits {
		return numArg{neg: neg, value: d}, nil
	}
	// as V8: beyond the range of a double is infinity, below it zero (and
	// no text of a billion digits is ever made)
	if f, err := strconv.ParseFloat(strings.TrimSpace(s.S), 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if math.IsInf(f, 0) {
			return numArg{inf: true, neg: neg}, nil
		}
		if f == 0 {
			return numArg{neg: neg}, nil
		}
	}
	if d.point > 400 || d.point < -400 {
		return numArg{nan: true}, nil
	}
	return numArg{neg: neg, value: d}, nil
}

// maxBigIntDigits bounds the digits of a BigInt formatted exactly: the
// request that carries them is bounded by the run's value limit already,
// this keeps a formatted text within a few MiB.
const maxBigIntDigits = 1 << 20

func (f *numberFormat) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		return f.resolvedOptions(), nil
	case "format", "formatToParts":
		if len(rest) < 2 {
			return nil, typeErr("Intl: malformed request")
		}
		x, err := parseNumArg(rest[1])
		if err != nil {
			return nil, err
		}
		parts := f.formatParts(x)
		if methodName(rest) == "format" {
			return joinParts(parts), nil
		}
		return parts, nil
	}
	return nil, typeErr("Intl: unknown method")
}

func joinParts(parts []part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Value)
	}
	return b.String()
}

func (f *numberFormat) syms() symbols {
	if s, ok := f.data.Symbols[f.nu]; ok {
		return s
	}
	return f.data.Symbols["latn"]
}

func (f *numberFormat) nuKey(m map[string]decimalPatterns) decimalPatterns {
	if p, ok := m[f.nu]; ok {
		return p
	}
	return m["latn"]
}

// roundValue applies the digit options to v.
func (f *numberFormat) roundValue(v decimal, neg bool) decimal {
	fracRound := func() decimal {
		if f.roundingIncrement != 1 {
			return roundIncrement(v, f.maxFrac, f.roundingIncrement, f.roundingMode, neg)
		}
		return v.round(-f.maxFrac, f.roundingMode, neg)
	}
	sigRound := func() decimal { return v.round(v.magnitude()-f.maxSig+1, f.roundingMode, neg) }
	switch f.roundingType {
	case "fractionDigits":
		return fracRound()
	case "significantDigits":
		return sigRound()
	}
	sMag := v.magnitude() - f.maxSig + 1
	fMag := -f.maxFrac
	pickSig := sMag <= fMag
	if f.roundingType == "lessPrecision" {
		pickSig = sMag >= fMag
	}
	if pickSig {
		return sigRound()
	}
	return fracRound()
}

func roundIncrement(v decimal, maxFrac, inc int, mode string, neg bool) decimal {
	// round v/inc (in units of 10^-maxFrac) to an integer, then multiply
	q := divSmall(v.shift(maxFrac), inc).round(0, mode, neg)
	return mulSmall(q, inc).shift(-maxFrac)
}

// divSmall divides by a small integer, to 30 more digits, with a sticky
// last digit when inexact so that "exactly half" is never faked.
func divSmall(d decimal, n int) decimal {
	if d.isZero() {
		return d
	}
	digits := d.digits + strings.Repeat("0", 30)
	out := make([]byte, 0, len(digits)+1)
	rem := 0
	for i := 0; i < len(digits); i++ {
		rem = rem*10 + int(digits[i]-'0')
		out = append(out, byte('0'+rem/n))
		rem %= n
	}
	if rem != 0 {
		out = append(out, '1')
	}
	return trimDecimal(decimal{digits: string(out), point: d.point})
}

func mulSmall(d decimal, n int) decimal {
	if d.isZero() {
		return d
	}
	b := []byte(d.digits)
	carry := 0
	out := make([]byte, len(b))
	for i := len(b) - 1; i >= 0; i-- {
		x := int(b[i]-'0')*n + carry
		out[i] = byte('0' + x%10)
		carry = x / 10
	}
	prefix := ""
	for carry > 0 {
		prefix = string(rune('0'+carry%10)) + prefix
		carry /= 10
	}
	return trimDecimal(decimal{digits: prefix + string(out), point: d.point + len(prefix)})
}

// digitsText renders the rounded value with the minimum digits.
func (f *numberFormat) digitsText(v decimal) (string, string) {
	ip, fp := v.intDigits(), v.fracDigits()
	minFrac := f.minFrac
	if f.roundingType == "significantDigits" {
		minFrac = 0
	}
	if f.roundingType != "fractionDigits" {
		// pad to the minimum significant digits
		sig := len(strings.TrimLeft(ip, "0")) + len(fp)
		if strings.TrimLeft(ip, "0") == "" {
			sig = len(strings.TrimLeft(fp, "0"))
			if v.isZero() {
				sig = 1
			}
		}
		if sig < f.minSig {
			need := f.minSig - sig
			if f.roundingType == "significantDigits" || len(fp)+need > minFrac {
				minFrac = max(minFrac, len(fp)+need)
			}
		}
	}
	if f.trailingZeroDisplay == "stripIfInteger" && strings.Trim(fp, "0") == "" {
		fp, minFrac = "", 0
	}
	if len(fp) < minFrac {
		fp += strings.Repeat("0", minFrac-len(fp))
	}
	if len(ip) < f.minInt {
		ip = strings.Repeat("0", f.minInt-len(ip)) + ip
	}
	return ip, fp
}

type numPattern struct {
	prefix, suffix string
	primary        int // grouping sizes; 0 = none
	secondary      int
}

// parsePattern reads one side of a CLDR number pattern.
func parsePattern(p string) numPattern {
	var np numPattern
	start := strings.IndexAny(p, "#0@")
	if start < 0 {
		return numPattern{prefix: p}
	}
	// a ',' directly before the first digit char belongs to the number
	end := start
	for end < len(p) && strings.IndexByte("#0@,.", p[end]) >= 0 {
		end++
	}
	np.prefix, np.suffix = p[:start], p[end:]
	num := p[start:end]
	intPart, _, _ := strings.Cut(num, ".")
	if i := strings.LastIndexByte(intPart, ','); i >= 0 {
		np.primary = len(intPart) - i - 1
		if j := strings.LastIndexByte(intPart[:i], ','); j >= 0 {
			np.secondary = i - j - 1
		} else {
			np.secondary = np.primary
		}
	}
	return np
}

func splitPattern(p string) (pos, neg string, hasNeg bool) {
	pos, neg, hasNeg = strings.Cut(p, ";")
	return
}

// affixParts turns a pattern affix into parts.
func affixParts(a string, sym symbols, cur string, signPart *part) []part {
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
	inQuote := false
	for _, r := range a {
		if r == '\'' {
			inQuote = !inQuote
			continue
		}
		if inQuote {
			lit(string(r))
			continue
		}
		switch r {
		case '¤':
			out = append(out, part{Type: "currency", Value: cur})
		case '%':
			out = append(out, part{Type: "percentSign", Value: sym.PercentSign})
		case '‰':
			out = append(out, part{Type: "perMille", Value: sym.PerMille})
		case '-':
			if signPart != nil {
				out = append(out, *signPart)
			}
		case '+':
			out = append(out, part{Type: "plusSign", Value: sym.PlusSign})
		default:
			lit(string(r))
		}
	}
	return out
}

func (f *numberFormat) pluralOf(ip, fp string) string {
	return pluralCategory(f.res.data, false, ip, fp)
}

func (f *numberFormat) formatParts(x numArg) []part {
	sym := f.syms()
	digits := numberingDigits[f.nu]
	if digits == "" {
		digits = numberingDigits["latn"]
	}
	v := x.value
	if f.style == "percent" {
		v = v.shift(2)
	}
	// compact: find the pattern for the magnitude, scale, round
	var compact string
	compactOnly := false // a compact pattern without the number ("mille")
	exponent := 0
	if x.nan || x.inf {
		// no rounding
	} else if f.notation == "compact" {
		for try := 0; try < 2; try++ {
			mag := v.magnitude()
			if try == 1 {
				mag++
			}
			pat, exp := f.compactPattern(mag, "other")
			r := f.roundValue(v.shift(-exp), x.neg)
			if try == 0 && !v.isZero() && r.magnitude() > v.shift(-exp).magnitude() && mag+1 < 15 {
				if p2, e2 := f.compactPattern(mag+1, "other"); p2 != pat || e2 != exp {
					continue
				}
			}
			ip, fp := f.digitsText(r)
			cat := pluralCategoryE(f.res.data, false, ip, fp, exp)
			compact, _ = f.compactPattern(mag, cat)
			if ip == "1" && fp == "" {
				if p1, _ := f.compactPattern(mag, "=1"); p1 != "" {
					compact = p1
				}
			}
			if compact != "" && !strings.Contains(compact, "0") {
				compactOnly = true
			}
			exponent = exp
			v = r
			break
		}
	} else if f.notation == "scientific" || f.notation == "engineering" {
		mag := v.magnitude()
		if f.notation == "engineering" {
			mag = int(math.Floor(float64(mag)/3)) * 3
		}
		r := f.roundValue(v.shift(-mag), x.neg)
		if !r.isZero() && r.magnitude() >= 1 && (f.notation == "scientific" || r.magnitude() >= 3) {
			if f.notation == "scientific" {
				mag++
			} else {
				mag += 3
			}
			r = f.roundValue(v.shift(-mag), x.neg)
		}
		v = r
		exponent = mag
	} else {
		v = f.roundValue(v, x.neg)
	}
	zero := !x.nan && !x.inf && v.isZero()
	// the sign to show
	sign := 0 // -1 minus, 1 plus, 0 none
	switch f.signDisplay {
	case "auto":
		if x.neg {
			sign = -1
		}
	case "always":
		sign = 1
		if x.neg {
			sign = -1
		}
	case "exceptZero":
		if !zero && !x.nan {
			sign = 1
			if x.neg {
				sign = -1
			}
		}
	case "negative":
		if x.neg && !zero {
			sign = -1
		}
	}
	if x.nan && f.signDisplay != "always" {
		sign = 0
	}
	// the number's own parts
	var num []part
	var ip, fp string
	if x.nan {
		num = []part{{Type: "nan", Value: sym.NaN}}
	} else if x.inf {
		num = []part{{Type: "infinity", Value: sym.Infinity}}
	} else {
		ip, fp = f.digitsText(v)
		grouping := f.nuKey(f.data.Decimal).Standard
		if compact == "" {
			p, _ := f.pattern("")
			grouping, _, _ = strings.Cut(p, ";")
		}
		num = f.numberParts(ip, fp, sym, digits, grouping)
		if compactOnly {
			num = nil
		}
		if f.notation == "scientific" || f.notation == "engineering" {
			num = append(num, part{Type: "exponentSeparator", Value: sym.Exponential})
			e := exponent
			if e < 0 {
				num = append(num, part{Type: "exponentMinusSign", Value: sym.MinusSign})
				e = -e
			}
			num = append(num, part{Type: "exponentInteger", Value: mapDigits(strconv.Itoa(e), digits)})
		}
	}
	// the pattern around it
	pattern, cur := f.pattern(compact)
	pos, negPat, hasNeg := splitPattern(pattern)
	side := pos
	var signPart *part
	if sign != 0 {
		sp := part{Type: "minusSign", Value: sym.MinusSign}
		if sign > 0 {
			sp = part{Type: "plusSign", Value: sym.PlusSign}
		}
		signPart = &sp
		if hasNeg {
			side = negPat
			if sign > 0 && !strings.Contains(negPat, "-") {
				// accounting's negative pattern has no sign to replace
				side = "-" + pos
			}
		} else {
			side = "-" + pos
		}
	}
	// grouping sizes come from the standard pattern (numberParts)
	np := parsePattern(side)
	prefix := affixParts(np.prefix, sym, cur, signPart)
	suffix := affixParts(np.suffix, sym, cur, signPart)
	if compact != "" {
		prefix, suffix = compactParts(prefix), compactParts(suffix)
	}
	// currency spacing
	if f.style == "currency" && f.currencyDisplay != "name" {
		cpats := f.currencyPatterns()
		digitNext := len(num) > 0 && num[0].Type == "integer"
		digitPrev := len(num) > 0 && (num[len(num)-1].Type == "integer" || num[len(num)-1].Type == "fraction")
		if n := len(prefix); n > 0 && prefix[n-1].Type == "currency" && digitNext && needsSpacing(prefix[n-1].Value, true) {
			prefix = append(prefix, part{Type: "literal", Value: cpats.Spacing.After})
		}
		if len(suffix) > 0 && suffix[0].Type == "currency" && digitPrev && needsSpacing(suffix[0].Value, false) {
			suffix = append([]part{{Type: "literal", Value: cpats.Spacing.Before}}, suffix...)
		}
	}
	out := splitBidi(append(append(prefix, num...), suffix...))
	if f.style == "currency" && f.currencyDisplay == "name" {
		cat := "other"
		if !x.nan && !x.inf {
			cat = f.pluralOf(ip, fp)
		}
		name := f.currencyName(cat)
		up := f.currencyPatterns().UnitPattern
		if up == "" {
			up = "{0} {1}"
		}
		out = substitute(up, out, []part{{Type: "currency", Value: name}})
	}
	if f.style == "unit" && !f.percentUnit() {
		cat := "other"
		if !x.nan && !x.inf {
			cat = f.pluralOf(ip, fp)
		}
		out = f.unitParts(out, cat)
	}
	return out
}

func needsSpacing(sym string, before bool) bool {
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(sym)
	} else {
		r, _ = utf8.DecodeRuneInString(sym)
	}
	return r != utf8.RuneError && !unicode.IsSymbol(r) && !unicode.IsSpace(r) && r != '\u00a0' && r != '\u202f'
}

// substitute fills "{0}" with num and "{1}" with other.
func substitute(pattern string, num, other []part) []part {
	var out []part
	lit := func(s string) {
		if s != "" {
			out = append(out, part{Type: "literal", Value: s})
		}
	}
	for pattern != "" {
		i := strings.IndexByte(pattern, '{')
		if i < 0 || i+2 >= len(pattern) || pattern[i+2] != '}' {
			lit(pattern)
			break
		}
		lit(pattern[:i])
		switch pattern[i+1] {
		case '0':
			out = append(out, num...)
		case '1':
			out = append(out, other...)
		}
		pattern = pattern[i+3:]
	}
	return out
}

func mapDigits(s, digits string) string {
	if digits == "0123456789" {
		return s
	}
	d := []rune(digits)
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(d[c-'0'])
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// numberParts renders integer, group, decimal and fraction parts.
func (f *numberFormat) numberParts(ip, fp string, sym symbols, digits string, grouping string) []part {
	std := parsePattern(grouping)
	primary, secondary := std.primary, std.secondary
	minGroup := f.data.MinimumGroupingDigits
	if minGroup < 1 {
		minGroup = 1
	}
	switch f.useGrouping {
	case false:
		primary = 0
	case "always":
		minGroup = 1
	case "min2":
		minGroup = max(2, minGroup)
	}
	var out []part
	if primary > 0 && len(ip) >= primary+minGroup {
		// split from the right: primary, then secondary sizes
		var groups []string
		rest := ip
		groups = append(groups, rest[len(rest)-primary:])
		rest = rest[:len(rest)-primary]
		for len(rest) > secondary && secondary > 0 {
			groups = append(groups, rest[len(rest)-secondary:])
			rest = rest[:len(rest)-secondary]
		}
		if rest != "" {
			groups = append(groups, rest)
		}
		for i := len(groups) - 1; i >= 0; i-- {
			out = append(out, part{Type: "integer", Value: mapDigits(groups[i], digits)})
			if i > 0 {
				out = append(out, part{Type: "group", Value: sym.Group})
			}
		}
	} else {
		out = append(out, part{Type: "integer", Value: mapDigits(ip, digits)})
	}
	if fp != "" {
		out = append(out, part{Type: "decimal", Value: sym.Decimal}, part{Type: "fraction", Value: mapDigits(fp, digits)})
	}
	return out
}

func (f *numberFormat) currencyPatterns() currencyPatterns {
	if p, ok := f.data.Currency[f.nu]; ok {
		return p
	}
	return f.data.Currency["latn"]
}

// pattern is the CLDR pattern for the style (with the compact pattern's
// affixes when compact is set) and the currency text.
func (f *numberFormat) pattern(compact string) (string, string) {
	var p, cur string
	style := f.style
	if f.percentUnit() {
		style = "percent"
	}
	switch style {
	case "percent":
		p = f.data.Percent[f.nu]
		if p == "" {
			p = f.data.Percent["latn"]
		}
	case "currency":
		cp := f.currencyPatterns()
		cur = f.currencySymbol()
		p = cp.Standard
		alpha := cp.AlphaStandard
		if f.currencySign == "accounting" {
			p, alpha = cp.Accounting, cp.AlphaAccounting
		}
		_ = alpha // ICU spaces letters from digits by currencySpacing instead
		if f.currencyDisplay == "name" {
			p = cp.NoCurrency
			if p == "" {
				p = f.nuKey(f.data.Decimal).Standard
			}
		}
	default:
		p = f.nuKey(f.data.Decimal).Standard
	}
	if compact != "" {
		return compact, cur
	}
	return p, cur
}

func (f *numberFormat) currencySymbol() string {
	c, ok := f.data.Currencies[f.currency]
	switch f.currencyDisplay {
	case "code":
		return f.currency
	case "narrowSymbol":
		if ok && c.Narrow != "" {
			return c.Narrow
		}
	}
	if ok && c.Symbol != "" {
		return c.Symbol
	}
	return f.currency
}

func (f *numberFormat) currencyName(cat string) string {
	c, ok := f.data.Currencies[f.currency]
	if !ok {
		return f.currency
	}
	if n := c.DisplayName[cat]; n != "" {
		return n
	}
	if n := c.DisplayName["other"]; n != "" {
		return n
	}
	return f.currency
}

// compactPattern returns the compact pattern for a magnitude and plural
// category, and the exponent it divides by. "" means no compaction.
func (f *numberFormat) compactPattern(mag int, cat string) (string, int) {
	if mag < 3 {
		return "", 0
	}
	var pats compactPatterns
	wrap := false // the currency has no compact patterns: wrap the decimal ones
	if f.style == "currency" && f.currencyDisplay != "name" {
		pats = f.currencyPatterns().Short
		if pats == nil {
			wrap = true
		}
	} else if f.compactDisplay == "long" {
		pats = f.nuKey(f.data.Decimal).Long
	}
	if pats == nil {
		pats = f.nuKey(f.data.Decimal).Short
	}
	// the largest magnitude that has patterns, at most mag
	var forms map[string]string
	m := mag
	for ; m >= 3; m-- {
		if forms = pats["1"+strings.Repeat("0", m)]; forms != nil {
			break
		}
	}
	if forms == nil {
		return "", 0
	}
	p := forms[cat]
	if p == "" && cat == "=1" {
		return "", 0
	}
	if p == "" {
		p = forms["other"]
	}
	if p == "" || p == "0" {
		return "", 0
	}
	zeros := 0
	inQ := false
	for _, r := range strings.SplitN(forms["other"], ";", 2)[0] {
		if r == '\'' {
			inQ = !inQ
		} else if r == '0' && !inQ {
			zeros++
		}
	}
	if wrap {
		cp := f.currencyPatterns().Standard
		cp, _, _ = strings.Cut(cp, ";")
		start := strings.IndexAny(cp, "#0")
		end := start
		for end < len(cp) && strings.IndexByte("#0,.", cp[end]) >= 0 {
			end++
		}
		if start >= 0 {
			p = cp[:start] + p + cp[end:]
		}
	}
	return p, m - (zeros - 1)
}

func (f *numberFormat) unitParts(num []part, cat string) []part {
	names := f.data.Units.Simple
	pick := func(u unitNames) map[string]string {
		switch f.unitDisplay {
		case "long":
			return u.Long
		case "narrow":
			return u.Narrow
		}
		return u.Short
	}
	form := func(m map[string]string) string {
		if p := m[cat]; p != "" {
			return p
		}
		return m["other"]
	}
	if u, ok := names[f.unit]; ok {
		if p := form(pick(u)); p != "" {
			return unitSubstitute(p, num)
		}
	}
	a, b, ok := strings.Cut(f.unit, "-per-")
	if ok {
		ua, ub := names[a], names[b]
		inner := unitSubstitute(form(pick(ua)), num)
		var per string
		switch f.unitDisplay {
		case "long":
			per = ub.PerUnit["long"]
		case "narrow":
			per = ub.PerUnit["narrow"]
		default:
			per = ub.PerUnit["short"]
		}
		if per != "" {
			return unitSubstitute(per, inner)
		}
		comp := f.data.Units.Compound["per"]
		cp := comp.Short
		switch f.unitDisplay {
		case "long":
			cp = comp.Long
		case "narrow":
			cp = comp.Narrow
		}
		bn := strings.TrimSpace(strings.ReplaceAll(form(pick(ub)), "{0}", ""))
		if pick(ub)["one"] != "" {
			bn = strings.TrimSpace(strings.ReplaceAll(pick(ub)["one"], "{0}", ""))
		}
		return substitute(cp, inner, []part{{Type: "unit", Value: bn}})
	}
	return num
}

// unitSubstitute fills {0} in a unit pattern; the rest is "unit" parts
// (and "literal" for spaces, as ICU splits them).
func unitSubstitute(p string, num []part) []part {
	var out []part
	before, after, ok := strings.Cut(p, "{0}")
	if !ok {
		return num
	}
	add := func(s string) {
		if s == "" {
			return
		}
		t := strings.TrimRight(s, " \u00a0\u202f")
		l := strings.TrimLeft(t, " \u00a0\u202f")
		lead := t[:len(t)-len(l)]
		trail := s[len(t):]
		if lead != "" {
			out = append(out, part{Type: "literal", Value: lead})
		}
		if l != "" {
			out = append(out, part{Type: "unit", Value: l})
		}
		if trail != "" {
			out = append(out, part{Type: "literal", Value: trail})
		}
	}
	add(before)
	out = append(out, num...)
	add(after)
	return out
}

// compactParts types a compact pattern's words as "compact".
func compactParts(ps []part) []part {
	var out []part
	for _, p := range ps {
		if p.Type != "literal" {
			out = append(out, p)
			continue
		}
		t := strings.Trim(p.Value, " \u00a0\u202f")
		if t == "" {
			out = append(out, p)
			continue
		}
		i := strings.Index(p.Value, t)
		if i > 0 {
			out = append(out, part{Type: "literal", Value: p.Value[:i]})
		}
		out = append(out, part{Type: "compact", Value: t})
		if rest := p.Value[i+len(t):]; rest != "" {
			out = append(out, part{Type: "literal", Value: rest})
		}
	}
	return out
}

// percentUnit: ICU formats the unit "percent" (but for its long names)
// with the locale's percent pattern, unscaled.
func (f *numberFormat) percentUnit() bool {
	return f.style == "unit" && f.unit == "percent" && f.unitDisplay != "long"
}

// splitBidi moves the bidi marks around a sign into literal parts, as
// ICU's formatToParts does ("\u061c-" is a literal and a minusSign).
func splitBidi(ps []part) []part {
	isMark := func(r rune) bool { return r == '\u200e' || r == '\u200f' || r == '\u061c' }
	var out []part
	add := func(p part) {
		if p.Value == "" {
			return
		}
		if n := len(out); n > 0 && p.Type == "literal" && out[n-1].Type == "literal" {
			out[n-1].Value += p.Value
			return
		}
		out = append(out, p)
	}
	for _, p := range ps {
		switch p.Type {
		case "minusSign", "plusSign", "percentSign":
			v := p.Value
			lead := strings.TrimLeftFunc(v, isMark)
			core := strings.TrimRightFunc(lead, isMark)
			add(part{Type: "literal", Value: v[:len(v)-len(lead)]})
			add(part{Type: p.Type, Value: core})
			add(part{Type: "literal", Value: lead[len(core):]})
		default:
			add(p)
		}
	}
	return out
}
