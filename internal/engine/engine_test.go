package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/guest"
	"github.com/modebox/modebox/internal/tsx"
)

func runJS(t testing.TB, src string, lim Limits, host Host) *Result {
	t.Helper()
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Seed: 42, Limits: lim, Host: host})
}

// The module must import exactly the event channel and the clock: no WASI,
// no memory, no table, nothing else.
func TestImportsAreExactlyTwo(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	got := e.Imports()
	slices.Sort(got)
	want := slices.Clone(guest.Imports)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Fatalf("imports = %v, want %v", got, want)
	}
	if len(e.compiled.ImportedMemories()) != 0 {
		t.Fatal("the module imports a memory")
	}
}

func TestSnapshotIsSmall(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	if n := e.SnapshotBytes(); n == 0 || n > 2<<20 {
		t.Fatalf("snapshot restores %d bytes", n)
	}
}

// A forged event from a guest that skipped the prelude must not confuse
// the host: call ids out of sequence crash that run only.
func TestCallIDsMustBeSequential(t *testing.T) {
	r := &run{limits: Limits{}.WithDefaults(), pending: map[int]*pendingCall{}, stopCh: make(chan struct{}), done: make(chan struct{})}
	if a := r.onCall(5, []byte("add\n{}")); a != answerStop {
		t.Fatalf("answer %d", a)
	}
	if r.err == nil || r.err.Code != codes.GuestCrash {
		t.Fatalf("err %+v", r.err)
	}
}

func TestMalformedCallCrashesOnlyThatRun(t *testing.T) {
	r := &run{limits: Limits{}.WithDefaults(), pending: map[int]*pendingCall{}, stopCh: make(chan struct{}), done: make(chan struct{})}
	if a := r.onCall(1, []byte("add\n{")); a != answerStop || r.err.Code != codes.GuestCrash {
		t.Fatalf("answer %d err %+v", a, r.err)
	}
	res := runJS(t, `return 7`, Limits{}, nil)
	if res.Err != nil || string(res.Value) != "7" {
		t.Fatalf("next run: %+v %s", res.Err, res.Value)
	}
}
