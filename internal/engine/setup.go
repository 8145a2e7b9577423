package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// A run's setup (Request.Setup: the toolbox's tools and the built-ins it
// enables) is installed by the prelude before the program runs: a tools
// object with a function per tool and namespaces that answer missing names,
// the built-ins' globals or their stand-ins. That costs ~8 µs of guest time
// per tool at every run's start (a run of `return 1` with 50 tools took
// ~0.45 ms against ~0.05 with none). So an engine installs a setup it has
// seen before once, into a snapshot of its own: a derived engine that
// shares the compiled module and takes that snapshot after the prelude's
// setup (mb_setup), with its own instances, resets and copy-on-write image.
// Runs with that setup run on it and install nothing (mb_run is given no
// setup). A program sees what it would see had its run installed the
// setup (the same objects, globals and stand-ins; the heap is laid out
// otherwise), but for the order: the setup is in place before the
// program's script is evaluated rather than just after (the script only
// makes the program's function; nothing of the program runs in between).
//
// A setup is derived the second time a run brings it, once a run on the
// engine has ended (an engine that runs one program derives nothing), in
// the background: runs meanwhile install it themselves. An engine keeps
// setupsMax derived engines, dropping the one used least recently (closed:
// its runs in flight finish). A setup whose installation fails keeps its
// place, as failed (until it is the one dropped): its runs install it
// themselves and report the failure.

// setupsMax is how many derived engines an engine keeps. Each holds its
// snapshot (the image and the chunks a restore writes: 2 × ~640 KB of Go
// heap), its copy-on-write memfd (~1.2 MB) and its idle instances.
const setupsMax = 4

// setupSeenMax bounds the setups counted before they are derived.
const setupSeenMax = 64

// deriveSetups turns derived engines on; tests turn it off to compare a
// run that installs its setup with one that starts with it installed.
var deriveSetups = newFlag(true)

// setups is an engine's derived engines, by setup.
type setups struct {
	mu      sync.Mutex
	byKey   map[string]*derived
	seen    map[string]bool // setups run once, not derived yet
	clock   uint64          // counts lookups, for least recently used
	closed  bool            // the engine is closed: derive nothing more
	derives int             // derivations begun (for tests)
}

// derived is one setup's derived engine.
type derived struct {
	eng    *Engine // nil while it is made, or when that failed
	failed bool
	used   uint64 // setups.clock at its last use
}

// forSetup returns the derived engine to run a run with setup on, or nil
// when the run installs its setup itself (on e). It may begin deriving one
// in the background.
func (e *Engine) forSetup(setup []byte) *Engine {
	if e.base != nil || len(setup) == 0 || !deriveSetups.Load() {
		return nil
	}
	s := &e.setups
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.clock++
	if d, ok := s.byKey[string(setup)]; ok {
		d.used = s.clock
		return d.eng
	}
	if !e.released1.Load() {
		return nil // no run has ended yet: maybe none comes after this one
	}
	if !s.seen[string(setup)] {
		if len(s.seen) >= setupSeenMax {
			clear(s.seen)
		}
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		s.seen[string(setup)] = true
		return nil
	}
	delete(s.seen, string(setup))
	if len(s.byKey) >= setupsMax && !s.evictLocked() {
		return nil // all are being made
	}
	if s.byKey == nil {
		s.byKey = map[string]*derived{}
	}
	key := string(setup)
	d := &derived{used: s.clock}
	s.byKey[key] = d
	s.derives++
	go func() {
		eng, err := e.derive(context.Background(), []byte(key))
		s.mu.Lock()
		switch {
		case err != nil:
			d.failed = true
		case s.byKey[key] == d && !s.closed:
			d.eng, eng = eng, nil
		}
		s.mu.Unlock()
		if eng != nil { // dropped or closed while it was made
			_ = eng.Close()
		}
	}()
	return nil
}

// evictLocked closes the derived engine used least recently, of those made
// (or failed); false when every one is still being made. The caller holds
// s.mu.
func (s *setups) evictLocked() bool {
	var oldKey string
	var old *derived
	for k, d := range s.byKey {
		if (d.eng != nil || d.failed) && (old == nil || d.used < old.used) {
			oldKey, old = k, d
		}
	}
	if old == nil {
		return false
	}
	delete(s.byKey, oldKey)
	if old.eng != nil {
		go old.eng.Close() // its runs finish first; Close waits for their resets
	}
	return true
}

// closeAll closes the derived engines, and derives nothing after (Close).
func (s *setups) closeAll() {
	s.mu.Lock()
	s.closed = true
	var engs []*Engine
	for _, d := range s.byKey {
		if d.eng != nil {
			engs = append(engs, d.eng)
		}
	}
	s.byKey, s.seen = nil, nil
	s.mu.Unlock()
	for _, d := range engs {
		_ = d.Close()
	}
}

// derive makes the engine of setup: it holds e (whose compiled module and
// runtime it shares) until it is freed, and takes its snapshot from an
// instance restored from e's snapshot once mb_setup has installed setup.
func (e *Engine) derive(ctx context.Context, setup []byte) (*Engine, error) {
	e.idleMu.Lock()
	if e.closed {
		e.idleMu.Unlock()
		return nil, ErrClosed
	}
	e.derivedHeld++
	e.idleMu.Unlock()
	d := &Engine{rt: e.rt, compiled: e.compiled, reusable: e.reusable, base: e}
	if err := d.takeSetupSnapshot(ctx, setup); err != nil {
		e.unholdDerived()
		return nil, err
	}
	return d, nil
}

// errSetup is returned (wrapped) when mb_setup fails: the setup's runs
// install it themselves, and report why.
var errSetup = errors.New("engine: the setup could not be installed")

// takeSetupSnapshot restores an instance from the base engine's snapshot,
// installs setup in it (mb_setup) and keeps its memory as d's snapshot.
func (d *Engine) takeSetupSnapshot(ctx context.Context, setup []byte) error {
	ctx, mod, r, pristine, err := d.snapshotInstance(ctx)
	if err != nil {
		return err
	}
	defer mod.Close(ctx)
	mem := mod.Memory()
	if err := growTo(mem, d.base.snap.pages); err != nil {
		return err
	}
	if err := writeChunks(mem, d.base.snap.chunks); err != nil {
		return err
	}
	ptr, err := writeGuest(ctx, mod, setup, true)
	if err != nil {
		return err
	}
	fn := mod.ExportedFunction("mb_setup")
	if fn == nil {
		return fmt.Errorf("%w: the image has no mb_setup", errSetup)
	}
	res, err := fn.Call(ctx, uint64(ptr), uint64(len(setup)))
	if err != nil {
		return fmt.Errorf("%w: %w (%s)", errSetup, err, r.panicMsg)
	}
	if res[0] != 0 {
		return fmt.Errorf("%w: status %d: %s", errSetup, res[0], r.panicMsg)
	}
	final, _ := mem.Read(0, mem.Size())
	sp, ok := stackPointer(mod)
	if !ok {
		d.reusable = false
	}
	d.snap = makeSnapshot(final, pristine, sp)
	if d.base.cow != nil {
		d.cow, _ = newCowImage(final) // none: every run copies
	}
	return nil
}
