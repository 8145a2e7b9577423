package cli

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// countFlag is a flag.Value for a whole number written in decimal digits.
// pflag's own integer flags read their text in Go's base-prefix syntax, so
// "0x10" was 16, "010" 8 and "1_000" 1000; these read as a person means
// them or are refused.
type countFlag[T int | uint64] struct {
	v   *T
	max uint64
}

func intCount(v *int) countFlag[int] { return countFlag[int]{v, math.MaxInt} }

func uintCount(v *uint64) countFlag[uint64] { return countFlag[uint64]{v, math.MaxUint64} }

func (f countFlag[T]) String() string {
	if f.v == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*f.v), 10)
}

func (f countFlag[T]) Set(s string) error {
	if rest, neg := strings.CutPrefix(s, "-"); neg && rest != "" && allDigits(rest) {
		return errors.New("must not be negative")
	}
	if !allDigits(s) {
		return errors.New("must be a whole number written in decimal digits, such as 100")
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > f.max {
		return errors.New("must be at most " + strconv.FormatUint(f.max, 10))
	}
	*f.v = T(n)
	return nil
}

// Type names the flag's value in usage text.
func (f countFlag[T]) Type() string { return "count" }

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
