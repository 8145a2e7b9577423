package prompt

import (
	"context"
	"io"

	"golang.org/x/term"
)

// maxLineBytes is the longest answer line kept; longer lines are invalid.
const maxLineBytes = 256

// tooLong stands for a line longer than maxLineBytes; it is no valid answer.
const tooLong = "\x00"

// lineResult is one line read from the input, or the error that ended it.
type lineResult struct {
	line string
	err  error
}

// lineReader reads lines on request in a goroutine, so that a blocked read
// can be abandoned when a context is done. It reads only when asked and a
// byte at a time, so input it was not asked for stays unread for others.
//
// busy, started and err belong to the goroutine holding the Prompter's
// turn; skipLF belongs to the reading goroutine.
type lineReader struct {
	in      io.Reader
	req     chan struct{}   // a read is wanted; capacity 1
	resp    chan lineResult // its result; capacity 1
	started bool            // the goroutine runs
	busy    bool            // a read was requested and its result not taken
	err     error           // the input has ended with err
	skipLF  bool            // the last line ended with '\r'
}

func newLineReader(in io.Reader) *lineReader {
	return &lineReader{in: in, req: make(chan struct{}, 1), resp: make(chan lineResult, 1)}
}

// next returns the next line, waiting for it until ctx is done. A read
// abandoned this way stays pending; its line answers the next prompt if
// it arrives after that prompt is shown (see discardStale).
func (lr *lineReader) next(ctx context.Context) (string, error) {
	if lr.err != nil {
		return "", lr.err
	}
	if !lr.busy {
		if !lr.started {
			lr.started = true
			go lr.run()
		}
		lr.req <- struct{}{}
		lr.busy = true
	}
	select {
	case res := <-lr.resp:
		lr.busy = false
		if res.err != nil {
			lr.err = res.err
			return "", res.err
		}
		return res.line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// discardStale drops the result of an abandoned read if it is already
// there: that line was typed before the current prompt appeared.
func (lr *lineReader) discardStale() {
	if !lr.busy {
		return
	}
	select {
	case res := <-lr.resp:
		lr.busy = false
		if res.err != nil {
			lr.err = res.err
		}
	default:
	}
}

// run serves read requests until the input ends.
func (lr *lineReader) run() {
	var pending error
	for range lr.req {
		if pending != nil {
			lr.resp <- lineResult{err: pending}
			return
		}
		line, err := lr.readLine()
		if err != nil && line != "" {
			pending, err = err, nil // answer with the last line first
		}
		lr.resp <- lineResult{line: line, err: err}
		if err != nil {
			return
		}
	}
}

// readLine reads up to and without the next "\n", "\r" or "\r\n".
func (lr *lineReader) readLine() (string, error) {
	var b [1]byte
	var line []byte
	long, idle := false, 0
	for {
		n, err := lr.in.Read(b[:])
		if n > 0 {
			idle = 0
			c := b[0]
			skip := lr.skipLF && c == '\n'
			lr.skipLF = false
			switch {
			case skip:
			case c == '\n' || c == '\r':
				lr.skipLF = c == '\r'
				return lineString(line, long), nil
			case len(line) < maxLineBytes:
				line = append(line, c)
			default:
				long = true
			}
		}
		if err != nil {
			return lineString(line, long), err
		}
		if n == 0 {
			if idle++; idle > 100 {
				return lineString(line, long), io.ErrNoProgress
			}
		}
	}
}

// lineString returns the line read, or tooLong.
func lineString(line []byte, long bool) string {
	if long {
		return tooLong
	}
	return string(line)
}

// fder is implemented by *os.File.
type fder interface{ Fd() uintptr }

// IsTerminal reports whether the file descriptor fd is a terminal.
func IsTerminal(fd uintptr) bool { return term.IsTerminal(int(fd)) }

// geometry returns the size of the terminal Out is, or the default width
// and a zero height if it is not a terminal.
func (p *Prompter) geometry() (width, height int) {
	if f, ok := p.Out.(fder); ok && IsTerminal(f.Fd()) {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w, h
		}
	}
	return defaultWidth, 0
}

// discardTypeahead drops input typed before the prompt is shown: a line
// left from an abandoned read, and anything queued in the terminal.
func (p *Prompter) discardTypeahead() {
	p.lines.discardStale()
	if f, ok := p.In.(fder); ok && IsTerminal(f.Fd()) {
		flushInput(f.Fd())
	}
}
