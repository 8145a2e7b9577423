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
	// base 10 takes no sign, prefix, underscore or space
	n, err := strconv.ParseUint(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) || err == nil && n > f.max:
		return errors.New("must be at most " + strconv.FormatUint(f.max, 10))
	case err != nil && strings.HasPrefix(s, "-"):
		if _, nerr := strconv.ParseUint(s[1:], 10, 64); nerr == nil || errors.Is(nerr, strconv.ErrRange) {
			return errors.New("must not be negative")
		}
		fallthrough
	case err != nil:
		return errors.New("must be a whole number written in decimal digits, such as 100")
	}
	*f.v = T(n)
	return nil
}

// Type names the flag's value in usage text.
func (f countFlag[T]) Type() string { return "count" }
