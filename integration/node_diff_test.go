package integration_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// The differential suite: every program in testdata/node runs in modebox
// and in Node 22, and the two results must be the same JSON. A program
// that returns an array of [key, ...] cases is compared case by case; a
// case listed in testdata/node/DIFFERENCES (file, key, reason) is a
// deliberate difference, and a listed case that no longer differs fails
// too, so the list stays true. A key ending in "*" lists every case whose
// key starts with the rest (a calendar's names in one locale, say): such
// an entry must match at least one case that differs.

// nodeBinary finds Node 22: $MODEBOX_NODE, else the copy scripts/conformance.sh
// and .ci/run install under .cache/conformance/node22.
func nodeBinary(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("MODEBOX_NODE"), filepath.Join("..", ".cache", "conformance", "node22", "node_modules", ".bin", "node")}
	for _, c := range cands {
		if c == "" {
			continue
		}
		out, err := exec.Command(c, "--version").Output()
		if err == nil && bytes.HasPrefix(out, []byte("v22.")) {
			abs, _ := filepath.Abs(c)
			return abs
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Node 22 not found: set MODEBOX_NODE or run scripts/conformance.sh (.ci/run installs it)")
	}
	t.Skip("Node 22 not found: set MODEBOX_NODE (npm install node@22)")
	return ""
}

// nodeWrapper runs a program body as an async function under Node, as
// modebox does, and prints its JSON.
const nodeWrapper = `const src = require('fs').readFileSync(process.argv[1], 'utf8');
const fn = new Function('return (async () => {\n' + src + '\n})')();
fn().then((v) => process.stdout.write(v === undefined ? '' : JSON.stringify(v)),
  (e) => { process.stdout.write(JSON.stringify({ uncaught: String(e && e.stack || e) })); });`

func runNode(t *testing.T, node, file string) []byte {
	t.Helper()
	cmd := exec.Command(node, "-e", nodeWrapper, file)
	// modebox's local time zone is UTC and its default locale en-US
	cmd.Env = []string{"TZ=UTC", "LANG=en_US.UTF-8", "LC_ALL=en_US.UTF-8", "PATH=" + os.Getenv("PATH")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", file, err, stderr.String())
	}
	return out
}

type knownDiff struct{ file, key, reason string }

func readDifferences(t *testing.T) map[string]knownDiff {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "node", "DIFFERENCES"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]knownDiff{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 || parts[2] == "" {
			t.Fatalf("DIFFERENCES: want file<TAB>key<TAB>reason: %q", line)
		}
		out[parts[0]+"\x00"+parts[1]] = knownDiff{parts[0], parts[1], parts[2]}
	}
	return out
}

