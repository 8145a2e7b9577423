package cli

import (
	"context"
	"errors"
	"strconv"

	"github.com/modebox/modebox"
)

// errKey marks a token key that cannot be loaded.
var errKey = errors.New("token key")

// streamLogs makes a run print its console lines on stderr as they are
// logged, and the progress downstream servers report on their calls, in
// text output (JSON output keeps them for the envelope);
// streamed reports whether it did, so that they are not printed again at
// the end.
//
// The lines go through scr, which holds them while an approval prompt is
// on the terminal and sanitises them on a terminal (see screen).
func streamLogs(ctx context.Context, g *globals, scr *screen) (_ context.Context, streamed bool) {
	if g.json() {
		return ctx, false
	}
	return modebox.WithObserver(ctx, func(ev modebox.Event) {
		switch ev.Kind {
		case modebox.EventLog:
			scr.line(logLine(ev.Level, ev.Message))
		case modebox.EventToolProgress:
			t := strconv.FormatFloat(ev.Progress, 'f', -1, 64)
			if ev.Total > 0 {
				t += "/" + strconv.FormatFloat(ev.Total, 'f', -1, 64)
			}
			if ev.Message != "" {
				t += " " + ev.Message
			}
			// a downstream server's words: no terminal escapes
			scr.progress("[modebox] tools." + oneLine(ev.Tool) + ": " + oneLine(t))
		}
	}), true
}

// logLine is how one console line is shown: log and info as they are,
// the other levels with their level in front.
func logLine(level, msg string) string {
	if level == "log" || level == "info" {
		return msg
	}
	return "[" + level + "] " + msg
}
