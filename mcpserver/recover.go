package mcpserver

import (
	"context"
	"fmt"
	"log"
	"reflect"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverPanics is the outermost receiving middleware: a handler that
// panics answers its request with a JSON-RPC internal error, and the
// panic is logged, instead of ending the process (and, over HTTP, every
// other client's session with it).
func recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if v := recover(); v != nil {
				log.Printf("modebox mcp: panic handling %s: %v\n%s", method, v, debug.Stack())
				res = nil
				err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("modebox: internal error handling %s", method)}
			}
		}()
		return next(ctx, method, req)
	}
}

// progressToken is the progress token of req, or nil. A request sent
// without params (tools/list from most clients) has a nil params pointer
// inside a non-nil interface, which must not be called.
func progressToken(req mcp.Request) any {
	if req == nil {
		return nil
	}
	p := req.GetParams()
	if p == nil {
		return nil
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	if t, ok := p.(interface{ GetProgressToken() any }); ok {
		return t.GetProgressToken()
	}
	return nil
}
