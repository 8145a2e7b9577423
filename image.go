package modebox

import (
	"context"
	"fmt"

	"github.com/modebox/modebox/internal/engine"
)

// Image is the engine image loaded for running: the wasm module compiled
// to native code, and the snapshot of its initialised memory every run
// starts from. Compiling takes a while and the compiled code is large, so
// engines share one Image; it is safe for concurrent use. An Image from
// LoadImage holds its resources until Close.
type Image struct {
	eng *engine.Engine
}

// LoadImage compiles the engine image, keeping compiled code in the
// on-disk cache cacheDir so that the next process starts fast ("": no
// cache). Use it to choose the cache (or to run engines on separate
// images); EngineConfig.Image nil uses the process-wide image instead.
func LoadImage(cacheDir string) (*Image, error) {
	eng, err := engine.Load(context.Background(), cacheDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEngine, err)
	}
	return &Image{eng: eng}, nil
}

// Close releases the image: its compiled code, its wazero runtime, its
// snapshot of initialised memory (on Linux, a memory file descriptor) and
// the reset instances it keeps for the next runs. A run in flight on it
// finishes first; its instance is then closed, not kept. Runs that start
// after Close, on any engine made with the image, fail with
// CodeImageClosed and run nothing. Close is idempotent and safe for
// concurrent use. It never closes the process-wide image: on the Image
// DefaultImage returns, and on a nil Image, it does nothing.
func (im *Image) Close() error {
	if im == nil || im.eng == nil {
		return nil
	}
	return im.eng.Close()
}

// DefaultImage returns the process-wide image, compiled on first use with
// its cache in DefaultCacheDir. It is what an engine with no
// EngineConfig.Image runs on.
func DefaultImage() (*Image, error) {
	eng, err := engine.Shared()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEngine, err)
	}
	return &Image{eng: eng}, nil
}

// DefaultCacheDir is the compilation cache of the process-wide image:
// $MODEBOX_CACHE_DIR, or modebox/wazero under the user's cache directory
// ("" when there is none, and then nothing is cached).
func DefaultCacheDir() string { return engine.DefaultCacheDir() }

// load returns the image's engine (nil: the process-wide one).
func (im *Image) load() (*engine.Engine, error) {
	if im != nil && im.eng != nil {
		return im.eng, nil
	}
	return engine.Shared()
}
