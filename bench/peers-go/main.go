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
// Usage: peers-go [-rounds 16] [-programs DIR]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
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
	if err := mainErr(*rounds, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "peers-go: FAILED:", err)
		os.Exit(1)
	}
}

func mainErr(rounds int, dir string) error {
	mb, err := newModebox()
	if err != nil {
		return err
	}
	engines := []engine{mb, gojaEngine{}, moderncEngine{}}
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
	seq := 0
	once := func(e engine, r row) error {
		s, want := src[r.key], r.want
		if r.key == "newprog" {
			seq++
			s, want = newProgram(seq), strconv.Itoa(seq+1)
		}
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
			for k := range engines {
				ei := (k + round) % len(engines)
				e := engines[ei]
				runtime.GC()
				t0 := time.Now()
				for range r.reps {
					if err := once(e, r); err != nil {
						return err
					}
				}
				ms := float64(time.Since(t0).Nanoseconds()) / 1e6 / float64(r.reps)
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
			kib, err := liveKiB(engines[ei].name())
			if err != nil {
				return fmt.Errorf("%s on the live-run row: %w", engines[ei].name(), err)
			}
			samples[ei]["live"] = append(samples[ei]["live"], kib)
		}
	}

	med := func(ei int, key string) float64 { return median(samples[ei][key]) }
	fmt.Printf("| figure (median of %d interleaved rounds) | modebox | goja | modernc | modebox / goja | modebox / modernc |\n", rounds)
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	line := func(label, key string, prec int) {
		a, g, q := med(0, key), med(1, key), med(2, key)
		fmt.Printf("| %s | %.*f | %.*f | %.*f | %.2f× | %.2f× |\n", label, prec, a, prec, g, prec, q, a/g, a/q)
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
