package engine

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// openFDs counts the process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("cannot count open fds: %v", err)
	}
	return len(ents)
}

func idleCount(e *Engine) int {
	quiesce(e)
	e.idleMu.Lock()
	defer e.idleMu.Unlock()
	return len(e.idle)
}

// loadUsed loads an engine and runs programs on it so that it keeps idle
// instances (some mapping the snapshot copy-on-write).
func loadUsed(t *testing.T, dir string) *Engine {
	t.Helper()
	e, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if res := runReuse(t, e, `return await tools.add({a: 1, b: 2})`); res.Err != nil || string(res.Value) != "3" {
			t.Fatalf("run: %+v %s", res.Err, res.Value)
		}
	}
	if e.reusable && idleCount(e) == 0 {
		t.Fatal("a used engine keeps no idle instance: the test would not see them leak")
	}
	return e
}

// TestCloseReleases is what an embedder that makes an image per tenant
// does: load, run, close, 50 times. The process's open fds (the snapshot
// memfd) must not grow, a closed engine keeps no idle instance, and a run
// on it fails with IMAGE_CLOSED, as often as it is tried.
func TestCloseReleases(t *testing.T) {
	if runtime.GOOS != "linux" {
		if os.Getenv("CI") != "" {
			t.Fatal("this test counts fds in /proc/self/fd and the Linux snapshot memfd: CI must run on Linux")
		}
		t.Skip("counts fds in /proc/self/fd and the Linux snapshot memfd")
	}
	dir := t.TempDir() // one compilation cache: only the first load compiles
	warm := loadUsed(t, dir)
	if warm.cow == nil {
		t.Fatal("the engine has no snapshot memfd: the test would not see it leak")
	}
	if err := warm.Close(); err != nil {
		t.Fatal(err)
	}
	before := openFDs(t)
	for i := range 50 {
		e := loadUsed(t, dir)
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil { // idempotent
			t.Fatal(err)
		}
		if n := idleCount(e); n != 0 {
			t.Fatalf("image %d: %d idle instances after Close", i, n)
		}
		for range 2 {
			res := runReuse(t, e, `return 1`)
			if res.Err == nil || res.Err.Code != codes.ImageClosed {
				t.Fatalf("image %d: run after Close: %+v %s", i, res.Err, res.Value)
			}
		}
	}
	// A few fds of slack for the Go runtime's own; a leak is 50.
	if after := openFDs(t); after > before+3 {
		t.Fatalf("open fds grew from %d to %d over 50 closed images", before, after)
	}
}

// blockHost holds every call until its release channel is closed.
type blockHost struct {
	entered chan struct{}
	release chan struct{}
}

func (blockHost) Gate(Call, bool) Verdict { return Verdict{} }

func (h blockHost) Call(context.Context, Call) (json.RawMessage, error) {
	h.entered <- struct{}{}
	<-h.release
	return json.RawMessage("5"), nil
}

// TestCloseWhileRunning: a run in flight when its engine is closed
// finishes normally, its instance is closed rather than kept, and the
// snapshot memfd is closed only after it has ended.
func TestCloseWhileRunning(t *testing.T) {
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := blockHost{entered: make(chan struct{}), release: make(chan struct{})}
	prog, err := tsx.Transform(`return await tools.add({a: 1, b: 2}) + 1`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	code := prog.Code
	done := make(chan *Result)
	go func() {
		done <- e.Run(context.Background(), Request{Code: code, Setup: addSetup, Host: h})
	}()
	<-h.entered
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && e.cow != nil {
		if _, err := os.Stat("/proc/self/fd/" + strconv.Itoa(e.cow.fd)); err != nil || e.cow.fd < 0 {
			t.Fatalf("the snapshot memfd was closed under a run in flight: %v", err)
		}
	}
	close(h.release)
	res := <-done
	if res.Err != nil || string(res.Value) != "6" {
		t.Fatalf("the run in flight: %+v %s", res.Err, res.Value)
	}
	if n := idleCount(e); n != 0 {
		t.Fatalf("the run in flight left %d idle instances on a closed engine", n)
	}
	if e.cow != nil && e.cow.fd != -1 {
		t.Fatal("the snapshot memfd is still open after the last run ended")
	}
	if res := runReuse(t, e, `return 1`); res.Err == nil || res.Err.Code != codes.ImageClosed {
		t.Fatalf("run after Close: %+v", res.Err)
	}
}

// TestCloseSharedDoesNothing: the process-wide engine stays open.
func TestCloseSharedDoesNothing(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if res := runJS(t, `return 2`, Limits{}, nil); res.Err != nil || string(res.Value) != "2" {
		t.Fatalf("the shared engine after Close: %+v %s", res.Err, res.Value)
	}
}
