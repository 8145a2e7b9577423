package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// nativeEngine is native QuickJS, the harness bench/peers.sh builds from
// the same QuickJS sources modebox compiles to wasm (bench/native), run as
// a child process once per row and round. It times its own runs (a fresh
// runtime and context each, no process start in the figure), so it is
// interleaved with the Go engines like any other: a machine that gets
// slower or faster mid-run affects its figures and theirs alike, and the
// ratios to native read steadier than from separate processes minutes
// apart.
type nativeEngine struct {
	harness string // path of the harness binary
	dir     string // where the programs are written for the harness
	seq     int
}

func (*nativeEngine) name() string { return "native" }

// timed runs src reps times in one harness process, after untimed
// warm-up runs (warmUp), and returns the mean whole-run time in ms (runtime and
// context creation, the program, its jobs, the result's JSON, the frees:
// the scope of a modebox Engine.Run) and the result's JSON.
func (n *nativeEngine) timed(src string, reps int) (float64, string, error) {
	n.seq++
	file := filepath.Join(n.dir, "p"+strconv.Itoa(n.seq)+".js")
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		return 0, "", err
	}
	defer os.Remove(file)
	var stderr bytes.Buffer
	cmd := exec.Command(n.harness, strconv.Itoa(reps), file, strconv.Itoa(warmUp(reps)))
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w: %s", n.harness, err, strings.TrimSpace(stderr.String()))
	}
	return parseHarness(out, reps)
}

// warmUp is how many untimed runs the harness makes before the timed
// ones: a new process's first runs of a cheap program read ~1.7× its
// steady state (its heap and caches cold; 0.22 against 0.13 ms for
// return 1), where the Go engines' runs are those of a process long warm.
// 200 runs of a cheap row cost ~40 ms; a long row (one run per round)
// gets one.
func warmUp(reps int) int {
	if reps >= 10 {
		return 200
	}
	return 1
}

// parseHarness reads the harness's output: one "iter I TOTAL_MS
// PROGRAM_MS" line per timed run, then "result JSON".
func parseHarness(out []byte, reps int) (float64, string, error) {
	var sum float64
	runs := 0
	result, found := "", false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "iter "):
			f := strings.Fields(line)
			if len(f) != 4 {
				return 0, "", fmt.Errorf("harness: malformed line %q", line)
			}
			ms, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				return 0, "", fmt.Errorf("harness: malformed line %q: %w", line, err)
			}
			sum += ms
			runs++
		case strings.HasPrefix(line, "result "):
			result, found = strings.TrimPrefix(line, "result "), true
		}
	}
	if err := sc.Err(); err != nil {
		return 0, "", err
	}
	if runs != reps || !found {
		return 0, "", fmt.Errorf("harness: %d timed runs and result %v in its output, want %d and a result", runs, found, reps)
	}
	return sum / float64(runs), result, nil
}

// run runs src once, for the warm-up round that checks every result.
func (n *nativeEngine) run(src string) (string, error) {
	_, result, err := n.timed(src, 1)
	return result, err
}
