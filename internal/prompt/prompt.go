// Package prompt asks a person on a terminal whether a tool call may run.
//
// The call's arguments come from a program that may be hostile, so nothing
// in them may fake or hide the prompt. All text taken from a Request is
// passed through Sanitize (escape sequences, control characters, bidi and
// other invisible characters become visible escapes), strings and line
// counts are bounded, and every row of argument text starts with a fixed
// gutter ("  │ ") so that it cannot pass for the prompt's own header or
// question. The prompt itself never writes an escape sequence.
//
// Answers are read a line at a time: y approves once, a approves the tool
// for the rest of the run, v shows the arguments whole (paged) and asks
// again, and n, an empty line or end of input denies.
package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Request is one call awaiting approval.
type Request struct {
	// Tool is the name of the tool called, e.g. "github.create_issue".
	// The guest influences it only by its choice of tool; it is still
	// sanitised.
	Tool string
	// Reason says why approval is needed, e.g. `policy "ask"` or
	// `data flow: sink after source github.get_issue`.
	Reason string
	// Args are the call's arguments as JSON. They are untrusted; if they
	// are not valid JSON they are shown as sanitised raw text.
	Args json.RawMessage
	// Once offers no "always, this run" answer (a question that is asked
	// anew each time, such as a downstream server's elicitation).
	Once bool
}

// Answer is a person's decision on a Request.
type Answer int

const (
	// Deny refuses the call. It is the default and the answer on end of
	// input, cancellation and errors.
	Deny Answer = iota
	// ApproveOnce lets this one call run.
	ApproveOnce
	// ApproveTool lets this call and every later call of the same tool
	// run for the rest of the run without asking.
	ApproveTool
)

// String returns "deny", "approve once" or "approve tool".
func (a Answer) String() string {
	switch a {
	case Deny:
		return "deny"
	case ApproveOnce:
		return "approve once"
	case ApproveTool:
		return "approve tool"
	}
	return fmt.Sprintf("Answer(%d)", int(a))
}

// maxInvalid is how many unrecognised answers in a row Ask accepts before
// it denies.
const maxInvalid = 5

// Prompter asks for approvals on a terminal. Its fields must be set
// before the first call to Ask and not changed after; a Prompter must not
// be copied after first use. Ask may be called from several goroutines:
// the prompts are shown one at a time.
type Prompter struct {
	// In supplies the answers, a line at a time (the terminal, usually
	// os.Stdin).
	In io.Reader
	// Out is where the prompt is written (the terminal, usually
	// os.Stderr).
	Out io.Writer
	// MaxValue is how many bytes of a single string, key or number are
	// shown before it is cut (default 200).
	MaxValue int
	// MaxLines is how many rows of pretty-printed arguments are shown
	// before "… N more lines" (default 40).
	MaxLines int

	once  sync.Once
	turn  chan struct{} // holds a token while a prompt is shown
	lines *lineReader
	echo  bool // In is a terminal, which echoes the answer and its newline
}

// init sets up the Prompter's internal state once.
func (p *Prompter) init() {
	p.once.Do(func() {
		p.turn = make(chan struct{}, 1)
		p.lines = newLineReader(p.In)
		f, ok := p.In.(fder)
		p.echo = ok && IsTerminal(f.Fd())
	})
}

// Ask shows r and reads the answer: y approves once, a approves the tool
// for the rest of the run, n or an empty line denies, and v shows the
// arguments whole (paged, still sanitised) and then asks again. Other
// input asks again; after a few such answers in a row Ask denies. End of
// input denies with a nil error. If ctx is done before an answer arrives,
// Ask returns Deny and ctx.Err(). Input typed before the prompt appeared is
// discarded, so only keys pressed after seeing it count.
func (p *Prompter) Ask(ctx context.Context, r Request) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Deny, err
	}
	if p.In == nil || p.Out == nil {
		return Deny, errors.New("prompt: Prompter needs In and Out")
	}
	p.init()
	select {
	case p.turn <- struct{}{}:
	case <-ctx.Done():
		return Deny, ctx.Err()
	}
	defer func() { <-p.turn }()

	width, height := p.geometry()
	bounded := layout{maxValue: p.MaxValue, maxLines: p.MaxLines, width: width}
	if bounded.maxValue <= 0 {
		bounded.maxValue = defaultMaxValue
	}
	if bounded.maxLines <= 0 {
		bounded.maxLines = defaultMaxLines
	}
	p.discardTypeahead()
	text := join(render(r, bounded))
	for invalid := 0; ; {
		if err := p.write(text + question(r)); err != nil {
			return Deny, err
		}
		line, err := p.read(ctx)
		if err != nil {
			return p.fail(err)
		}
		switch parseAnswer(line) {
		case 'y':
			return ApproveOnce, p.write("→ approved once\n")
		case 'n':
			return Deny, p.write("→ denied\n")
		case 'a':
			if r.Once {
				if invalid++; invalid >= maxInvalid {
					return Deny, p.write("→ denied (no valid answer)\n")
				}
				text = "Please answer y (once), v (view all) or n (no).\n"
				continue
			}
			return ApproveTool, p.write("→ approved; " + orNone(limitedLine(r.Tool, 64)) + " will not ask again this run\n")
		case 'v':
			if err := p.view(ctx, r, width, height); err != nil {
				return p.fail(err)
			}
			text, invalid = join(render(r, bounded)), 0
		default:
			if invalid++; invalid >= maxInvalid {
				return Deny, p.write("→ denied (no valid answer)\n")
			}
			text = "Please answer y (once), a (always, this run), v (view all) or n (no).\n"
		}
	}
}

// fail ends Ask after err: end of input denies without an error.
func (p *Prompter) fail(err error) (Answer, error) {
	if errors.Is(err, io.EOF) {
		return Deny, p.write("\n→ denied (end of input)\n")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		_ = p.write("\n→ denied (" + err.Error() + ")\n")
	}
	return Deny, err
}

// view shows the whole of r's arguments, a page at a time.
func (p *Prompter) view(ctx context.Context, r Request, width, height int) error {
	rows := render(r, layout{width: width})
	page := height - 1
	if page < 10 {
		page = max(p.MaxLines, defaultMaxLines)
	}
	for start := 0; start < len(rows); start += page {
		end := min(start+page, len(rows))
		if err := p.write(join(rows[start:end])); err != nil {
			return err
		}
		if end == len(rows) {
			break
		}
		more := fmt.Sprintf("-- rows %d of %d: Enter for more, q to stop: ", end, len(rows))
		if err := p.write(more); err != nil {
			return err
		}
		line, err := p.read(ctx)
		if errors.Is(err, io.EOF) {
			return nil // the question after the view meets end of input too
		}
		if err != nil {
			return err
		}
		if strings.EqualFold(strings.TrimSpace(line), "q") {
			break
		}
	}
	return nil
}

// read returns the next answer line. If In is not a terminal, nothing
// echoed the line's end, so read ends the question line itself.
func (p *Prompter) read(ctx context.Context) (string, error) {
	line, err := p.lines.next(ctx)
	if err == nil && !p.echo {
		err = p.write("\n")
	}
	return line, err
}

// write writes s to Out.
func (p *Prompter) write(s string) error {
	_, err := io.WriteString(p.Out, s)
	return err
}

// parseAnswer maps a typed line to 'y', 'n', 'a', 'v', or '?' if it is
// none of them.
func parseAnswer(line string) byte {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "", "n", "no":
		return 'n'
	case "y", "yes":
		return 'y'
	case "a", "always":
		return 'a'
	case "v", "view":
		return 'v'
	}
	return '?'
}
