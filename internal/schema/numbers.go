package schema

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
)

// MaxNumberScale bounds the numbers a schema or a validated value may hold.
// A JSON number is read as m×10^k with m an integer (its digits, point
// removed); validation compares numbers exactly, so it accepts only those
// whose m has at most MaxNumberScale digits and whose |k| is at most
// MaxNumberScale. Anything beyond (1e1000000, say) is far outside what a
// JavaScript number or a float64 holds, would cost the exact comparison
// time, and is refused: by [Compile] with a [*CompileError], by validation
// with a [*ValidationError] whose Rule is "number".
const MaxNumberScale = 100_000

// NumberInRange reports whether s is JSON number text within
// [MaxNumberScale]. It is false for text that is not a JSON number.
func NumberInRange(s string) bool {
	if end, ok := scanNumber([]byte(s), 0); !ok || end != len(s) {
		return false
	}
	return scaleInRange(s)
}

// scaleInRange reports whether s, text in JSON's number grammar, is within
// [MaxNumberScale].
func scaleInRange[T string | []byte](s T) bool {
	i := 0
	if s[i] == '-' {
		i++
	}
	digits, frac := 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
			frac++
		}
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if s[i] == '+' || s[i] == '-' {
			neg = s[i] == '-'
			i++
		}
		for ; i < len(s); i++ {
			exp = exp*10 + int(s[i]-'0')
			if exp > 2*MaxNumberScale {
				return false // saturated: beyond any accepted scale
			}
		}
		if neg {
			exp = -exp
		}
	}
	k := exp - frac
	return digits <= MaxNumberScale && k >= -MaxNumberScale && k <= MaxNumberScale
}

// floatInRange reports whether f is a number JSON can write (not NaN or an
// infinity).
func floatInRange(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// checkNumbers returns a *ValidationError for the first number in v (a
// value as decoded into an any) outside [MaxNumberScale], or that is no
// JSON number at all (NaN, an infinity, malformed json.Number text); nil
// when every number is in range. Validation runs it before the library,
// which cannot compare such numbers.
func checkNumbers(v any) *ValidationError {
	if _, _, ok := findBadNumber(v, false); ok {
		return nil
	}
	tokens, text, _ := findBadNumber(v, true) // again, keys in order: the same error every time
	for i, j := 0, len(tokens)-1; i < j; i, j = i+1, j-1 {
		tokens[i], tokens[j] = tokens[j], tokens[i]
	}
	msg := "number " + shortText(text) + " is outside the range validation compares (at most " +
		strconv.Itoa(MaxNumberScale) + " digits, times a power of ten of at most " + strconv.Itoa(MaxNumberScale) + " either way)"
	return newValidationError([]Violation{{Path: pointer(tokens), Rule: "number", Message: msg}}, 0, false)
}

// findBadNumber walks v for a number out of range (an object's members in
// key order when sorted is set); ok is true when there is none, otherwise
// tokens is its location, innermost first, and text its text.
func findBadNumber(v any, sorted bool) (tokens []string, text string, ok bool) {
	switch x := v.(type) {
	case json.Number:
		if !NumberInRange(string(x)) {
			return nil, string(x), false
		}
	case float64:
		if !floatInRange(x) {
			return nil, strconv.FormatFloat(x, 'g', -1, 64), false
		}
	case float32:
		if !floatInRange(float64(x)) {
			return nil, strconv.FormatFloat(float64(x), 'g', -1, 32), false
		}
	case map[string]any:
		if sorted {
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if t, s, ok := findBadNumber(x[k], true); !ok {
					return append(t, k), s, false
				}
			}
			break
		}
		for k, e := range x {
			if t, s, ok := findBadNumber(e, false); !ok {
				return append(t, k), s, false
			}
		}
	case []any:
		for i, e := range x {
			if t, s, ok := findBadNumber(e, sorted); !ok {
				return append(t, strconv.Itoa(i)), s, false
			}
		}
	}
	return nil, "", true
}

// shortText shortens a long number's text for a message.
func shortText(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:20] + "…" + s[len(s)-12:]
}
