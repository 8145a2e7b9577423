package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"strconv"
	"sync"
)

// The MCP SDK's JSON-RPC layer reads a numeric request id into an int64 or
// a float64: over stdio an id of 1e400 ended the whole server (exit status
// 1, no reply), and 1.5, 9007199254740993 or 2^63 came back rewritten, so
// a client could not match its replies. stdioIDs stands between the input
// and the SDK: a message whose id is a number other than an integer of at
// most 2^53-1 in magnitude is answered with JSON-RPC's Invalid Request
// (id null), and the SDK never sees it.

// maxSafeID is the largest magnitude of a numeric id passed on: what a
// float64, and every JSON reader, holds exactly.
var maxSafeID = new(big.Rat).SetInt64(1<<53 - 1)

// lockedWriter serializes whole writes of the SDK and of stdioIDs.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// stdioIDs reads newline-delimited messages from r for the SDK, answering
// those with an unusable id itself on out.
type stdioIDs struct {
	r    *bufio.Reader
	out  *lockedWriter
	line []byte // what is left of the message being passed on
	err  error
}

func (s *stdioIDs) Read(p []byte) (int, error) {
	for len(s.line) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		line, err := s.r.ReadBytes('\n')
		s.err = err
		if len(line) == 0 {
			continue
		}
		if msg := badID(line); msg != "" {
			reply, _ := json.Marshal(map[string]any{
				"jsonrpc": "2.0", "id": nil,
				"error": map[string]any{"code": -32600, "message": "Invalid Request: " + msg},
			})
			if _, werr := s.out.Write(append(reply, '\n')); werr != nil {
				return 0, werr
			}
			continue
		}
		s.line = line
	}
	n := copy(p, s.line)
	s.line = s.line[n:]
	return n, nil
}

func (s *stdioIDs) Close() error { return nil }

// badID returns why the id of the JSON-RPC message line cannot be passed
// on, or "" when it can (or the line is not a JSON object: the SDK answers
// that itself).
func badID(line []byte) string {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return ""
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(trimmed, &m) != nil || len(m.ID) == 0 {
		return ""
	}
	id := string(bytes.TrimSpace(m.ID))
	if c := id[0]; c != '-' && (c < '0' || c > '9') {
		return "" // a string, null, or a type the SDK refuses itself
	}
	r, ok := new(big.Rat).SetString(id)
	if ok && r.IsInt() && new(big.Rat).Abs(r).Cmp(maxSafeID) <= 0 {
		return ""
	}
	if len(id) > 40 {
		id = id[:40] + "…"
	}
	return "a numeric id must be an integer of at most 2^53-1 in magnitude, got " + strconv.Quote(id)
}
