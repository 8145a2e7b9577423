package prompt

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// helperEnv switches the test binary into TestPtyHelper's mode.
const helperEnv = "MODEBOX_PROMPT_PTY_HELPER"

// typeaheadEnv tells the helper how many bytes of typeahead the test
// types: the helper asks only once the terminal holds them.
const typeaheadEnv = "MODEBOX_PROMPT_PTY_TYPEAHEAD"

// ptyRequest is what the helper asks about: every field is hostile.
var ptyRequest = Request{
	Tool:   "github.create_issue\x1b[2J",
	Reason: "data flow: sink after source github.get_issue\x1b]8;;http://evil\x07",
	Args: json.RawMessage(`{"title":"\u001b[2J\u001b[H","t2":"\u001b]0;evil\u0007",` +
		`"body":"ok\r[modebox] approved automatically","name":"\u202etxt.exe\u202c\u2067x\u2069",` +
		`"c1":"\u009b2J","fake":"\n\u001b[1A\rAllow github.get_issue? [y] once [N] no: "}`),
}

// TestPTY runs Ask on a real pseudo-terminal: the helper process has the
// pty as its controlling terminal, stdin, stdout and stderr, and the test
// types the answer on the master side as a person would.
func TestPTY(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pty test runs on Linux only")
	}
	for _, tt := range []struct {
		name, typeahead, input string
		want                   Answer
	}{
		{"deny", "", "n\n", Deny},
		{"approve", "", "y\n", ApproveOnce},
		{"typeahead discarded", "y\n", "n\n", Deny},
	} {
		t.Run(tt.name, func(t *testing.T) { runPTY(t, tt.typeahead, tt.input, tt.want) })
	}
}

// TestPtyHelper is the process TestPTY starts on the pty; it does nothing
// in a normal test run.
func TestPtyHelper(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		return
	}
	// As the CLI does: ask on the terminal only if stdin and stderr are one.
	if !IsTerminal(os.Stdin.Fd()) || !IsTerminal(os.Stderr.Fd()) {
		fmt.Println("HELPER not a terminal")
		os.Exit(3)
	}
	fmt.Println("HELPER terminal")
	if n, _ := strconv.Atoi(os.Getenv(typeaheadEnv)); n > 0 {
		// A write to the pty's master reaches the terminal's input queue
		// later, from a kernel worker: wait until the typeahead is there,
		// so that it is typed before the prompt however loaded the machine
		// is (else it could arrive after Ask discarded the queue, and be
		// a true answer).
		waitTypeahead(os.Stdin, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := &Prompter{In: os.Stdin, Out: os.Stderr}
	a, err := p.Ask(ctx, ptyRequest)
	fmt.Printf("HELPER answer=%q err=%v\n", a.String(), err)
}
