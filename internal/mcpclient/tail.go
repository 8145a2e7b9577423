package mcpclient

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// tailSize is how many bytes of a server's stderr are kept.
const tailSize = 4096

// tailBuffer keeps the last tailSize bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	trunc bool // bytes were dropped from the front
}

// Write implements io.Writer; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.trunc = true
	}
	return len(p), nil
}

// String returns the kept text, valid UTF-8. When the front was dropped,
// the partial first line is cut and "…" marks the cut.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.trunc {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
		return "…" + strings.ToValidUTF8(string(b), "")
	}
	return strings.ToValidUTF8(string(b), "")
}

// lockedWriter serializes writes of several servers to one io.Writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// writeLine writes one line; errors are ignored (stderr is best effort).
func (l *lockedWriter) writeLine(prefix string, line []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, prefix)
	_, _ = l.w.Write(line)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		_, _ = io.WriteString(l.w, "\n")
	}
}

// prefixWriter forwards whole lines to a lockedWriter with a prefix. It is
// used by one goroutine only.
type prefixWriter struct {
	out     *lockedWriter
	prefix  string
	pending []byte
}

// Write implements io.Writer; it never fails.
func (p *prefixWriter) Write(b []byte) (int, error) {
	p.pending = append(p.pending, b...)
	for {
		i := bytes.IndexByte(p.pending, '\n')
		if i < 0 {
			break
		}
		p.out.writeLine(p.prefix, p.pending[:i+1])
		p.pending = p.pending[i+1:]
	}
	if len(p.pending) > tailSize { // a very long line: flush it in pieces
		p.flush()
	}
	return len(b), nil
}

// flush writes what is left of an unterminated line.
func (p *prefixWriter) flush() {
	if len(p.pending) > 0 {
		p.out.writeLine(p.prefix, p.pending)
		p.pending = nil
	}
}
