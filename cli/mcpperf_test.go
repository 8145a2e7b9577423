package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPFigures measures, against the three npm reference servers: the
// size of modebox's tools/list against the servers' combined tools/list,
// and what a run that calls one downstream tool adds over calling that tool
// directly. The figures go to docs/benchmarks.md; the test only checks
// that modebox's tools/list is the smaller one.
func TestMCPFigures(t *testing.T) {
	everythingConfig(t) // skips or fails like the other server tests
	dir := os.Getenv("MODEBOX_MCP_SERVERS_DIR")
	node, _ := exec.LookPath("node")
	pkg := func(name string) string {
		return filepath.Join(dir, "node_modules", "@modelcontextprotocol", name, "dist", "index.js")
	}
	files, memFile := t.TempDir(), filepath.Join(t.TempDir(), "memory.json")
	servers := map[string]map[string]any{
		"everything": {"command": node, "args": []string{pkg("server-everything"), "stdio"}},
		"filesystem": {"command": node, "args": []string{pkg("server-filesystem"), files}},
		"memory":     {"command": node, "args": []string{pkg("server-memory")}, "env": map[string]string{"MEMORY_FILE_PATH": memFile}},
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	cfg := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "modebox")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/modebox").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	connect := func(cmd *exec.Cmd) *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "figures", Version: "1"}, nil)
		s, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	listSize := func(s *mcp.ClientSession) int {
		res, err := s.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		return len(b)
	}
	combined := 0
	var direct *mcp.ClientSession
	for name, srv := range servers {
		args := srv["args"].([]string)
		cmd := exec.Command(node, args...)
		if env, ok := srv["env"].(map[string]string); ok {
			cmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+env["MEMORY_FILE_PATH"])
		}
		s := connect(cmd)
		combined += listSize(s)
		if name == "everything" {
			direct = s
			defer s.Close()
		} else {
			s.Close()
		}
	}
	mb := connect(exec.Command(bin, "mcp", "--config", cfg))
	defer mb.Close()
	own := listSize(mb)
	t.Logf("tools/list: modebox %d B (~%d tokens) vs the three servers combined %d B (~%d tokens): %.1f%%",
		own, own/4, combined, combined/4, 100*float64(own)/float64(combined))
	if own >= combined {
		t.Fatalf("modebox's tools/list (%d B) is not smaller than the servers' (%d B)", own, combined)
	}
	median := func(f func()) time.Duration {
		var ds []time.Duration
		for range 30 {
			start := time.Now()
			f()
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	d1 := median(func() {
		if _, err := direct.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}}); err != nil {
			t.Fatal(err)
		}
	})
	d2 := median(func() {
		res, err := mb.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await everything.echo({message: "hi"})`}})
		if err != nil || res.IsError {
			t.Fatalf("%v %+v", err, res)
		}
	})
	t.Logf("one echo call: direct %v, through a modebox run %v (overhead %v)", d1, d2, d2-d1)
}
