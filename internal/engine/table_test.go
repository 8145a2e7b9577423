package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/modebox/modebox/internal/guest"
)

// TestImageNeverWritesItsTable guards what instance reuse assumes (see
// instance.go): the reset restores memory and the stack pointer only, so
// the image must have no instruction that changes its function table, and
// only active element segments (a passive one could be loaded later by
// table.init). It disassembles the committed image with binaryen's
// wasm-dis (.ci/run installs binaryen).
func TestImageNeverWritesItsTable(t *testing.T) {
	dis, err := exec.LookPath("wasm-dis")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("wasm-dis (Debian package binaryen) is missing")
		}
		t.Skip("wasm-dis (binaryen) not installed")
	}
	in := filepath.Join(t.TempDir(), "modebox.wasm")
	if err := os.WriteFile(in, guest.Wasm, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(dis, in).Output()
	if err != nil {
		t.Fatalf("wasm-dis: %v", err)
	}
	if err := tableChanges(out); err != nil {
		t.Fatal(err)
	}
	// the check itself catches what it looks for
	for _, bad := range []string{
		" (func $f\n  (call_indirect (type $0) (i32.const 0))\n  (table.set $0 (i32.const 1) (ref.null func))\n )\n (elem (i32.const 1) $f)\n",
		" (func $f\n  (call_indirect (type $0) (i32.const 0))\n  (drop (table.grow $0 (ref.null func) (i32.const 1)))\n )\n",
		" (func $f\n  (call_indirect (type $0) (i32.const 0))\n )\n (elem $e func $f)\n",
	} {
		if tableChanges([]byte(bad)) == nil {
			t.Errorf("tableChanges accepts %q", bad)
		}
	}
}

// tableChanges returns an error when a disassembly (wasm-dis's text) has an
// instruction that changes the function table or a passive or declared
// element segment.
func tableChanges(out []byte) error {
	if !bytes.Contains(out, []byte("call_indirect")) {
		return errors.New("the disassembly has no call_indirect: not the image's text, the check would pass on nothing")
	}
	if m := regexp.MustCompile(`\(table\.(set|grow|fill|copy|init)\b|\(elem\.drop\b`).Find(out); m != nil {
		return fmt.Errorf("the image changes its function table (%s): a reused instance would keep the change; reset the table in instance.go or turn reuse off", m)
	}
	for _, line := range regexp.MustCompile(`(?m)^ *\(elem\b.*$`).FindAll(out, -1) {
		// binaryen prints an active segment with its offset expression:
		// (elem $0 (i32.const 1) ...) or (elem $0 (table $0) (i32.const 1) ...).
		if !regexp.MustCompile(`\((i32|i64)\.const `).Match(line) && !bytes.Contains(line, []byte("(global.get ")) {
			return fmt.Errorf("a passive or declared element segment: %.120s", line)
		}
	}
	return nil
}
