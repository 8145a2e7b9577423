package intl

import (
	"math"
	"strconv"
	"strings"
)

// decimal is an exact non-negative decimal: digits (no leading or trailing
// zeros; empty for zero) with the decimal point after point digits.
type decimal struct {
	digits string
	point  int
}

func decimalFromFloat(f float64) decimal {
	f = math.Abs(f)
	if f == 0 {
		return decimal{}
	}
	// the shortest digits that round-trip, as JS and ICU use
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	d := strings.Replace(mant, ".", "", 1)
	return trimDecimal(decimal{digits: d, point: e + 1})
}

// decimalFromString reads an exact decimal ("-12.5e3", "0x1f" is not one).
func decimalFromString(s string) (decimal, bool, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	e := 0
	if hasExp {
		v, err := strconv.Atoi(exp)
		if err != nil {
			return decimal{}, false, false
		}
		e = v
	}
	ip, fp, _ := strings.Cut(mant, ".")
	if ip == "" && fp == "" {
		return decimal{}, false, false
	}
	for _, c := range ip + fp {
		if c < '0' || c > '9' {
			return decimal{}, false, false
		}
	}
	return trimDecimal(decimal{digits: ip + fp, point: len(ip) + e}), neg, true
}

func trimDecimal(d decimal) decimal {
	i := 0
	for i < len(d.digits) && d.digits[i] == '0' {
		i++
	}
	d.digits = d.digits[i:]
	d.point -= i
	d.digits = strings.TrimRight(d.digits, "0")
	if d.digits == "" {
		return decimal{}
	}
	return d
}

func (d decimal) isZero() bool { return d.digits == "" }

// magnitude is floor(log10(d)); 0 for zero.
func (d decimal) magnitude() int {
	if d.isZero() {
		return 0
	}
	return d.point - 1
}

func (d decimal) shift(n int) decimal {
	if d.isZero() {
		return d
	}
	d.point += n
	return d
}

// round keeps the digits down to 10^mag (mag = -fractionDigits) with mode;
// neg tells the sign for the directed modes.
func (d decimal) round(mag int, mode string, neg bool) decimal {
	if d.isZero() {
		return d
	}
	keep := d.point - mag // digits kept
	if keep >= len(d.digits) {
		return d
	}
	var kept string
	var rest string
	if keep <= 0 {
		kept = ""
		rest = strings.Repeat("0", -keep) + d.digits
	} else {
		kept = d.digits[:keep]
		rest = d.digits[keep:]
	}
	// rest is non-empty and non-zero (digits has no trailing zeros)
	half := 0 // -1 below half, 0 exactly half, 1 above
	switch {
	case rest[0] > '5':
		half = 1
	case rest[0] < '5':
		half = -1
	default:
		if len(rest) > 1 {
			half = 1
		}
	}
	lastOdd := len(kept) > 0 && (kept[len(kept)-1]-'0')%2 == 1
	up := false
	switch mode {
	case "ceil":
		up = !neg
	case "floor":
		up = neg
	case "expand":
		up = true
	case "trunc":
		up = false
	case "halfCeil":
		up = half > 0 || (half == 0 && !neg)
	case "halfFloor":
		up = half > 0 || (half == 0 && neg)
	case "halfTrunc":
		up = half > 0
	case "halfEven":
		up = half > 0 || (half == 0 && lastOdd)
	default: // halfExpand
		up = half >= 0
	}
	point := d.point
	if keep < 0 {
		// everything is below 10^mag
		point = mag + len(kept)
	}
	if !up {
		if kept == "" {
			return decimal{}
		}
		return trimDecimal(decimal{digits: kept, point: point})
	}
	// add one unit at 10^mag
	if kept == "" {
		return decimal{digits: "1", point: mag + 1}
	}
	b := []byte(kept)
	i := len(b) - 1
	for i >= 0 && b[i] == '9' {
		b[i] = '0'
		i--
	}
	if i < 0 {
		return trimDecimal(decimal{digits: "1" + string(b), point: point + 1})
	}
	b[i]++
	return trimDecimal(decimal{digits: string(b), point: point})
}

// intDigits and fracDigits give the decimal's digits as text.
func (d decimal) intDigits() string {
	if d.point <= 0 {
		return "0"
	}
	if d.point >= len(d.digits) {
		return d.digits + strings.Repeat("0", d.point-len(d.digits))
	}
	return d.digits[:d.point]
}

func (d decimal) fracDigits() string {
	if d.point >= len(d.digits) {
		return ""
	}
	if d.point < 0 {
		return strings.Repeat("0", -d.point) + d.digits
	}
	return d.digits[d.point:]
}
