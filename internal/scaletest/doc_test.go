package scaletest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/modebox/modebox/cli"
	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/internal/pgtest"
)

// The worked configuration of docs/scaling.md is what these tests run:
// its HAProxy file, its key command and its replica and doctor command
// lines, with only the ports (and the config file's path) changed.

const scalingDoc = "../../docs/scaling.md"

// docBlock returns the fenced block of docs/scaling.md with the given
// info string (the first one).
func docBlock(t testing.TB, info string) string {
	t.Helper()
	b, err := os.ReadFile(scalingDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n```"+info+"\n")
	if !ok {
		t.Fatalf("%s has no ```%s block", scalingDoc, info)
	}
	block, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatalf("%s: the ```%s block does not end", scalingDoc, info)
	}
	return block + "\n"
}

var (
	docBind   = regexp.MustCompile(`(?m)^(\s+bind )(\S+)$`)
	docServer = regexp.MustCompile(`(?m)^(\s+server \S+ )(\S+)( .*)?$`)
)

// haproxyConfig is the documented HAProxy configuration binding listen,
// in front of replicas instead of the documented three: each documented
// server line's address is replaced, the first one's options kept.
func haproxyConfig(t testing.TB, listen string, replicas []string) string {
	t.Helper()
	cfg := docBlock(t, "haproxy")
	if n := len(docBind.FindAllString(cfg, -1)); n != 1 {
		t.Fatalf("the documented configuration has %d bind lines, want 1", n)
	}
	cfg = docBind.ReplaceAllString(cfg, "${1}"+listen)
	first := docServer.FindStringSubmatch(cfg)
	if first == nil {
		t.Fatal("the documented configuration has no server lines")
	}
	indent, _, _ := strings.Cut(first[1], "server ")
	var lines []string
	for i, r := range replicas {
		lines = append(lines, fmt.Sprintf("%sserver replica%d %s%s", indent, i+1, r, first[3]))
	}
	n := 0
	return docServer.ReplaceAllStringFunc(cfg, func(string) string {
		n++
		if n == 1 {
			return strings.Join(lines, "\n")
		}
		return "#"
	})
}

// startLB starts HAProxy with the documented configuration.
func startLB(t testing.TB, replicas []string) *pgtest.HAProxy {
	t.Helper()
	return pgtest.StartHAProxy(t, func(addr string) string { return haproxyConfig(t, addr, replicas) })
}

// docCommands returns the documented shell lines.
func docCommands(t testing.TB) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(docBlock(t, "sh")), "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// docSecret runs the documented key line and returns the key it makes.
func docSecret(t testing.TB) string {
	t.Helper()
	line := docCommands(t)[0]
	if !strings.HasPrefix(line, "export MODEBOX_SECRET=") {
		t.Fatalf("the first documented line is %q, want the key", line)
	}
	out, err := exec.Command("sh", "-c", line+`; printf %s "$MODEBOX_SECRET"`).Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("%s: %v", line, err)
	}
	return string(out)
}

// docBearer runs the documented bearer-token line and returns the token.
func docBearer(t testing.TB) string {
	t.Helper()
	for _, line := range docCommands(t) {
		if strings.HasPrefix(line, "export MODEBOX_MCP_TOKEN=") {
			out, err := exec.Command("sh", "-c", line+`; printf %s "$MODEBOX_MCP_TOKEN"`).Output()
			if err != nil || len(out) == 0 {
				t.Fatalf("%s: %v", line, err)
			}
			return string(out)
		}
	}
	t.Fatal("no documented MODEBOX_MCP_TOKEN line")
	return ""
}

// docReplicaArgs returns the arguments of the documented replica line,
// listening on addr and reading config.
func docReplicaArgs(t testing.TB, addr, config string) []string {
	t.Helper()
	for _, l := range docCommands(t) {
		if f := strings.Fields(strings.TrimSuffix(l, "&")); len(f) > 2 && f[0] == "modebox" && f[1] == "mcp" {
			args := f[1:]
			for i := range args {
				switch {
				case i > 0 && args[i-1] == "--http":
					args[i] = addr
				case i > 0 && args[i-1] == "--config":
					args[i] = config
				}
			}
			return args
		}
	}
	t.Fatal("no documented modebox mcp line")
	return nil
}

// The documented modebox.json snippet parses, and the documented
// variable's value is accepted.
func TestScalingDocSettings(t *testing.T) {
	cfg, err := config.Parse([]byte(docBlock(t, "json")), "scaling.md")
	if err != nil || !strings.HasPrefix(cfg.TokenStore, "postgres://") {
		t.Fatalf("the documented tokenStore: %v %+v", err, cfg)
	}
	b, err := os.ReadFile(scalingDoc)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^    MODEBOX_TOKEN_STORE=(\S+)$`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("no documented MODEBOX_TOKEN_STORE line")
	}
	if msg, _ := config.TokenStoreProblem(m[1], false); msg != "" {
		t.Fatalf("the documented MODEBOX_TOKEN_STORE %s: %s", m[1], msg)
	}
}

// The documented doctor line, run on a replica's environment, passes and
// says the keys match; the documented environment lines name the
// variables the replicas read.
func TestScalingDocWorkedExample(t *testing.T) {
	d := newDeployment(t)
	a := d.start()
	res, err := callRun(t.Context(), client(t, startLB(t, []string{a.Addr}).Addr, newVersion, "approve", true), d.cnt.program("hit", "doc"))
	if got := resultString(res, err); got != "hit:doc" {
		t.Fatalf("a run through the documented configuration: %s", got)
	}
	var doctor []string
	for _, l := range docCommands(t) {
		if strings.HasPrefix(l, "modebox doctor") {
			doctor = strings.Fields(l)[1:]
		}
		if strings.HasPrefix(l, "export ") && !strings.Contains(l, "MODEBOX_SECRET") && !strings.Contains(l, "MODEBOX_TOKEN_STORE") && !strings.Contains(l, "MODEBOX_MCP_TOKEN") {
			t.Errorf("documented line %q sets a variable the tests do not", l)
		}
	}
	if len(doctor) == 0 {
		t.Fatal("no documented doctor line")
	}
	for i := range doctor {
		if i > 0 && doctor[i-1] == "--config" {
			doctor[i] = d.config
		}
	}
	for _, kv := range d.env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var out, errs bytes.Buffer
	code := cli.Run(doctor, cli.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs})
	if code != cli.ExitOK || !regexp.MustCompile(`(?m)^ok\s+replica keys\s+match: active key`).MatchString(out.String()) ||
		!regexp.MustCompile(`(?m)^ok\s+used tokens\s+PostgreSQL \(\$MODEBOX_TOKEN_STORE\), schema version 1`).MatchString(out.String()) {
		t.Fatalf("%v: exit %d\n%s%s", doctor, code, out.String(), errs.String())
	}
}
