package mcpclient

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress is one notifications/progress a server sent about a call.
type Progress struct {
	Server, Tool    string
	Progress, Total float64
	// Message is the server's text: at most maxProgressMessage bytes of
	// valid UTF-8, control characters replaced by spaces.
	Message string
}

// maxProgressMessage bounds a forwarded progress message.
const maxProgressMessage = 512

type progressKey struct{}

// WithProgress returns a context whose calls (Manager.Call) send a
// progress token to the server and hand each notifications/progress the
// server sends for that call to fn, until shortly after the call returns
// (so fn may be called after it). fn is called from the connection's
// goroutine and must not block.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressRoute is a call awaiting progress: the server and token.
type progressRoute struct {
	server string
	token  string
}

type progressSink struct {
	tool string
	fn   func(Progress)
}

var (
	progressRoutes sync.Map // progressRoute -> progressSink
	progressSeq    atomic.Uint64
)

// watchProgress gives p a progress token, unique in the process (every
// call has one: it is how the call's result and the server's
// elicitations are told apart from other calls'), and returns it with the
// function that stops routing its progress to ctx's WithProgress
// function, if any.
func (s *server) watchProgress(ctx context.Context, p *mcp.CallToolParams) (string, func()) {
	token := "mbx-" + strconv.FormatUint(progressSeq.Add(1), 10)
	p.SetProgressToken(token)
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	if fn == nil {
		return token, func() {}
	}
	route := progressRoute{server: s.name, token: token}
	progressRoutes.Store(route, progressSink{tool: p.Name, fn: fn})
	// the SDK may hand a notification sent just before the result to its
	// handler after the call has returned: keep routing a moment longer
	return token, func() { time.AfterFunc(progressGrace, func() { progressRoutes.Delete(route) }) }
}

// progressGrace is how long a call's progress is still routed after the
// call returned.
const progressGrace = time.Second

// progress routes a notifications/progress from this server to its call;
// a token this server was not given for a call in flight is ignored.
func (s *server) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	token, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	v, ok := progressRoutes.Load(progressRoute{server: s.name, token: token})
	if !ok {
		return
	}
	sink := v.(progressSink)
	msg := strings.ToValidUTF8(req.Params.Message, "\uFFFD")
	if len(msg) > maxProgressMessage {
		msg = strings.ToValidUTF8(msg[:maxProgressMessage], "") + "…"
	}
	msg = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, msg)
	sink.fn(Progress{Server: s.name, Tool: sink.tool, Progress: req.Params.Progress, Total: req.Params.Total, Message: msg})
}
