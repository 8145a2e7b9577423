// Command peers-go runs modebox, github.com/dop251/goja and
// modernc.org/quickjs side by side on the programs in bench/programs, for
// bench/peers.sh. It lives in its own module so that modebox's go.mod does
// not depend on either peer.
//
// Every figure is one fresh run (modebox Engine.Run, a new goja.Runtime, a
// new quickjs.VM) of the same source; every result is checked against the
// expected value. Rounds are interleaved: each round runs every row on
// every engine (in a rotating order) before the next round starts, so a
// machine that gets slower or faster mid-run affects all three alike. The
// table reports the median over rounds of each engine's per-run time and
// the ratios of those medians.
//
// With -native, native QuickJS (the harness bench/peers.sh builds,
// bench/native) is a fourth column, interleaved like the others: it times
// its own runs in a child process per row and round (no process start in
// its figure), and has no memory row. It runs first in every row, and the
// Go engines after it in their rotating order (roundOrder).
//
// With -medians FILE, it also writes every median there, one "ROW ENGINE
// VALUE" line each (bench/peers.sh reads its targets from them).
//
// Usage: peers-go [-rounds 16] [-programs DIR] [-native HARNESS] [-medians FILE]
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

type row struct {
	key, label string
	file       string // in bench/programs; "" for the new-program row
	want       string
	reps       int // runs per engine per round
}

var rows = []row{
	{"start", "start of a run, `return 1` (ms)", "empty.js", "1", 40},
	{"newprog", "start, a new 2 KB program each run (ms)", "", "", 40},
	{"hostcalls100", "100 awaited host calls, whole run (ms)", "hostcalls100.js", "5050", 10},
	{"fib27", "fib(27), whole run (ms)", "fib27.js", "196418", 1},
	{"json1mb", "1 MB JSON parse + stringify, whole run (ms)", "json1mb.js", `{"bytes":947763,"same":true}`, 1},
	{"data10k", "a typical data program, 10k records (ms)", "data10k.js", `{"rows":4,"first":"west","count":6310,"top":82954.2}`, 1},
}

func main() {
	rounds := flag.Int("rounds", 16, "interleaved rounds")
	dir := flag.String("programs", "", "bench/programs directory (default: ../programs next to this module)")
	native := flag.String("native", "", "the native QuickJS harness (bench/native, built by bench/peers.sh): a fourth, interleaved column")
	medians := flag.String("medians", "", "also write every median to this file, one \"ROW ENGINE VALUE\" line each")
	live := flag.Int("live", 0, "only modebox's memory-per-live-run row, this many times (KiB per live run, one a line)")
	flag.Parse()
	if *live > 0 {
		for range *live {
			kib, err := liveKiB("modebox")
			if err != nil {
				fmt.Fprintln(os.Stderr, "peers-go: FAILED:", err)
				os.Exit(1)
			}
			fmt.Printf("%.1f\n", kib)
		}
		return
	}
	if *dir == "" {
		*dir = filepath.Join("..", "programs")
	}
	if err := mainErr(*rounds, *dir, *native, *medians); err != nil {
		fmt.Fprintln(os.Stderr, "peers-go: FAILED:", err)
		os.Exit(1)
	}
}

