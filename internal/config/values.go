package config

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/limits"
	"github.com/modebox/modebox/internal/schema"
)

// The regular expressions below appear verbatim in modebox.schema.json; a
// test checks that they stay identical. They avoid syntax that JavaScript
// (used by editors to apply the schema) and Go's RE2 read differently.
const (
	// patternRE is the syntax of a tool pattern: dot-separated segments of
	// letters, digits, "_", "-" and "*", no segment empty and no "**".
	patternRE = `^(\*|\*?[A-Za-z0-9_-]+(\*[A-Za-z0-9_-]+)*\*?)(\.(\*|\*?[A-Za-z0-9_-]+(\*[A-Za-z0-9_-]+)*\*?))*$`
	// serverNameRE is the syntax of an mcpServers name (a tool namespace).
	serverNameRE = `^[A-Za-z0-9_-]+$`
	// durationRE is the syntax of a duration string: a Go duration without
	// a sign.
	durationRE = `^(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`
	// sizeRE is the syntax of a size string: a number of bytes with an
	// optional unit, B, K/KB/KiB, M/MB/MiB or G/GB/GiB in any case.
	sizeRE = `^[0-9]+(\.[0-9]+)? ?([bB]|[kKmMgG]([iI]?[bB])?)?$`
	// urlRE is the accepted shape of a server URL.
	urlRE = `^[hH][tT][tT][pP][sS]?://[^/?#\s]+([/?#]\S*)?$`
)

var (
	patternPattern    = regexp.MustCompile(patternRE)
	serverNamePattern = regexp.MustCompile(serverNameRE)
	durationPattern   = regexp.MustCompile(durationRE)
	sizePattern       = regexp.MustCompile(sizeRE)
	urlPattern        = regexp.MustCompile(urlRE)
)

// maxNumber is the largest number accepted for any count or size:
// 2^53-1, the largest integer every JSON reader (JavaScript included)
// represents exactly.
const maxNumber = 1<<53 - 1

// maxDurationMS is the largest duration accepted as a number of
// milliseconds: the whole milliseconds a time.Duration holds (about 292
// years). A larger number would wrap around to a negative duration.
const maxDurationMS = math.MaxInt64 / int64(time.Millisecond)

// maxMemory is the engine's cap on Limits.Memory.
const maxMemory = limits.MaxMemory

// MinMemory is the smallest "memory" limit accepted (512 KiB): below it the
// engine cannot compile even a small program.
const MinMemory = limits.MinMemory

// minServerTimeoutMS is the smallest server timeout written as a number.
// Some clients (Cline) write this timeout in seconds; modebox reads
// numbers as milliseconds, so a small number is almost surely seconds.
const minServerTimeoutMS = 1000

// reservedServerNames are the namespaces of the built-in tools, which an
// MCP server may not take.
var reservedServerNames = []string{"sh", "fetch", "fs"}

// parseRat parses JSON number text exactly.
func parseRat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

var (
	bigMax         = new(big.Rat).SetInt64(maxNumber)
	bigMaxDuration = new(big.Rat).SetInt64(maxDurationMS)
)

// outOfRange is the message for JSON number text beyond what modebox
// compares exactly (schema.MaxNumberScale), the same numbers the
// published schema's validation refuses.
func outOfRange(text string) string {
	if len(text) > 40 {
		text = text[:20] + "…" + text[len(text)-12:]
	}
	return "number " + text + " is out of range (modebox reads numbers of up to " + strconv.Itoa(schema.MaxNumberScale) +
		" digits times a power of ten of up to ±" + strconv.Itoa(schema.MaxNumberScale) + ")"
}

