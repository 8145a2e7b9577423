package mcpserver

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A stdio client that goes away (its end of stdin closed, as when its
// process dies) while a tool call waits stops that run, and ServeStdio
// returns: nothing can deliver the result. For each protocol version,
// with the server's stdout still read and with it not.
func TestStdioEOFStopsItsRun(t *testing.T) {
	for _, tc := range []struct {
		version string
		both    bool
	}{{newVersion, false}, {newVersion, true}, {legacyVersion, false}, {legacyVersion, true}, {oldVersion, true}} {
		version := tc.version
		t.Run(fmt.Sprintf("%s/stdout-closed=%v", version, tc.both), func(t *testing.T) {
			eng, started, stopped := blockEngine(t)
			s := New(eng, Options{})
			cr, sw := io.Pipe()
			sr, cw := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- s.ServeStdio(context.Background(), sr, sw) }()
			c := mcp.NewClient(&mcp.Implementation{Name: "stdio-client", Version: "v1"}, clientOptions(nil))
			cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await srv.block({q: "x"})`}})
			within(t, started, time.Minute, "the tool started")
			cw.Close() // the server's stdin ends
			if tc.both {
				cr.Close() // and nobody reads its stdout
			}
			within(t, stopped, time.Minute, "the run stopped when stdin ended")
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("ServeStdio: %v", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("ServeStdio did not return after stdin ended")
			}
		})
	}
}