func mainErr(rounds int, dir, native, medians string) error {
	mb, err := newModebox()
	if err != nil {
		return err
	}
	engines := []engine{mb, gojaEngine{}, moderncEngine{}}
	if native != "" {
		tmp, err := os.MkdirTemp("", "peers-go-native-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		engines = append(engines, &nativeEngine{harness: native, dir: tmp})
	}
	src := map[string]string{}
	for _, r := range rows {
		if r.file == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, r.file))
		if err != nil {
			return err
		}
		src[r.key] = string(b)
	}
	// program gives row r's source and expected result: a new one at every
	// call for the new-program row
	seq := 0
	program := func(r row) (string, string) {
		if r.key == "newprog" {
			seq++
			return newProgram(seq), strconv.Itoa(seq + 1)
		}
		return src[r.key], r.want
	}
	once := func(e engine, r row) error {
		s, want := program(r)
		got, err := e.run(s)
		if err != nil {
			return fmt.Errorf("%s on %s: %w", e.name(), r.key, err)
		}
		if got != want {
			return fmt.Errorf("%s on %s returned %s, want %s", e.name(), r.key, got, want)
		}
		return nil
	}
	// Warm-up: one run of everything (compiles modebox's image, checks results).
	for _, e := range engines {
		for _, r := range rows {
			if err := once(e, r); err != nil {
				return err
			}
		}
	}
	// samples[engine][row] = per-run ms, one per round
	samples := make([]map[string][]float64, len(engines))
	for i := range samples {
		samples[i] = map[string][]float64{}
	}
	for round := range rounds {
		fmt.Fprintf(os.Stderr, "peers-go: round %d/%d\n", round+1, rounds)
		for _, r := range rows {
			for _, ei := range roundOrder(round, len(engines), native != "") {
				e := engines[ei]
				runtime.GC()
				ms, err := timeRow(e, r, program, once)
				if err != nil {
					return err
				}
				samples[ei][r.key] = append(samples[ei][r.key], ms)
			}
		}
		for ei := range engines {
			s := samples[ei]
			n := len(s["start"]) - 1
			s["rtt"] = append(s["rtt"], (s["hostcalls100"][n]-s["start"][n])*10) // µs
		}
	}

	// memory per live run: memRounds interleaved rounds, like the others
	for round := range memRounds {
		fmt.Fprintf(os.Stderr, "peers-go: memory round %d/%d\n", round+1, memRounds)
		for k := range engines {
			ei := (k + round) % len(engines)
			if _, ok := engines[ei].(*nativeEngine); ok {
				continue // not a Go engine: no memory row
			}
			kib, err := liveKiB(engines[ei].name())
			if err != nil {
				return fmt.Errorf("%s on the live-run row: %w", engines[ei].name(), err)
			}
			samples[ei]["live"] = append(samples[ei]["live"], kib)
		}
	}

	med := func(ei int, key string) float64 {
		if len(samples[ei][key]) == 0 {
			return math.NaN() // native's memory row
		}
		return median(samples[ei][key])
	}
	fmt.Printf("| figure (median of %d interleaved rounds) |", rounds)
	for _, e := range engines {
		fmt.Printf(" %s |", e.name())
	}
	for _, e := range engines[1:] {
		fmt.Printf(" modebox / %s |", e.name())
	}
	fmt.Printf("\n|---|%s\n", strings.Repeat("---:|", 2*len(engines)-1))
	line := func(label, key string, prec int) {
		fmt.Printf("| %s |", label)
		for ei := range engines {
			fmt.Printf(" %s |", figure(med(ei, key), prec))
		}
		for ei := range engines[1:] {
			fmt.Printf(" %s |", ratio(med(0, key), med(ei+1, key)))
		}
		fmt.Println()
	}
	for _, r := range rows {
		prec := 3
		if r.reps == 1 {
			prec = 1
		}
		line(r.label, r.key, prec)
		if r.key == "hostcalls100" {
			line("awaited host call round trip, (100 calls − start) / 100 (µs)", "rtt", 1)
		}
	}
	line(fmt.Sprintf("memory per live run: resident growth with %d runs waiting in a host call, / %d (KiB)", liveRuns, liveRuns), "live", 0)
	fmt.Println()
	if medians != "" {
		var b strings.Builder
		for _, key := range append([]string{"rtt", "live"}, rowKeys()...) {
			for ei, e := range engines {
				if v := med(ei, key); !math.IsNaN(v) {
					fmt.Fprintf(&b, "%s %s %g\n", key, e.name(), v)
				}
			}
		}
		if err := os.WriteFile(medians, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("Runs per engine per round: ")
	for i, r := range rows {
		if i > 0 {
			fmt.Print(", ")
		}
		fmt.Printf("%s %d", r.key, r.reps)
	}
	fmt.Printf("; memory %d rounds. %s, %d cores, GOMAXPROCS %d.\n", memRounds, runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	return nil
}

// timeRow times r.reps runs of row r on e and returns ms per run. An
// engine that times itself (native) runs them in one go; the others are
// timed here, run by run.
func timeRow(e engine, r row, program func(row) (string, string), once func(engine, row) error) (float64, error) {
	if n, ok := e.(*nativeEngine); ok {
		// the new-program row gets one new program per row and round: the
		// harness compiles it afresh at every run (QuickJS caches nothing
		// between runs)
		s, want := program(r)
		ms, got, err := n.timed(s, r.reps)
		if err != nil {
			return 0, fmt.Errorf("native on %s: %w", r.key, err)
		}
		if got != want {
			return 0, fmt.Errorf("native on %s returned %s, want %s", r.key, got, want)
		}
		return ms, nil
	}
	t0 := time.Now()
	for range r.reps {
		if err := once(e, r); err != nil {
			return 0, err
		}
	}
	return float64(time.Since(t0).Nanoseconds()) / 1e6 / float64(r.reps), nil
}

// rowKeys lists the rows' keys.
func rowKeys() []string {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.key
	}
	return keys
}

// figure formats a median, or – where an engine has none.
func figure(v float64, prec int) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// ratio formats a / b, or – where either is missing.
func ratio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// memRounds is the number of rounds of the memory-per-live-run row.
const memRounds = 3

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// roundOrder is the order in which the engines run each row in round r:
// the Go engines (the first n, or n-1 with native) rotated by r, so that
// each runs first, second and last in turn; native, when there is one
// (the last engine), first in every row. Native runs in a child process
// while this process waits, its processors idle; on a virtual machine the
// engine that runs next can find them slower for a while (a batch of
// modebox's new programs right after 250 ms of idling read ~45% slower
// with two processors). With native in the rotation as a fourth engine
// the cyclic order never changed and one Go engine followed it in every
// row of every round; first in every row, it is followed by each Go
// engine in a third of the rounds.
func roundOrder(r, n int, native bool) []int {
	g := n
	order := make([]int, 0, n)
	if native {
		g = n - 1
		order = append(order, n-1)
	}
	for k := range g {
		order = append(order, (k+r)%g)
	}
	return order
}
