// Package engine runs guest programs in the QuickJS engine image under
// wazero. It knows wasm and nothing about tools, MCP or the CLI: a run gets
// code, a setup blob for the prelude, limits and a Host that answers calls.
//
// The module is compiled once per process (with an on-disk compilation
// cache). After compiling, one instance is initialised (QuickJS runtime,
// context, prelude) and the memory that init changed is kept as a snapshot.
// A run takes an idle instance reset to the snapshot, or instantiates a
// fresh module and restores the snapshot into it (by copying, or, once
// more than a few runs are live, by mapping it copy-on-write). After the
// run the instance is reset and kept, or closed: always after a trap,
// since wazero leaves a trapped instance callable (see instance.go).
package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/modebox/modebox/internal/guest"
)

// MaxMemoryPages caps every instance's linear memory (4 GiB, the wasm32
// limit). Per-run memory caps are enforced below it, see Limits.Memory.
const MaxMemoryPages = 65536

const pageSize = 65536

// Engine is the compiled engine image plus its init snapshot. It is safe
// for concurrent runs.
type Engine struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	snap     snapshot

	// reusable is set when the image exports its stack pointer (see
	// withStackPointerExport), so that a run's instance can be reset and
	// kept for the next run (see instance.go).
	reusable bool
	idleMu   sync.Mutex
	idle     []*instance
	// cow is the snapshot in a sealed memfd, mapped copy-on-write into the
	// memory of runs that share it (see instance.go); nil where there is
	// none (not Linux, or the image kept its data segments).
	cow *cowImage
	// live counts the runs in flight: from their instance's acquire until
	// they hand it back (beginRelease; its reset may come later), and
	// those hibernated (hibernate.go).
	live atomic.Int32
	// released1 is set once a run has handed its instance back: replenish
	// restores spares from then on.
	released1 atomic.Bool

	// Guarded by idleMu: closed is set by Close; inflight counts the runs
	// holding an instance (and replenish's restores), so that the runtime
	// and the snapshot image are freed only once the last of them has
	// ended (see Close).
	closed   bool
	inflight int
	// derivedHeld counts the derived engines (setup.go) not yet freed:
	// like a run, each holds the runtime and compiled module it shares.
	derivedHeld int
	// Guarded by idleMu too (see beginRelease): dirty holds the ended
	// runs' instances not yet reset; resetting counts, by memory cap, those
	// their runs are resetting now, restoring those replenish is restoring,
	// and waiters the acquires waiting for a reset; releasing counts the
	// runs between beginRelease and the end of endRelease and replenish's
	// restores, and released, when not nil, is closed when releasing drops
	// to zero (awaitResets).
	dirty     []*instance
	resetting map[uint32]int
	restoring map[uint32]int // by replenish, by memory cap
	waiters   []*resetWaiter
	releasing int
	released  chan struct{}
	// shared is the engine Shared returns, which Close leaves open.
	shared bool
	// base is the engine a derived engine (setup.go) was made from: it
	// shares base's runtime and compiled module and holds base until it is
	// freed. setups are an engine's derived engines.
	base   *Engine
	setups setups
	// Guarded by hibMu (hibernate.go): the runs armed to hibernate, and
	// whether the sweeper that hibernates them is running.
	hibMu       sync.Mutex
	hibRuns     map[*run]struct{}
	hibSweeping bool
}

// ErrClosed is returned (wrapped) where an engine is used after Close.
var ErrClosed = errors.New("engine: the engine image is closed")

var (
	sharedOnce sync.Once
	shared     *Engine
	sharedErr  error
)

// Shared returns the process-wide engine, compiling the image on first use
// with its compilation cache in DefaultCacheDir(). Engines that need
// another cache (or none) use Load.
func Shared() (*Engine, error) {
	sharedOnce.Do(func() {
		shared, sharedErr = load(context.Background(), DefaultCacheDir())
		if shared != nil {
			shared.shared = true
		}
	})
	return shared, sharedErr
}

// Load compiles the engine image, keeping compiled code in the on-disk
// cache dir ("": no cache; an unusable dir: no cache either). The engine
// holds its compiled code, its snapshot and idle instances until Close.
func Load(ctx context.Context, dir string) (*Engine, error) { return load(ctx, dir) }

// DefaultCacheDir is where the process-wide engine caches compiled code:
// $MODEBOX_CACHE_DIR, or modebox/wazero under the user's cache directory
// ("" when there is none).
func DefaultCacheDir() string {
	if d := os.Getenv("MODEBOX_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "modebox", "wazero")
}

func load(ctx context.Context, dir string) (*Engine, error) {
	cfg := wazero.NewRuntimeConfigCompiler().
		WithMemoryLimitPages(MaxMemoryPages).
		WithCloseOnContextDone(false)
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err == nil {
			if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
				cfg = cfg.WithCompilationCache(cache)
			}
		}
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := defineHost(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("engine: define host functions: %w", err)
	}
	img, segs, stripped := withoutData(guest.Wasm)
	img, reusable := withStackPointerExport(img)
	compiled, err := rt.CompileModule(ctx, img)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("engine: compile image: %w", err)
	}
	e := &Engine{rt: rt, compiled: compiled, reusable: reusable}
	if err := e.takeSnapshot(ctx, segs, stripped); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return e, nil
}

