package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// stampWriter records when each line was written.
type stampWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines map[string]time.Time
}

func (w *stampWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if _, ok := w.lines[l]; !ok {
			w.lines[l] = time.Now()
		}
	}
	return w.buf.Write(p)
}

// TestConsoleStreams checks that `modebox run` prints a console line when
// it is logged, not when the run ends: the line logged before a 2 s timer
// must reach stderr at least 1.5 s before Run returns. (A timer cannot end
// early, so load can only widen the gap; without streaming the gap is the
// time between two prints.)
func TestConsoleStreams(t *testing.T) {
	errw := &stampWriter{lines: map[string]time.Time{}}
	var out bytes.Buffer
	prog := `console.log("first"); await new Promise(r => setTimeout(r, 2000)); console.warn("second"); return 1`
	code := Run([]string{"run", "-"}, Streams{Stdin: strings.NewReader(prog), Stdout: &out, Stderr: errw})
	end := time.Now()
	if code != ExitOK || strings.TrimSpace(out.String()) != "1" {
		t.Fatalf("exit %d %q %q", code, out.String(), errw.buf.String())
	}
	first, ok := errw.lines["first"]
	if !ok || end.Sub(first) < 1500*time.Millisecond {
		t.Fatalf("the first line reached stderr %v before the run ended (want ≥ 1.5s): %q", end.Sub(first), errw.buf.String())
	}
	if errw.buf.String() != "first\n[warn] second\n" {
		t.Fatalf("each line once, in order: %q", errw.buf.String())
	}
}
