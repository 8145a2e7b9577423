// Package guest holds the engine image: QuickJS 2021-03-27 compiled to a
// wasm32 reactor module with modebox's glue (src/glue.c), and the JS prelude
// that the engine evaluates once at init.
//
// The module is committed (modebox.wasm) and embedded, so building modebox
// needs no C toolchain; build.sh rebuilds it from the pinned npm tarball and
// CI fails if the rebuilt bytes differ.
package guest

import (
	"crypto/sha256"
	_ "embed" // the engine image
	"encoding/binary"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Wasm is the engine image module.
//
//go:embed modebox.wasm
var Wasm []byte

// Prelude is the JS evaluated once at init: the guest side of Intl
// (intl.js), then the bridge (prelude.js), whose completion
// value is {start, settle, format}, with the built-ins' JavaScript
// (builtins.js, assembled from internal/builtin/<name>/prelude.js) in
// place of its "//@builtins" line. Both begin with the "use nosource"
// directive (patch x5): their functions keep line tables, for stack
// traces, but no copy of their source text in every run's heap.
var Prelude = noSource + intlJS + "\n" + withBuiltins(preludeJS, builtinsJS)

// Sources are the texts the prelude compiles on first use and asks the
// host for (a synchronous host call, as Intl's), so that the snapshot
// every run restores does not hold them: URL (url.js), console's
// directives (console.js), AbortController (abort.js), the ES2025 Set
// methods (setmethods.js), Array.fromAsync (fromasync.js) and Node's
// wrong-argument-type error (argtype.js).
var Sources = map[string]string{
	"url":       noSource + urlJS,
	"console":   noSource + withoutLeadingComment(consoleJS),
	"abort":     noSource + withoutLeadingComment(abortJS),
	"set":       noSource + withoutLeadingComment(setMethodsJS),
	"fromAsync": noSource + withoutLeadingComment(fromAsyncJS),
	"argtype":   noSource + withoutLeadingComment(argTypeJS),
}

const noSource = "'use nosource';\n"

// builtinsMarker is the line of prelude.js that builtins.js replaces.
const builtinsMarker = "  //@builtins\n"

// withBuiltins puts the built-ins' JavaScript in place of prelude's
// marker line, which must be there exactly once.
func withBuiltins(prelude, builtins string) string {
	if strings.Count(prelude, builtinsMarker) != 1 {
		panic("guest: prelude.js must hold the line " + strconv.Quote(builtinsMarker) + " exactly once")
	}
	return strings.Replace(prelude, builtinsMarker, builtins, 1)
}

// builtinsJS is every built-in's part of the prelude, each in its own
// function scope, in the order of their folder names. It is generated
// from internal/builtin/*/prelude.js (go:embed cannot reach outside this
// folder) and committed; TestBuiltinsJS fails when it differs from what
// those files make, and MODEBOX_WRITE_BUILTINS=1 go test -run
// TestBuiltinsJS ./internal/guest/ rewrites it.
//
//go:embed builtins.js
var builtinsJS string

//go:embed url.js
var urlJS string

//go:embed console.js
var consoleJS string

//go:embed abort.js
var abortJS string

//go:embed setmethods.js
var setMethodsJS string

//go:embed fromasync.js
var fromAsyncJS string

//go:embed argtype.js
var argTypeJS string

// withoutLeadingComment is src without the // lines it begins with: a
// run that compiles the text need not read its documentation.
func withoutLeadingComment(src string) string {
	for strings.HasPrefix(src, "//") {
		_, src, _ = strings.Cut(src, "\n")
	}
	return src
}

//go:embed prelude.js
var preludeJS string

//go:embed intl.js
var intlJS string

// Imports lists the functions the module imports, as module.name. There
// are exactly two; a test checks the embedded module against this list.
var Imports = []string{"env.host_clock", "env.host_event"}

// StackSize is the shadow stack the module was linked with (build.sh).
const StackSize = 512 << 10

// JSStackSize is the part of the shadow stack QuickJS may use before it
// throws "stack overflow"; the rest is headroom for C frames below it.
const JSStackSize = 448 << 10

// ABIVersion changes whenever the event protocol between host and guest
// changes in a way that affects runs.
const ABIVersion = 1

var (
	hashOnce sync.Once
	hash     string
)

// ImageHash is the sha256 (hex) over everything that shapes a run: the
// module, the prelude and its Sources, the stack sizes and the ABI
// version.
func ImageHash() string {
	hashOnce.Do(func() {
		h := sha256.New()
		h.Write([]byte("modebox-engine-image\x00"))
		var n [8]byte
		for _, v := range []uint64{ABIVersion, StackSize, JSStackSize, uint64(len(Wasm))} {
			binary.BigEndian.PutUint64(n[:], v)
			h.Write(n[:])
		}
		h.Write(Wasm)
		binary.BigEndian.PutUint64(n[:], uint64(len(Prelude)))
		h.Write(n[:])
		h.Write([]byte(Prelude))
		for _, k := range slices.Sorted(maps.Keys(Sources)) {
			for _, part := range []string{k, Sources[k]} {
				binary.BigEndian.PutUint64(n[:], uint64(len(part)))
				h.Write(n[:])
				h.Write([]byte(part))
			}
		}
		hash = hex.EncodeToString(h.Sum(nil))
	})
	return hash
}
