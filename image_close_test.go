package modebox

import (
	"os"
	"runtime"
	"testing"
)

// TestImageCloseReleases is an embedder that makes an image per tenant:
// 50 times, load an image, run on an engine made with it, close both. The
// process's open fds must not grow, and a run after Close fails with
// CodeImageClosed. Closing the default image (or a nil one) does nothing.
func TestImageCloseReleases(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts fds in /proc/self/fd")
	}
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatalf("cannot count open fds: %v", err)
		}
		return len(ents)
	}
	dir := t.TempDir()
	tenant := func() (*Image, *Engine) {
		im, err := LoadImage(dir)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(EngineConfig{Image: im})
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Run(t.Context(), "return 40 + 2", RunOptions{})
		if err != nil || r.Error != nil || string(r.Value) != "42" {
			t.Fatalf("run: %v %+v %s", err, r.Error, r.Value)
		}
		return im, e
	}
	im, e := tenant() // warm: compiles into the cache
	e.Close()
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	before := fds()
	for i := range 50 {
		im, e := tenant()
		if err := im.Close(); err != nil {
			t.Fatal(err)
		}
		if err := im.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := e.Run(t.Context(), "return 1", RunOptions{})
		if err != nil || r.Error == nil || r.Error.Code != CodeImageClosed {
			t.Fatalf("image %d: run after Close: %v %+v", i, err, r)
		}
		e.Close()
	}
	if after := fds(); after > before+3 {
		t.Fatalf("open fds grew from %d to %d over 50 closed images", before, after)
	}

	def, err := DefaultImage()
	if err != nil {
		t.Fatal(err)
	}
	if err := def.Close(); err != nil {
		t.Fatal(err)
	}
	var none *Image
	if err := none.Close(); err != nil {
		t.Fatal(err)
	}
	for _, im := range []*Image{def, nil} {
		e, err := New(EngineConfig{Image: im})
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Run(t.Context(), "return 3", RunOptions{})
		if err != nil || r.Error != nil || string(r.Value) != "3" {
			t.Fatalf("the default image after Close: %v %+v", err, r)
		}
		e.Close()
	}
}