// Imports lists the module's imports as module.name.
func (e *Engine) Imports() []string {
	var out []string
	for _, f := range e.compiled.ImportedFunctions() {
		mod, name, _ := f.Import()
		out = append(out, mod+"."+name)
	}
	for _, m := range e.compiled.ImportedMemories() {
		mod, name, _ := m.Import()
		out = append(out, mod+"."+name)
	}
	return out
}

// SnapshotBytes is how many bytes a run restores on top of a fresh instance.
func (e *Engine) SnapshotBytes() int {
	n := 0
	for _, c := range e.snap.chunks {
		n += len(c.data)
	}
	return n
}

// snapshot is the memory init changed, relative to a fresh instance.
type snapshot struct {
	pages  uint32
	chunks []chunk
	// image is the whole post-init memory (pages long) as chunks of
	// non-zero bytes; what lies between them is zero. Resetting a used
	// instance writes the chunks and clears the gaps.
	image []chunk
	// sp is the stack pointer's value after init.
	sp uint64
}

type chunk struct {
	off  uint32
	data []byte
}

const chunkSize = 256

// moduleConfig is the same for every instance, so it is built once. The
// module imports nothing of WASI, so it has no use for wazero's default
// random source (a math/rand seeded per instance); noRandom costs nothing.
var moduleConfig = wazero.NewModuleConfig().WithName("").WithStartFunctions().WithRandSource(noRandom{})

// noRandom is a random source that has no randomness to give.
type noRandom struct{}

func (noRandom) Read([]byte) (int, error) { return 0, errors.New("engine: no random source") }

func (e *Engine) instantiate(ctx context.Context) (api.Module, error) {
	return e.rt.InstantiateModule(ctx, e.compiled, moduleConfig)
}

// takeSnapshot initialises one instance and keeps its memory. segs are the
// image's data segments when withoutData took them out (stripped): they are
// written here, into this instance only.
func (e *Engine) takeSnapshot(ctx context.Context, segs []chunk, stripped bool) error {
	ctx, mod, r, pristine, err := e.snapshotInstance(ctx)
	if err != nil {
		return err
	}
	defer mod.Close(ctx)
	mem := mod.Memory()
	for _, sg := range segs {
		if !mem.Write(sg.off, sg.data) {
			return errors.New("engine: a data segment does not fit the memory")
		}
	}

	if _, err := mod.ExportedFunction("_initialize").Call(ctx); err != nil {
		return fmt.Errorf("engine: _initialize: %w", err)
	}
	// the prelude's text, NUL-terminated, in a buffer of at least
	// preludeRoom bytes: freed after init, it is the biggest free block
	// runs find below the top of the heap, so its size (not the prelude's)
	// says how big a block a run can allocate without growing its memory
	text := make([]byte, max(len(guest.Prelude)+1, preludeRoom))
	copy(text, guest.Prelude)
	ptr, err := writeGuest(ctx, mod, text, false)
	if err != nil {
		return err
	}
	res, err := mod.ExportedFunction("mb_init").Call(ctx, uint64(ptr), uint64(len(guest.Prelude)), guest.JSStackSize)
	if err != nil {
		return fmt.Errorf("engine: init: %w (%s)", err, r.panicMsg)
	}
	if res[0] != 0 {
		return fmt.Errorf("engine: init failed with status %d: %s", res[0], r.panicMsg)
	}
	if _, err := mod.ExportedFunction("mb_free").Call(ctx, uint64(ptr)); err != nil {
		return fmt.Errorf("engine: init: %w", err)
	}
	final, _ := mem.Read(0, mem.Size())
	sp, ok := stackPointer(mod)
	if !ok {
		e.reusable = false
	}
	e.snap = makeSnapshot(final, pristine, sp)
	if stripped {
		e.cow, _ = newCowImage(final) // none: every run copies
	}
	return nil
}

// snapshotInstance is a fresh instance for init (takeSnapshot) or
// mb_setup (takeSetupSnapshot) to run in before a snapshot is taken, the
// context its calls take (their events go to r, an init-only run) and its
// memory as instantiated (pristine), which the snapshot's chunks are
// relative to.
func (e *Engine) snapshotInstance(ctx context.Context) (_ context.Context, mod api.Module, r *run, pristine []byte, err error) {
	r = &run{initOnly: true, now: time.Now}
	ctx = withRun(ctx, r)
	mod, err = e.instantiate(ctx)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("engine: instantiate: %w", err)
	}
	mem := mod.Memory()
	pristine, _ = mem.Read(0, mem.Size())
	return ctx, mod, r, bytes.Clone(pristine), nil
}

