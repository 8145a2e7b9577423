//lint:file-ignore SA1019 console lines go out as MCP log notifications, which clients up to 2025-11-25 read; the feature is deprecated from 2026-07-28 but still served
package mcpserver

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressQueue bounds the notifications waiting to be sent for one run;
// past it, further ones are dropped.
const progressQueue = 256

// heartbeat is how often a run that reports nothing else sends its
// elapsed time as progress.
const heartbeat = 5 * time.Second

// logLevels maps console levels to MCP logging levels.
var logLevels = map[string]mcp.LoggingLevel{
	"log": "info", "info": "info", "warn": "warning", "error": "error", "debug": "debug",
}

// reporter sends what a run does to the MCP client that asked for it:
// notifications/progress when the request carries a progress token (each
// tool call starting and settling, the progress downstream servers report
// on their calls, and the run's elapsed time), and each
// console line as a notifications/message log (the SDK sends those only
// once the client has set a logging level, at or above it).
type reporter struct {
	session *mcp.ServerSession
	token   any
	start   time.Time

	progress *progressCounter

	mu       sync.Mutex
	queue    []func(context.Context)
	dropped  int
	wake     chan struct{}
	done     chan struct{}
	finished chan struct{}
}

// withProgress returns ctx with an observer for the run the request
// starts, and a function that, when the run is over, sends what is still
// queued and returns (so that every notification precedes the result).
// also, when not nil, is told every event too, first: a context holds one
// observer (modebox.WithObserver replaces, it does not add), so the
// observers of a run are chained here.
func withProgress(ctx context.Context, req *mcp.CallToolRequest, also func(modebox.Event)) (context.Context, func()) {
	if req == nil || req.Session == nil {
		if also != nil {
			ctx = modebox.WithObserver(ctx, also)
		}
		return ctx, func() {}
	}
	r := &reporter{
		session: req.Session, token: progressToken(req), start: time.Now(), progress: counterOf(ctx),
		wake: make(chan struct{}, 1), done: make(chan struct{}), finished: make(chan struct{}),
	}
	go r.send(ctx)
	stop := func() {
		close(r.done)
		<-r.finished
	}
	observe := r.observe
	if also != nil {
		observe = func(ev modebox.Event) {
			also(ev)
			r.observe(ev)
		}
	}
	return modebox.WithObserver(ctx, observe), stop
}

// observe is the run's observer: it queues and never blocks.
func (r *reporter) observe(ev modebox.Event) {
	var n func(context.Context)
	switch ev.Kind {
	case modebox.EventLog:
		level := logLevels[ev.Level]
		if level == "" {
			level = "info"
		}
		msg := ev.Message
		n = func(ctx context.Context) {
			_ = r.session.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "modebox.run", Data: msg})
		}
	case modebox.EventCallStart:
		n = r.progressNote(fmt.Sprintf("call #%d tools.%s started (%s)", ev.CallID, ev.Tool, round(ev.Elapsed)))
	case modebox.EventCallEnd:
		outcome := "done"
		if !ev.OK {
			outcome = "failed: " + string(ev.Code)
		}
		n = r.progressNote(fmt.Sprintf("call #%d tools.%s %s (%s)", ev.CallID, ev.Tool, outcome, round(ev.Elapsed)))
	case modebox.EventToolProgress:
		n = r.progressNote("tools." + ev.Tool + ": " + progressText(ev) + " (" + round(time.Since(r.start)) + ")")
	}
	if n == nil {
		return
	}
	r.mu.Lock()
	if len(r.queue) >= progressQueue {
		r.dropped++
		r.mu.Unlock()
		return
	}
	r.queue = append(r.queue, n)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// progressNote is a progress notification with message, or nil when the
// client sent no progress token.
func (r *reporter) progressNote(message string) func(context.Context) {
	if r.token == nil {
		return nil
	}
	return func(ctx context.Context) {
		p := r.progress.next()
		_ = r.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: r.token, Progress: p, Message: message})
	}
}

// send delivers the queue in order until the run is over and the queue is
// empty; while the run goes on quietly it sends a heartbeat.
func (r *reporter) send(ctx context.Context) {
	defer close(r.finished)
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		r.mu.Lock()
		q := r.queue
		r.queue = nil
		r.mu.Unlock()
		for _, n := range q {
			n(ctx)
		}
		if len(q) > 0 {
			continue
		}
		select {
		case <-r.wake:
		case <-tick.C:
			if n := r.progressNote("running (" + round(time.Since(r.start)) + ")"); n != nil {
				n(ctx)
			}
		case <-r.done:
			r.mu.Lock()
			empty := len(r.queue) == 0
			r.mu.Unlock()
			if empty {
				return
			}
		}
	}
}

// progressCounter numbers the progress notifications of one request, so
// that their values increase (as the protocol requires for a token) even
// when both the wait for a starting server and the run report progress.
type progressCounter struct {
	mu sync.Mutex
	v  float64
}

// next is the next progress value: 1, 2, 3...
func (c *progressCounter) next() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.v++
	return c.v
}

// progressCounterKey is the context key of a request's progressCounter.
type progressCounterKey struct{}

// counterOf is the request's progress counter in ctx, or a new one.
func counterOf(ctx context.Context) *progressCounter {
	if c, ok := ctx.Value(progressCounterKey{}).(*progressCounter); ok {
		return c
	}
	return &progressCounter{}
}

// round formats an elapsed time for a message.
func round(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// progressText is a tool's progress as text: "3/10", "3", and its message.
func progressText(ev modebox.Event) string {
	t := strconv.FormatFloat(ev.Progress, 'f', -1, 64)
	if ev.Total > 0 {
		t += "/" + strconv.FormatFloat(ev.Total, 'f', -1, 64)
	}
	if ev.Message != "" {
		t += " " + ev.Message
	}
	return t
}
