package tsx

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// nodeRunner evaluates a compiled program the way the engine does: as a
// global script whose completion value is the program's async function.
// It prints the JSON of the result, or "throw:" and the error's stack.
const nodeRunner = `
const vm = require("vm");
let code = "";
process.stdin.on("data", (d) => (code += d));
process.stdin.on("end", async () => {
  const f = vm.runInThisContext(code, { filename: "main.js" });
  if (typeof f !== "function") { console.log("not a function: " + typeof f); return; }
  try {
    const v = await f();
    console.log(v === undefined ? "undefined" : JSON.stringify(v));
  } catch (e) {
    console.log("throw:" + e.stack);
  }
});
`

// runNode runs p with Node.js if it is installed, as an extra check that
// esbuild's output means what the source meant; it returns "" (and the test
// goes on) when Node.js is missing. QuickJS itself is tested by the engine.
func runNode(t *testing.T, p *Program) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is required in CI (.ci/run installs it)")
		}
		t.Log("node not installed; output not executed")
		return ""
	}
	cmd := exec.Command(node, "-e", nodeRunner)
	cmd.Stdin = strings.NewReader(p.Code)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s\n%s", err, out, p.Code)
	}
	return strings.TrimSpace(string(out))
}

// TestRewriteNodeStack checks RewriteStack on a real stack trace with
// line:column positions, as printed by Node.js.
func TestRewriteNodeStack(t *testing.T) {
	src := "```ts\ninterface Q { n: number }\nfunction boom(q: Q): never {\n  throw new Error(\"bad \" + q.n);\n}\nconst x: Q = { n: 1 };\nreturn boom(x);\n```"
	p, err := Transform(src, TS)
	if err != nil {
		t.Fatal(err)
	}
	out := runNode(t, p)
	if out == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("node is required in CI (.ci/run installs it)")
		}
		t.Skip("node not installed")
	}
	got := p.RewriteStack(out, "main.js")
	for _, want := range []string{"at boom (main.js:4:9)", "at __modebox_main (main.js:7:8)"} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten stack lacks %q:\n%s\noriginal:\n%s", want, got, out)
		}
	}
}