// growTo grows mem to pages, if it is smaller.
func growTo(mem api.Memory, pages uint32) error {
	if cur := mem.Size() / pageSize; cur < pages {
		if _, ok := mem.Grow(pages - cur); !ok {
			return errors.New("engine: cannot grow memory to the snapshot size")
		}
	}
	return nil
}

// writeChunks writes a snapshot's chunks into mem.
func writeChunks(mem api.Memory, chunks []chunk) error {
	for _, c := range chunks {
		if !mem.Write(c.off, c.data) {
			return errors.New("engine: snapshot does not fit the memory")
		}
	}
	return nil
}

// stackPointer is mod's stack pointer, exported as spExport; ok is false
// when the image does not export it (its instances cannot be reset).
func stackPointer(mod api.Module) (sp uint64, ok bool) {
	g, ok := mod.ExportedGlobal(spExport).(api.MutableGlobal)
	if !ok {
		return 0, false
	}
	return g.Get(), true
}

// makeSnapshot is the snapshot of final, an instance's memory whose stack
// pointer is sp, against pristine, a fresh instance's memory.
func makeSnapshot(final, pristine []byte, sp uint64) snapshot {
	snap := snapshot{pages: uint32(len(final) / pageSize), sp: sp}
	for off := 0; off < len(final); off += chunkSize {
		cur := final[off:min(off+chunkSize, len(final))]
		if allZero(cur) {
			continue
		}
		if n := len(snap.image); n > 0 && snap.image[n-1].off+uint32(len(snap.image[n-1].data)) == uint32(off) {
			snap.image[n-1].data = append(snap.image[n-1].data, cur...)
			continue
		}
		snap.image = append(snap.image, chunk{off: uint32(off), data: bytes.Clone(cur)})
	}
	for off := 0; off < len(final); off += chunkSize {
		end := min(off+chunkSize, len(final))
		var old []byte
		if off < len(pristine) {
			old = pristine[off:min(end, len(pristine))]
		}
		cur := final[off:end]
		if bytes.Equal(cur, old) || (old == nil && allZero(cur)) {
			continue
		}
		if n := len(snap.chunks); n > 0 && snap.chunks[n-1].off+uint32(len(snap.chunks[n-1].data)) == uint32(off) {
			snap.chunks[n-1].data = append(snap.chunks[n-1].data, cur...)
			continue
		}
		snap.chunks = append(snap.chunks, chunk{off: uint32(off), data: bytes.Clone(cur)})
	}
	return snap
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// restore makes a fresh instance whose memory is the post-init snapshot.
func (e *Engine) restore(ctx context.Context) (api.Module, error) { return e.restoreMapped(ctx, nil) }

// restoreMapped is restore, skipping the copy when *mapped says the
// instance's allocator mapped the snapshot image already.
func (e *Engine) restoreMapped(ctx context.Context, mapped *bool) (api.Module, error) {
	mod, err := e.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	mem := mod.Memory()
	if err := growTo(mem, e.snap.pages); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	if mapped != nil && *mapped {
		return mod, nil
	}
	if err := writeChunks(mem, e.snap.chunks); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return mod, nil
}

// preludeRoom is the least size of the buffer init reads the prelude from
// (see init).
const preludeRoom = 128 << 10

// writeGuest copies b into memory allocated by the guest's mb_alloc, with
// a trailing NUL when nul is set. The guest frees it.
func writeGuest(ctx context.Context, mod api.Module, b []byte, nul bool) (uint32, error) {
	return writeWith(ctx, mod, mod.ExportedFunction("mb_alloc"), make([]uint64, 1), b, nul)
}

// writeWith is writeGuest with the mb_alloc function already looked up
// (each lookup makes a new call engine in wazero) and a kept call stack
// of at least one value: CallWithStack with it allocates nothing, where
// Call allocates its parameters and results at every call.
func writeWith(ctx context.Context, mod api.Module, alloc api.Function, stack []uint64, b []byte, nul bool) (uint32, error) {
	n := len(b)
	if nul {
		n++
	}
	stack[0] = uint64(n)
	if err := alloc.CallWithStack(ctx, stack); err != nil {
		return 0, err
	}
	ptr := uint32(stack[0])
	if ptr == 0 {
		return 0, errOutOfGuestMemory
	}
	mem := mod.Memory()
	if !mem.Write(ptr, b) {
		return 0, errOutOfGuestMemory
	}
	if nul && !mem.WriteByte(ptr+uint32(len(b)), 0) {
		return 0, errOutOfGuestMemory
	}
	return ptr, nil
}

var errOutOfGuestMemory = errors.New("engine: guest out of memory for host data")
