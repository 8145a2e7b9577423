package integration_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// The cost of the built-ins through the guest, next to the same work done
// directly in Go. Figures and commands: docs/benchmarks.md.

func benchFetchServer(b *testing.B) *httptest.Server {
	body := strings.Repeat("x", 1024)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkFetchGuest: one guest fetch() of 1 KiB per op, in one run of
// b.N requests (so run start is not counted).
func BenchmarkFetchGuest(b *testing.B) {
	srv := benchFetchServer(b)
	e, err := modebox.New(modebox.EngineConfig{Fetch: &modebox.FetchConfig{Allow: []string{srv.Listener.Addr().String()}, MaxRequests: 1 << 30}, Limits: modebox.Limits{MaxCalls: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	code := fmt.Sprintf(`for (let i = 0; i < %d; i++) { const r = await fetch(%q); if ((await r.text()).length !== 1024) throw new Error("short") }`, b.N, srv.URL)
	b.ResetTimer()
	r, err := e.Run(context.Background(), code, modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30e9}})
	if err != nil || r.Error != nil {
		b.Fatalf("%v %+v", err, r.Error)
	}
}

// BenchmarkFetchGuestParallel: requests per second from one run with
// Promise.all over batches of 16.
func BenchmarkFetchGuestParallel(b *testing.B) {
	srv := benchFetchServer(b)
	e, err := modebox.New(modebox.EngineConfig{Fetch: &modebox.FetchConfig{Allow: []string{srv.Listener.Addr().String()}, MaxRequests: 1 << 30}, Limits: modebox.Limits{MaxCalls: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	code := fmt.Sprintf(`let left = %d;
		while (left > 0) { const n = Math.min(16, left); left -= n;
			await Promise.all(Array.from({length: n}, () => fetch(%q).then(r => r.text()))) }`, b.N, srv.URL)
	b.ResetTimer()
	r, err := e.Run(context.Background(), code, modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30e9}})
	if err != nil || r.Error != nil {
		b.Fatalf("%v %+v", err, r.Error)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkFetchPlainGo: http.Get of the same 1 KiB, the floor.
func BenchmarkFetchPlainGo(b *testing.B) {
	srv := benchFetchServer(b)
	for b.Loop() {
		resp, err := http.Get(srv.URL)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

func benchFS(b *testing.B, size int) (*modebox.Engine, string) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Repeat("a", size)), 0o644); err != nil {
		b.Fatal(err)
	}
	e, err := modebox.New(modebox.EngineConfig{FS: &modebox.FSConfig{Mounts: []modebox.Mount{{Host: dir, Guest: "/d", Mode: "rw"}}}, Limits: modebox.Limits{MaxCalls: 1 << 30, MaxValue: 64 << 20, Memory: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return e, dir
}

// BenchmarkFSRead1MiBGuest: fs.read of a 1 MiB text file into the guest.
func BenchmarkFSRead1MiBGuest(b *testing.B) {
	e, _ := benchFS(b, 1<<20)
	code := fmt.Sprintf(`for (let i = 0; i < %d; i++) { if ((await fs.read("/d/f.txt")).length !== 1048576) throw new Error("short") }`, b.N)
	b.SetBytes(1 << 20)
	b.ResetTimer()
	r, err := e.Run(context.Background(), code, modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30e9}})
	if err != nil || r.Error != nil {
		b.Fatalf("%v %+v", err, r.Error)
	}
}

// BenchmarkFSRead1MiBGo: os.ReadFile of the same file.
func BenchmarkFSRead1MiBGo(b *testing.B) {
	_, dir := benchFS(b, 1<<20)
	b.SetBytes(1 << 20)
	for b.Loop() {
		if _, err := os.ReadFile(filepath.Join(dir, "f.txt")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFSWrite1MiBGuest: one run that writes 1 MiB with fs.write and
// commits it (temp file, fsync, rename, fsync of the directory).
func BenchmarkFSWrite1MiBGuest(b *testing.B) {
	e, _ := benchFS(b, 1)
	b.SetBytes(1 << 20)
	for b.Loop() {
		r, err := e.Run(context.Background(), `await fs.write("/d/out.txt", "b".repeat(1048576))`, modebox.RunOptions{Lang: "js"})
		if err != nil || r.Error != nil || r.Files == nil {
			b.Fatalf("%v %+v", err, r.Error)
		}
	}
}

// BenchmarkFSWrite1MiBGo: the same commit done directly: temp file,
// fsync, rename, fsync of the directory.
func BenchmarkFSWrite1MiBGo(b *testing.B) {
	_, dir := benchFS(b, 1)
	data := []byte(strings.Repeat("b", 1<<20))
	b.SetBytes(1 << 20)
	for b.Loop() {
		f, err := os.CreateTemp(dir, ".tmp-")
		if err != nil {
			b.Fatal(err)
		}
		f.Write(data)
		f.Sync()
		f.Close()
		if err := os.Rename(f.Name(), filepath.Join(dir, "out.txt")); err != nil {
			b.Fatal(err)
		}
		d, _ := os.Open(dir)
		d.Sync()
		d.Close()
	}
}

// BenchmarkFSGlob1000Guest: fs.glob over 1,000 files in 10 directories.
func BenchmarkFSGlob1000Guest(b *testing.B) {
	e, dir := benchFS(b, 1)
	for i := range 1000 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", i%10))
		os.MkdirAll(sub, 0o755)
		os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.json", i)), []byte("{}"), 0o644)
	}
	code := fmt.Sprintf(`for (let i = 0; i < %d; i++) { if ((await fs.glob("/d/**/*.json")).length !== 1000) throw new Error("count") }`, b.N)
	b.ResetTimer()
	r, err := e.Run(context.Background(), code, modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30e9}})
	if err != nil || r.Error != nil {
		b.Fatalf("%v %+v", err, r.Error)
	}
}

// BenchmarkShTrueGuest: one sh("true") per op through the guest (bwrap,
// seccomp, masks), in one run.
func BenchmarkShTrueGuest(b *testing.B) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			b.Fatal("bubblewrap is required in CI")
		}
		b.Skip("bubblewrap not installed")
	}
	e, err := modebox.New(modebox.EngineConfig{Shell: &modebox.ShellConfig{Workspace: []string{shWorkspace(b)}}, Policies: map[string]modebox.Policy{"sh": modebox.PolicyAllow}, Limits: modebox.Limits{MaxCalls: 1 << 30}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	code := fmt.Sprintf(`for (let i = 0; i < %d; i++) { if ((await sh("true")).exitCode !== 0) throw new Error("exit") }`, b.N)
	b.ResetTimer()
	r, err := e.Run(context.Background(), code, modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30e9}})
	if err != nil || r.Error != nil {
		b.Fatalf("%v %+v", err, r.Error)
	}
}

// BenchmarkShTrueExec: exec of /bin/sh -c true, the floor.
func BenchmarkShTrueExec(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
