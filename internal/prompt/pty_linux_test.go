package prompt

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/ptytest"
	"golang.org/x/sys/unix"
)

// waitTypeahead waits until the terminal f holds n bytes of complete
// lines that nobody has read (TIOCINQ).
func waitTypeahead(f *os.File, n int) {
	for {
		queued, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
		if err != nil {
			fmt.Printf("HELPER TIOCINQ: %v\n", err)
			os.Exit(3)
		}
		if queued >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// ptyOutput collects what the master side of a pty reads.
type ptyOutput struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	done chan struct{} // closed when the slave side is gone
}

func (o *ptyOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// runPTY starts TestPtyHelper on a new pty, types typeahead at once and
// input once the question is shown, and checks the answer and everything
// the terminal received.
func runPTY(t *testing.T, typeahead, input string, want Answer) {
	master, slave, err := ptytest.Open()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cannot open a pty in CI: %v", err)
		}
		t.Skipf("cannot open a pty: %v", err)
	}
	defer master.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestPtyHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1", typeaheadEnv+"="+strconv.Itoa(len(typeahead)))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatalf("start helper: %v", err)
	}
	slave.Close() // the master reads EIO once the helper has exited
	if typeahead != "" {
		// Typed while the helper is still starting: Ask must discard it.
		if _, err := master.Write([]byte(typeahead)); err != nil {
			t.Fatalf("type ahead: %v", err)
		}
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()

	out := &ptyOutput{done: make(chan struct{})}
	go func() {
		defer close(out.done)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			out.mu.Lock()
			out.buf.Write(b[:n])
			out.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()

	asked := func() bool { return strings.HasSuffix(out.String(), "[N] no: ") }
	waitFor(t, "the question", func() bool {
		select {
		case <-out.done:
			return true
		default:
			return asked()
		}
	})
	if !asked() {
		t.Fatalf("helper ended without waiting for an answer; terminal got:\n%s", out.String())
	}
	if _, err := master.Write([]byte(input)); err != nil {
		t.Fatalf("type answer: %v", err)
	}
	select {
	case <-out.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("helper did not finish; terminal got:\n%s", out.String())
	}
	if err := <-exited; err != nil {
		t.Errorf("helper: %v", err)
	}
	exited <- nil // for the deferred wait

	text := out.String()
	t.Logf("terminal got:\n%s", text)
	if !strings.Contains(text, "HELPER terminal") {
		t.Fatalf("helper did not see a terminal")
	}
	if wantLine := fmt.Sprintf("HELPER answer=%q err=<nil>", want.String()); !strings.Contains(text, wantLine) {
		t.Errorf("no %q", wantLine)
	}
	for _, bad := range []string{"\x1b", "\a", "\u009b", "\u202e", "\u202c", "\u2067", "\u2069", "\r["} {
		if strings.Contains(text, bad) {
			t.Errorf("terminal received %q", bad)
		}
	}
	if strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\r") {
		t.Errorf("terminal received a carriage return that is not part of a line end")
	}
	for _, shown := range []string{
		` tool:   github.create_issue\x1b[2J`,
		`"title": "\x1b[2J\x1b[H",`,
		`"t2": "\x1b]0;evil\x07",`,
		`"body": "ok\r[modebox] approved automatically",`,
		`"name": "\u{202e}txt.exe\u{202c}\u{2067}x\u{2069}",`,
		`"c1": "\u009b2J",`,
		`"fake": "\n\x1b[1A\rAllow github.get_issue? [y] once [N] no: "`,
		`Allow github.create_issue\x1b[2J? [y] once`,
	} {
		if !strings.Contains(text, shown) {
			t.Errorf("terminal did not show %s", shown)
		}
	}
}
