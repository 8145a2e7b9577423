package modebox

import (
	"context"
	"encoding/json"
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
		if os.Getenv("CI") != "" {
			t.Fatal("this test counts fds in /proc/self/fd: CI must run on Linux")
		}
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

// TestResumeOnClosedImageKeepsToken: resuming on an engine whose image was
// closed refuses with CodeImageClosed before the token is claimed, so the
// same token still resumes on an engine with a working image (a user's
// approval is not lost to an embedder's shutdown).
func TestResumeOnClosedImageKeepsToken(t *testing.T) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i + 1)
	}
	store := DirTokenStore(t.TempDir())
	guarded := Tool{Namespace: "t", Name: "guarded", Policy: PolicyAsk, Handler: func(context.Context, json.RawMessage) (any, error) { return "ran", nil }}
	engineWith := func(im *Image) *Engine {
		e, err := New(EngineConfig{Image: im, Tools: []Tool{guarded}, Continuations: &Continuations{Keys: [][]byte{key}, Store: store}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	im, err := LoadImage(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	closing := engineWith(im)
	r, err := closing.Run(t.Context(), `return await t.guarded({})`, RunOptions{})
	if err != nil || r.Status != StatusPaused || r.Token == "" {
		t.Fatalf("want a pause: %v %+v", err, r)
	}
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	res, err := closing.Resume(t.Context(), r.Token, Decisions{Default: Approve})
	if err != nil || res.Error == nil || res.Error.Code != CodeImageClosed {
		t.Fatalf("resume on a closed image: %v %+v", err, res)
	}
	res, err = engineWith(nil).Resume(t.Context(), r.Token, Decisions{Default: Approve})
	if err != nil || res.Status != StatusOK || string(res.Value) != `"ran"` {
		t.Fatalf("the token must still resume on a working engine: %v %+v", err, res)
	}
}
