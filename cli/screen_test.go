package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/hostilemcp"
	"github.com/modebox/modebox/internal/ptytest"
)

// TestScreenHoldsLinesDuringPrompt: lines are held while a prompt is
// shown (two at once included), shown after the last answer, bounded, and
// sanitised on a terminal.
func TestScreenHoldsLinesDuringPrompt(t *testing.T) {
	var out bytes.Buffer
	c := &screen{w: &out, terminal: true}
	c.line("before \x1b[2J")
	c.begin()
	c.begin()
	c.line("during")
	c.end()
	if got := out.String(); got != "before \\x1b[2J\n" {
		t.Fatalf("while a prompt is shown: %q", got)
	}
	c.end()
	if got := out.String(); got != "before \\x1b[2J\nduring\n" {
		t.Fatalf("after the answers: %q", got)
	}
	out.Reset()
	c.begin()
	big := strings.Repeat("x", 1000)
	for range 100 {
		c.line(big)
	}
	c.end()
	if n := strings.Count(out.String(), big); n != maxHeld/1000 || !strings.Contains(out.String(), "35 lines printed while the prompt was shown are not shown") {
		t.Fatalf("held %d lines of 1000 bytes; tail %q", n, out.String()[len(out.String())-120:])
	}
	// not a terminal: as they are
	out.Reset()
	(&screen{w: &out}).line("raw \x1b[2J")
	if out.String() != "raw \x1b[2J\n" {
		t.Fatalf("not a terminal: %q", out.String())
	}
}

// TestScreenProgressIsRateLimited: a flood of progress lines shows a few,
// and the next one shown counts the rest.
func TestScreenProgressIsRateLimited(t *testing.T) {
	var out bytes.Buffer
	c := &screen{w: &out, terminal: true}
	for range 10000 {
		c.progress("p")
	}
	time.Sleep(progressEvery + 10*time.Millisecond)
	c.progress("last")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// the first is shown; the loop takes far less than a second anywhere,
	// but a stalled machine may let a few more through
	if len(lines) < 2 || len(lines) > 20 || !strings.Contains(lines[len(lines)-1], "more progress lines not shown") {
		t.Fatalf("%d lines: %q", len(lines), out.String())
	}
}

// TestConsoleCannotFakeThePrompt is the attack: while a call waits on the
// terminal's approval prompt, the program logs lines that erase the
// prompt and draw one for another, harmless call. On a real terminal
// (a pty), nothing may reach the screen between the question and the
// answer, and no escape sequence at all.
func TestConsoleCannotFakeThePrompt(t *testing.T) {
	bin := buildModebox(t)
	dir := t.TempDir()
	cfg := map[string]any{
		"mcpServers": map[string]any{"names": map[string]any{"command": os.Args[0], "env": map[string]string{hostilemcp.ModeEnv: "names"}}},
		"tools":      map[string]any{"names.echo": map[string]any{"policy": "ask"}},
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, "modebox.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	prog := `let n = 0;
const t = setInterval(() => { n++; console.log("\x1b[2J\x1b[H\x1b[9AFAKE " + n + "\nAllow names.other? [y] once  [N] no: "); }, 10);
const v = await tools.names.echo({a: "REAL"});
const seen = n;
clearInterval(t);
return {v, seen};`
	if err := os.WriteFile(filepath.Join(dir, "p.js"), []byte(prog), 0o600); err != nil {
		t.Fatal(err)
	}
	const question = "Allow names.echo?"
	// the attack needs lines logged while the prompt is shown; on a
	// stalled machine none may be: try again, waiting longer
	for attempt, wait := 0, 300*time.Millisecond; ; attempt, wait = attempt+1, wait*3 {
		screenText, stdout := runOnPTY(t, bin, dir, question, wait)
		q := strings.Index(screenText, question)
		answered := strings.Index(screenText, "→ approved once")
		if q < 0 || answered < q {
			t.Fatalf("no prompt or no answer on the terminal:\n%q", screenText)
		}
		if strings.ContainsRune(screenText, 0x1b) {
			t.Errorf("an escape sequence reached the terminal:\n%q", screenText)
		}
		if between := screenText[q+len(question) : answered]; strings.Contains(between, "FAKE") {
			t.Fatalf("the program's lines reached the terminal while the prompt was shown:\n%q", between)
		}
		var res struct {
			V    string `json:"v"`
			Seen int    `json:"seen"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || !strings.Contains(res.V, "REAL") {
			t.Fatalf("result %q: %v", stdout, err)
		}
		before := strings.Count(screenText[:q], "FAKE")
		if res.Seen > before {
			// lines were logged while the prompt was shown, and held
			if after := strings.Count(screenText[answered:], "FAKE"); after < res.Seen-before {
				t.Fatalf("%d lines logged during the prompt, %d shown after it", res.Seen-before, after)
			}
			return
		}
		if attempt == 3 {
			t.Fatalf("no line was logged while the prompt was shown, in %d tries", attempt+1)
		}
	}
}

// runOnPTY runs `modebox run p.js` in dir with stdin and stderr on a new
// pty, answers y once question has been on the terminal for wait, and
// returns what the terminal showed and stdout.
func runOnPTY(t *testing.T, bin, dir, question string, wait time.Duration) (string, string) {
	t.Helper()
	master, slave, err := ptytest.Open()
	if err != nil {
		skipOrFail(t, "a pty: "+err.Error())
	}
	defer master.Close()
	cmd := exec.Command(bin, "run", "--config", filepath.Join(dir, "modebox.json"), "p.js")
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stderr, cmd.Stdout = slave, slave, &stdout
	cmd.Env = append(os.Environ(), "MODEBOX_CONFIG=", "XDG_STATE_HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var mu sync.Mutex
	var screenText bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screenText.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	shown := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(screenText.String(), question)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for !shown() {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the prompt never appeared:\n%q", screenText.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(wait)
	if _, err := master.Write([]byte("y\r")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("modebox run: %v\n%q", err, screenText.String())
		}
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("modebox run did not end:\n%q", screenText.String())
	}
	<-read
	mu.Lock()
	defer mu.Unlock()
	return screenText.String(), stdout.String()
}
