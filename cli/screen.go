package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modebox/modebox/internal/prompt"
)

// maxHeld is how many bytes of lines a screen holds while a prompt is on
// the terminal; later lines are counted and not shown.
const maxHeld = 64 << 10

// progressEvery is the least time between two progress lines a screen
// shows; the ones in between are counted and not shown.
const progressEvery = 100 * time.Millisecond

// screen is where a run's streamed lines (console output and downstream
// progress) meet the approval prompt on stderr. While a prompt is on the
// terminal the lines are held and shown after the answer, so that nothing
// a program or a server prints can scroll the prompt away or draw another
// one under it: the person answers the prompt they see. On a terminal the
// lines are sanitised (prompt.Sanitize), so that they cannot move the
// cursor, erase, or send the terminal other commands; elsewhere (a file, a
// pipe) they are written as they are.
type screen struct {
	w        io.Writer
	terminal bool

	mu        sync.Mutex
	prompting int      // prompts being shown or waiting for their turn
	held      []string // lines to show after the prompt
	heldBytes int
	dropped   int // lines not held (over maxHeld)
	lastProg  time.Time
	skipped   int // progress lines not shown (over progressEvery)
}

// newScreen returns the screen for s's stderr.
func newScreen(s Streams) *screen {
	f, ok := s.Stderr.(*os.File)
	return &screen{w: s.Stderr, terminal: ok && prompt.IsTerminal(f.Fd())}
}

// line shows one line (without its newline), or holds it while a prompt
// is on the terminal.
func (c *screen) line(text string) {
	if c.terminal {
		text = prompt.Sanitize(text)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lineLocked(text)
}

func (c *screen) lineLocked(text string) {
	if c.prompting == 0 {
		fmt.Fprintln(c.w, text)
		return
	}
	if c.heldBytes+len(text) > maxHeld {
		c.dropped++
		return
	}
	c.held = append(c.held, text)
	c.heldBytes += len(text)
}

// progress shows a progress line (already sanitised), unless one was
// shown less than progressEvery ago: a server that reports progress
// without pause cannot flood the terminal. The count of lines not shown
// goes with the next one shown.
func (c *screen) progress(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if !c.lastProg.IsZero() && now.Sub(c.lastProg) < progressEvery {
		c.skipped++
		return
	}
	c.lastProg = now
	if c.skipped > 0 {
		text += fmt.Sprintf(" (%d more progress lines not shown)", c.skipped)
		c.skipped = 0
	}
	c.lineLocked(text)
}

// begin is called before a prompt is shown: lines are held from now.
func (c *screen) begin() {
	c.mu.Lock()
	c.prompting++
	c.mu.Unlock()
}

// end is called once the prompt begun last is answered: when no other
// prompt is waiting, the held lines are shown.
func (c *screen) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prompting--; c.prompting > 0 {
		return
	}
	for _, l := range c.held {
		fmt.Fprintln(c.w, l)
	}
	if c.dropped > 0 {
		fmt.Fprintf(c.w, "[modebox] %d lines printed while the prompt was shown are not shown (over %d KiB)\n", c.dropped, maxHeld>>10)
	}
	c.held, c.heldBytes, c.dropped = nil, 0, 0
}
