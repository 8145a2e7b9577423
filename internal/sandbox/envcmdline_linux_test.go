//go:build linux

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envRoundTrip are values that must reach the command byte for byte.
var envRoundTrip = map[string]string{
	"RT_SPACES":    "  two  spaces  ",
	"RT_QUOTES":    `it's "quoted" ''' """`,
	"RT_NEWLINES":  "line1\nline2\n\n",
	"RT_DOLLAR":    "$HOME ${PATH} $(id) `id` $1 $$ $@",
	"RT_BACKSLASH": `C:\path\n\\ \' \"`,
	"RT_UNICODE":   "héllo wörld 日本語 🙂",
	"RT_EMPTY":     "",
	"RT_DASH":      "-n -e --",
	"RT_EQUALS":    "a=b=c;d|e&f>g<h*?[x]~#!",
	"RT_TABS":      "\t\ttab\r\n",
}

// TestEnvNotOnCommandLine is the third finding of the security tester:
// shell.env values and a call's env were NAME=VALUE words on the command
// line of bwrap and of the sandbox's first shell, which every local user
// reads in /proc/PID/cmdline. While a command runs, no process's command
// line holds a value given in the configuration's env or the command's;
// the command still gets every variable, byte for byte.
func TestEnvNotOnCommandLine(t *testing.T) {
	base := scratch(t)
	sock := filepath.Join(base, "proxy.sock")
	fakeProxy(t, sock)
	for name, network := range map[string]*Network{"no network": nil, "network": {ProxySocket: sock}} {
		t.Run(name, func(t *testing.T) {
			cfgSecret := "cfgsecret" + randHex(8)
			cmdSecret := "cmdsecret" + randHex(8)
			ws := mkdir(t, filepath.Join(base, "ws-"+strings.ReplaceAll(name, " ", "-")))
			s := newSB(t, Config{Workspace: []string{ws}, Network: network, Env: map[string]string{"CFG_SECRET": cfgSecret, "RT_CFG": envRoundTrip["RT_QUOTES"] + envRoundTrip["RT_NEWLINES"]}})
			env := map[string]string{"CMD_SECRET": cmdSecret}
			for k, v := range envRoundTrip {
				env[k] = v
			}
			// The command says it runs, then waits (as long as it takes)
			// for the test to have looked.
			started, release := filepath.Join(ws, "started"), filepath.Join(ws, "release")
			script := `echo > started; while [ ! -e release ]; do sleep 0.05; done
printf '%s\0' "$CFG_SECRET" "$CMD_SECRET" "$RT_CFG"`
			names := []string{"CFG_SECRET", "CMD_SECRET", "RT_CFG"}
			for k := range envRoundTrip {
				script += ` "$` + k + `"`
				names = append(names, k)
			}
			done := make(chan Result, 1)
			errc := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				res, err := s.Run(ctx, Command{Script: script, Env: env, Timeout: 5 * time.Minute})
				done <- res
				errc <- err
			}()
			defer os.WriteFile(release, nil, 0o644) // never leave it waiting
			for !exists(started) {
				select {
				case res := <-done:
					t.Fatalf("the command ended before it started waiting: %+v %v", res, <-errc)
				case <-time.After(20 * time.Millisecond):
				}
			}
			// Every process's command line, the sandbox's included.
			sawSandbox := false
			ents, _ := os.ReadDir("/proc")
			for _, e := range ents {
				if _, err := strconv.Atoi(e.Name()); err != nil {
					continue
				}
				b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
				if err != nil {
					continue
				}
				line := string(b)
				if strings.Contains(line, "release") {
					sawSandbox = true // the command's own shell
				}
				for _, secret := range []string{cfgSecret, cmdSecret, "two  spaces", "line1\nline2", "日本語"} {
					if strings.Contains(line, secret) {
						t.Errorf("process %s shows an env value on its command line: %q", e.Name(), strings.ReplaceAll(line, "\x00", " "))
					}
				}
			}
			if !sawSandbox {
				t.Errorf("control: the command's own shell was not among the processes scanned")
			}
			if err := os.WriteFile(release, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if err := <-errc; err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.ExitCode != 0 {
				t.Fatalf("the command failed: %+v", res)
			}
			got := strings.Split(res.Stdout, "\x00")
			if len(got) != len(names)+1 {
				t.Fatalf("got %d values, want %d: %q", len(got)-1, len(names), res.Stdout)
			}
			want := map[string]string{"CFG_SECRET": cfgSecret, "CMD_SECRET": cmdSecret, "RT_CFG": envRoundTrip["RT_QUOTES"] + envRoundTrip["RT_NEWLINES"]}
			for k, v := range envRoundTrip {
				want[k] = v
			}
			for i, k := range names {
				if got[i] != want[k] {
					t.Errorf("%s = %q in the command, want %q", k, got[i], want[k])
				}
			}
		})
	}
}
