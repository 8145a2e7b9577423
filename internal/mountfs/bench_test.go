//go:build linux

package mountfs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchResolvers runs fn with openat2 and with the fallback.
func benchResolvers(b *testing.B, fn func(b *testing.B, fallback bool)) {
	for _, fb := range []bool{false, true} {
		name := "openat2"
		if fb {
			name = "fallback"
		}
		b.Run(name, func(b *testing.B) { fn(b, fb) })
	}
}

var mib = bytes.Repeat([]byte("0123456789abcdef"), 1<<16)

func BenchmarkRead1MiB(b *testing.B) {
	benchResolvers(b, func(b *testing.B, fb bool) {
		f, dir := rwFS(b, fb)
		writeFile(b, filepath.Join(dir, "sub", "dir", "f.bin"), string(mib))
		b.SetBytes(int64(len(mib)))
		for b.Loop() {
			// A new session each time: a first read, which hashes.
			if _, _, _, err := f.NewSession().Read("/data/sub/dir/f.bin"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReread1MiB reads the same file again in one session: no hash.
func BenchmarkReread1MiB(b *testing.B) {
	benchResolvers(b, func(b *testing.B, fb bool) {
		f, dir := rwFS(b, fb)
		writeFile(b, filepath.Join(dir, "sub", "dir", "f.bin"), string(mib))
		s := f.NewSession()
		b.SetBytes(int64(len(mib)))
		for b.Loop() {
			if _, _, _, err := s.Read("/data/sub/dir/f.bin"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkOSReadFile1MiB(b *testing.B) {
	dir := b.TempDir()
	writeFile(b, filepath.Join(dir, "sub", "dir", "f.bin"), string(mib))
	b.SetBytes(int64(len(mib)))
	for b.Loop() {
		if _, err := os.ReadFile(filepath.Join(dir, "sub", "dir", "f.bin")); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite1MiBCommit(b *testing.B) {
	benchResolvers(b, func(b *testing.B, fb bool) {
		f, dir := rwFS(b, fb)
		writeFile(b, filepath.Join(dir, "sub", "f.bin"), "old")
		b.SetBytes(int64(len(mib)))
		for b.Loop() {
			s := f.NewSession()
			if _, err := s.Write("/data/sub/f.bin", mib); err != nil {
				b.Fatal(err)
			}
			if r := s.Commit(); len(r.Committed) != 1 {
				b.Fatalf("%+v", r)
			}
		}
	})
}

// BenchmarkOSWriteFile1MiB is a plain os.WriteFile: no fsync, no rename,
// no checks.
func BenchmarkOSWriteFile1MiB(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.bin")
	b.SetBytes(int64(len(mib)))
	for b.Loop() {
		if err := os.WriteFile(p, mib, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOSWriteFileSyncRename1MiB is the same durability as a commit
// done with the os package: temp file, fsync, rename, directory fsync.
func BenchmarkOSWriteFileSyncRename1MiB(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.bin")
	b.SetBytes(int64(len(mib)))
	for b.Loop() {
		tmp, err := os.CreateTemp(dir, "tmp")
		if err != nil {
			b.Fatal(err)
		}
		tmp.Write(mib)
		tmp.Sync()
		tmp.Close()
		if err := os.Rename(tmp.Name(), p); err != nil {
			b.Fatal(err)
		}
		d, _ := os.Open(dir)
		d.Sync()
		d.Close()
	}
}

func BenchmarkGlob1000(b *testing.B) {
	benchResolvers(b, func(b *testing.B, fb bool) {
		f, dir := rwFS(b, fb)
		for i := range 1000 {
			writeFile(b, filepath.Join(dir, fmt.Sprintf("d%d", i%10), fmt.Sprintf("e%d", i%7), fmt.Sprintf("f%d.txt", i)), "")
		}
		s := f.NewSession()
		for b.Loop() {
			got, err := s.Glob("/data/**/*.txt")
			if err != nil || len(got) != 1000 {
				b.Fatal(len(got), err)
			}
		}
	})
}
