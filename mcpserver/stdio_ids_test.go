package mcpserver

import (
	"strings"
	"testing"
)

// TestStdioUnusableIDs: a request whose numeric id no JSON reader holds
// exactly (1e400, 1.5, 2^53+1, 2^63) is answered with Invalid Request, id
// null, and the server goes on; 1e400 ended the server (exit status 1, no
// reply) and the others came back under another id. String ids, and
// integers up to 2^53-1 however spelled, are answered under their own.
func TestStdioUnusableIDs(t *testing.T) {
	eng, _ := newEngine(t)
	write, read := rawStdio(t, New(eng, Options{}))
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	readID(t, read, "1", nil)
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range []string{"1e400", "1.5", "9007199254740993", "9223372036854775808", "-1e400"} {
		write(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		l := readID(t, read, "null", nil)
		if l.Error == nil || l.Error.Code != -32600 || !strings.Contains(l.Error.Message, id) {
			t.Fatalf("id %s: %+v", id, l)
		}
	}
	for _, id := range []string{"2", `"x"`, "-9007199254740991", "9007199254740991"} {
		write(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if l := readID(t, read, id, nil); l.Error != nil {
			t.Fatalf("id %s: %+v", id, l.Error)
		}
	}
	write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run","arguments":{"code":"return 6 * 7"}}}`)
	if l := readID(t, read, "3", nil); l.Error != nil || !strings.Contains(string(l.Result), "42") {
		t.Fatalf("run after the refusals: %s %+v", l.Result, l.Error)
	}
}