func TestNodeDifferential(t *testing.T) {
	node := nodeBinary(t)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "node", "*.js"))
	if len(files) == 0 {
		t.Fatal("no programs in testdata/node")
	}
	known := readDifferences(t)
	used := map[string]bool{}
	e := newEngine(t)
	total, ran := 0, 0
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".js"), func(t *testing.T) {
			ran++
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.Run(context.Background(), string(src), modebox.RunOptions{Lang: "js"})
			if err != nil {
				t.Fatal(err)
			}
			if r.Error != nil {
				t.Fatalf("modebox: %+v", r.Error)
			}
			want := runNode(t, node, file)
			got := r.Value
			var gc, wc [][]json.RawMessage
			if json.Unmarshal(got, &gc) != nil || json.Unmarshal(want, &wc) != nil || len(gc) != len(wc) {
				if !jsonEqual(got, want) {
					t.Fatalf("results differ\nmodebox: %.2000s\nnode:    %.2000s", got, want)
				}
				total++
				return
			}
			var bad []string
			for i := range gc {
				total++
				if len(wc[i]) == 0 {
					t.Fatalf("case %d has no key", i)
				}
				var key string
				if json.Unmarshal(wc[i][0], &key) != nil {
					key = string(wc[i][0])
				}
				same := len(gc[i]) == len(wc[i])
				for j := 0; same && j < len(gc[i]); j++ {
					same = jsonEqual(gc[i][j], wc[i][j])
				}
				id := name + "\x00" + key
				if _, ok := known[id]; ok {
					used[id] = true
					if same {
						bad = append(bad, fmt.Sprintf("listed in DIFFERENCES but now the same: %s", key))
					}
					continue
				}
				if pid, ok := prefixMatch(known, name, key); ok {
					if !same {
						used[pid] = true
					}
					continue
				}
				if !same {
					bad = append(bad, fmt.Sprintf("%s\n  modebox: %s\n  node:    %s", key, joinRaw(gc[i][1:]), joinRaw(wc[i][1:])))
				}
			}
			if len(bad) > 0 {
				n := len(bad)
				if len(bad) > 400 {
					bad = bad[:400]
				}
				t.Errorf("%d of %d cases differ:\n%s", n, len(gc), strings.Join(bad, "\n"))
			}
		})
	}
	var stale []string
	for id, k := range known {
		if !used[id] {
			stale = append(stale, k.file+" "+k.key)
		}
	}
	sort.Strings(stale)
	// (only when every program ran: -run may pick some)
	if len(stale) > 0 && !t.Failed() && ran == len(files) {
		t.Errorf("DIFFERENCES lists cases no program has: %v", stale)
	}
	t.Logf("%d cases compared", total)
}

// prefixMatch finds the DIFFERENCES entry "key*" of file whose prefix key
// starts with (the longest such).
func prefixMatch(known map[string]knownDiff, file, key string) (string, bool) {
	best, found := "", false
	for id, k := range known {
		if k.file != file || !strings.HasSuffix(k.key, "*") {
			continue
		}
		p := strings.TrimSuffix(k.key, "*")
		if strings.HasPrefix(key, p) && len(id) > len(best) {
			best, found = id, true
		}
	}
	return best, found
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

func joinRaw(v []json.RawMessage) string {
	parts := make([]string, len(v))
	for i, p := range v {
		parts[i] = string(p)
	}
	return strings.Join(parts, " ")
}

// TestConsoleDirectives: console lines with a format string read as Node
// 22 prints them (each want is Node's output, but for the spaces Node
// puts inside an array's brackets: docs/values.md), and -0 and holes as
// Node shows them.
func TestConsoleDirectives(t *testing.T) {
	eng := newEngine(t)
	for _, tc := range []struct{ code, want string }{
		{`console.log("%s is %d years", "Bob", 42)`, "Bob is 42 years"},
		{`console.log("%i %f %j %%", 3.9, "2.5x", {a: 1})`, `3 2.5 {"a":1} %`},
		{`console.log("%c styled", "color: red")`, " styled"},
		{`console.log("extra", "%s", 1)`, "extra %s 1"},
		{`console.log("%s and %s", "one")`, "one and %s"},
		{`console.log("%d", {})`, "NaN"},
		{`console.log("%s", -0, -0)`, "-0 -0"},
		{`console.log("%s", 5n, "%d", 7n)`, "5n %d 7n"},
		{`console.log("%d%%", 50, "done")`, "50% done"},
		{`console.log("%j", (() => { const o = {}; o.o = o; return o; })())`, "[Circular]"},
		{`console.log("100%")`, "100%"},
		{`console.log(-0)`, "-0"},
		{`console.log([1, , 3].length, [1, , 3])`, "3 [1, <1 empty item>, 3]"},
		{`console.log([, , 1])`, "[<2 empty items>, 1]"},
	} {
		res, err := eng.Run(context.Background(), tc.code+"; return 1", modebox.RunOptions{})
		if err != nil || res.Error != nil || len(res.Logs) != 1 {
			t.Fatalf("%s: %v %+v", tc.code, err, res)
		}
		if got := res.Logs[0].Message; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.code, got, tc.want)
		}
	}
}
