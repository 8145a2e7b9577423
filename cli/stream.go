package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/modebox/modebox"
)

// errKey marks a token key that cannot be loaded.
var errKey = errors.New("token key")

// streamLogs makes a run print its console lines on stderr as they are
// logged, and the progress downstream servers report on their calls, in
// text output (JSON output keeps them for the envelope);
// streamed reports whether it did, so that they are not printed again at
// the end.
func streamLogs(ctx context.Context, g *globals, s Streams) (_ context.Context, streamed bool) {
	if g.json() {
		return ctx, false
	}
	var mu sync.Mutex
	return modebox.WithObserver(ctx, func(ev modebox.Event) {
		switch ev.Kind {
		case modebox.EventLog:
			mu.Lock()
			defer mu.Unlock()
			printLog(s, ev.Level, ev.Message)
		case modebox.EventToolProgress:
			mu.Lock()
			defer mu.Unlock()
			t := strconv.FormatFloat(ev.Progress, 'f', -1, 64)
			if ev.Total > 0 {
				t += "/" + strconv.FormatFloat(ev.Total, 'f', -1, 64)
			}
			if ev.Message != "" {
				t += " " + ev.Message
			}
			// a downstream server's words: no terminal escapes
			fmt.Fprintf(s.Stderr, "[modebox] tools.%s: %s\n", oneLine(ev.Tool), oneLine(t))
		}
	}), true
}

// printLog prints one console line on stderr: log and info as they are,
// the other levels with their level in front.
func printLog(s Streams, level, msg string) {
	if level == "log" || level == "info" {
		fmt.Fprintln(s.Stderr, msg)
	} else {
		fmt.Fprintf(s.Stderr, "[%s] %s\n", level, msg)
	}
}