// countValue reads a JSON number that must be an integer in [0, limit].
// It returns a message saying what is wrong, or "".
func countValue(text string, limit int64) (uint64, string) {
	if !schema.NumberInRange(text) {
		return 0, outOfRange(text)
	}
	r := parseRat(text)
	switch {
	case r == nil || !r.IsInt():
		return 0, "expected a whole number, got " + text
	case r.Sign() < 0:
		return 0, "must not be negative, got " + text
	case r.Cmp(new(big.Rat).SetInt64(limit)) > 0:
		return 0, "must be at most " + strconv.FormatInt(limit, 10) + ", got " + text
	}
	return r.Num().Uint64(), ""
}

// msDuration reads a JSON number of milliseconds.
func msDuration(text string) (time.Duration, string) {
	if !schema.NumberInRange(text) {
		return 0, outOfRange(text)
	}
	r := parseRat(text)
	switch {
	case r == nil:
		return 0, "invalid number " + text
	case r.Sign() < 0:
		return 0, "must not be negative, got " + text
	case r.Cmp(bigMaxDuration) > 0:
		return 0, "must be at most " + strconv.FormatInt(maxDurationMS, 10) + " milliseconds (about 292 years), got " + text
	}
	ns := new(big.Rat).Mul(r, big.NewRat(int64(time.Millisecond), 1))
	q := new(big.Int).Quo(ns.Num(), ns.Denom())
	if q.Sign() == 0 && r.Sign() > 0 {
		// 0 means the default, so a duration below 1ns would loosen it.
		return 0, text + " milliseconds is less than 1ns (0 or absent: the default)"
	}
	return time.Duration(q.Int64()), ""
}

// stringDuration reads a duration string such as "30s" or "1m30s".
func stringDuration(s string) (time.Duration, string) {
	bad := "invalid duration " + strconv.Quote(s) + `: expected a number with a unit, like "30s", "1m30s" or "500ms" (units ns, us, ms, s, m, h)`
	if strings.HasPrefix(s, "-") {
		return 0, "must not be negative, got " + strconv.Quote(s)
	}
	if !durationPattern.MatchString(s) {
		return 0, bad
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, "invalid duration " + strconv.Quote(s) + ": too large"
	}
	if d == 0 && strings.ContainsAny(s, "123456789") {
		// 0 means the default, so a duration below 1ns would loosen it.
		return 0, "duration " + strconv.Quote(s) + " is less than 1ns (0 or absent: the default)"
	}
	return d, ""
}

// sizeUnits maps lower-case size units to their multipliers.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
}

// stringSize reads a size string such as "64MiB", "10MB" or "512".
// Fractions of a byte are dropped.
func stringSize(s string) (int64, string) {
	if strings.HasPrefix(s, "-") {
		return 0, "must not be negative, got " + strconv.Quote(s)
	}
	if !sizePattern.MatchString(s) {
		return 0, "invalid size " + strconv.Quote(s) + `: expected a number of bytes with an optional unit B, KB, MB, GB, KiB, MiB or GiB, like "64MiB"`
	}
	i := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	}
	r := parseRat(num)
	if r == nil {
		return 0, "invalid size " + strconv.Quote(s)
	}
	r.Mul(r, new(big.Rat).SetInt64(sizeUnits[unit]))
	if r.Cmp(bigMax) > 0 {
		return 0, "size " + strconv.Quote(s) + " is too large"
	}
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if q.Sign() == 0 && r.Sign() > 0 {
		// 0 means the default, so a cap below one byte would loosen it.
		return 0, "size " + strconv.Quote(s) + " is less than one byte (0 or absent: the default)"
	}
	return q.Int64(), ""
}

// formatSize renders a byte count with the largest binary unit dividing it.
func formatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// ParseSize reads a byte count as modebox.json writes sizes: a number of
// bytes, or a number with a unit B, K/KB/KiB, M/MB/MiB or G/GB/GiB ("64MiB",
// "512KiB", "10MB"). The CLI's size flags use it too.
func ParseSize(s string) (int64, error) {
	n, problem := stringSize(strings.TrimSpace(s))
	if problem != "" {
		return 0, errors.New(problem)
	}
	return n, nil
}
