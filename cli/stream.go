package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modebox/modebox"
)

// errKey marks a token key that cannot be loaded.
var errKey = errors.New("token key")

// streamLogs makes a run print its console lines on stderr as they are
// logged, in text output (JSON output keeps them for the envelope);
// streamed reports whether it did, so that they are not printed again at
// the end.
func streamLogs(ctx context.Context, g *globals, s Streams) (_ context.Context, streamed bool) {
	if g.json() {
		return ctx, false
	}
	var mu sync.Mutex
	return modebox.WithObserver(ctx, func(ev modebox.Event) {
		if ev.Kind != modebox.EventLog {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		printLog(s, ev.Level, ev.Message)
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
