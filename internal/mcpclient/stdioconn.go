package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioConn is the mcp.Connection to a stdio server: newline-delimited
// JSON-RPC messages (and batches) over the child's stdout and stdin.
//
// Unlike the SDK's IOTransport it reads each line, at most MaxMessageSize
// bytes, into one buffer of its exact size, and a line of bigLine bytes or
// more waits for the process-wide [resultBudget] before it is decoded, so
// that many big messages at once wait instead of all peaking together. The
// result of a tools/call in flight that is one text block is converted for
// the sandbox here, from the line itself (see bigresult.go), and handed to
// the call directly; the SDK then sees an empty result in its place.
type stdioConn struct {
	r io.ReadCloser  // the child's stdout
	w io.WriteCloser // the child's stdin

	incoming chan readItem // from readLoop
	queue    []jsonrpc.Message

	writeMu sync.Mutex

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error

	mu      sync.Mutex
	err     error                         // the first read error other than the end of the output
	batches map[jsonrpc.ID]*incomingBatch // requests of incoming batches awaiting our responses
	calls   map[string]*callSlot          // tools/call in flight by their token
	ids     map[jsonrpc.ID]string         // JSON-RPC id of a tools/call in flight → its token
}

// callSlot is one Manager.Call in flight on the connection.
type callSlot struct {
	ids     []jsonrpc.ID    // its tools/call requests (more than one after a retry)
	out     json.RawMessage // the converted result, once read
	structd bool            // out is the result's structuredContent
	got     bool            // out is set
	release func()          // gives back the budget its big result holds (at take or forget); nil if none
}

// incomingBatch tracks the requests of a batch the server sent: the
// responses go back as one batch once all are answered.
type incomingBatch struct {
	unresolved map[jsonrpc.ID]int
	responses  []*jsonrpc.Response
}

// readItem is what readLoop hands to Read: the messages of one line, or
// an error that ends reading.
type readItem struct {
	msgs  []jsonrpc.Message
	batch bool
	err   error
}

func newStdioConn(r io.ReadCloser, w io.WriteCloser) *stdioConn {
	c := &stdioConn{
		r: r, w: w,
		incoming: make(chan readItem),
		closed:   make(chan struct{}),
		calls:    map[string]*callSlot{},
		ids:      map[jsonrpc.ID]string{},
	}
	go c.readLoop()
	return c
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *stdioConn) SessionID() string { return "" }

// Close implements mcp.Connection: it closes both pipes, which ends a Read
// waiting for input. It may be called more than once, concurrently.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
		c.mu.Lock()
		for _, s := range c.calls {
			if s.release != nil {
				s.release()
				s.release = nil
			}
		}
		c.mu.Unlock()
	})
	return c.closeErr
}

// isClosed reports whether Close was called.
func (c *stdioConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// readErr returns the recorded read error, if any.
func (c *stdioConn) readErr() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Read implements mcp.Connection. It returns io.EOF once the connection is
// closed or the server's output ended.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		return next, nil
	}
	var it readItem
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case it = <-c.incoming:
	case <-c.closed:
		return nil, io.EOF
	}
	if it.err != nil {
		return nil, it.err
	}
	if it.batch {
		var b *incomingBatch
		for _, m := range it.msgs {
			if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
				if b == nil {
					b = &incomingBatch{unresolved: map[jsonrpc.ID]int{}}
				}
				if _, dup := b.unresolved[req.ID]; dup {
					return nil, fmt.Errorf("duplicate message ID %q", req.ID)
				}
				b.unresolved[req.ID] = len(b.responses)
				b.responses = append(b.responses, nil)
			}
		}
		if b != nil {
			c.mu.Lock()
			for id := range b.unresolved {
				if _, seen := c.batches[id]; seen {
					c.mu.Unlock()
					return nil, fmt.Errorf("batch contains previously seen request %v", id.Raw())
				}
			}
			if c.batches == nil {
				c.batches = map[jsonrpc.ID]*incomingBatch{}
			}
			for id := range b.unresolved {
				c.batches[id] = b
			}
			c.mu.Unlock()
		}
	}
	c.queue = it.msgs[1:]
	return it.msgs[0], nil
}

// Write implements mcp.Connection: one message a line; a response to a
// request of an incoming batch is held until the whole batch is answered.
// A tools/call of a registered call is recorded first, so that its result
// can be recognised.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var data []byte
	switch m := msg.(type) {
	case *jsonrpc.Response:
		c.mu.Lock()
		b, inBatch := c.batches[m.ID]
		var all []*jsonrpc.Response
		if inBatch {
			b.responses[b.unresolved[m.ID]] = m
			delete(b.unresolved, m.ID)
			delete(c.batches, m.ID)
			if len(b.unresolved) == 0 {
				all = b.responses
			}
		}
		c.mu.Unlock()
		if inBatch {
			if all == nil {
				return nil
			}
			var buf bytes.Buffer
			buf.WriteByte('[')
			for i, r := range all {
				enc, err := jsonrpc.EncodeMessage(r)
				if err != nil {
					return fmt.Errorf("encoding batch message: %w", err)
				}
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.Write(enc)
			}
			buf.WriteByte(']')
			data = buf.Bytes()
		}
	case *jsonrpc.Request:
		if m.Method == "tools/call" && m.ID.IsValid() {
			c.recordCall(m)
		}
	}
	if data == nil {
		enc, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		data = enc
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.isClosed() {
		return mcp.ErrConnectionClosed
	}
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// callToken returns the progress token of a tools/call's params ("" if
// none or not a string).
func callToken(params json.RawMessage) string {
	var p struct {
		Meta struct {
			ProgressToken any `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	t, _ := p.Meta.ProgressToken.(string)
	return t
}

// recordCall maps the id of a tools/call to the call that sends it.
func (c *stdioConn) recordCall(req *jsonrpc.Request) {
	token := callToken(req.Params)
	if token == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.calls[token]; s != nil {
		s.ids = append(s.ids, req.ID)
		c.ids[req.ID] = token
	}
}

// expect registers a call, by its progress token, before it is sent.
func (c *stdioConn) expect(token string) {
	c.mu.Lock()
	c.calls[token] = &callSlot{}
	c.mu.Unlock()
}

// take returns the result converted for the call with token, if its
// result was converted by the connection (structured: out is the
// result's structuredContent), with the function that gives back the
// budget it holds (call it once the result is no longer being converted
// or checked).
func (c *stdioConn) take(token string) (out json.RawMessage, structured bool, release func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.calls[token]
	if s == nil || !s.got {
		return nil, false, nil, false
	}
	out, structured, rel := s.out, s.structd, s.release
	s.out, s.structd, s.release, s.got = nil, false, nil, false
	if rel == nil {
		rel = func() {}
	}
	return out, structured, rel, true
}

// forget ends a call's registration; a result it did not take gives its
// budget back.
func (c *stdioConn) forget(token string) {
	c.mu.Lock()
	s := c.calls[token]
	delete(c.calls, token)
	if s != nil {
		for _, id := range s.ids {
			delete(c.ids, id)
		}
	}
	c.mu.Unlock()
	if s != nil && s.release != nil {
		s.release()
	}
}

// callOf returns the token of the call in flight whose tools/call has id.
func (c *stdioConn) callOf(id jsonrpc.ID) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.ids[id]
	return t, ok
}

// fail records err as the reason reading stopped, unless the connection
// was closed.
func (c *stdioConn) fail(err error) {
	if c.isClosed() || errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe) {
		return
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
}

// readLoop reads lines until the output ends or the connection is closed,
// and hands their messages to Read.
func (c *stdioConn) readLoop() {
	lr := &lineReader{br: bufio.NewReaderSize(c.r, 64<<10), max: MaxMessageSize}
	for {
		it := c.next(lr)
		if it.err != nil {
			c.fail(it.err)
		}
		select {
		case c.incoming <- it:
		case <-c.closed:
			return
		}
		if it.err != nil {
			return
		}
	}
}

// next reads and decodes the next non-blank line.
func (c *stdioConn) next(lr *lineReader) readItem {
	for {
		small, blocks, n, err := lr.read()
		if err != nil {
			return readItem{err: err}
		}
		if n == 0 {
			continue
		}
		release := func() {}
		if small != nil {
			if len(bytes.TrimSpace(small)) == 0 {
				continue
			}
			return c.decode(small, release)
		}
		if n >= bigLine {
			// the whole line is in: wait for the budget before the line
			// takes a second copy of its size and is decoded
			r, ok := resultBudget.acquire(int64(n), c.closed)
			if !ok {
				lr.recycle(blocks)
				return readItem{err: io.EOF}
			}
			release = r
		}
		line := lr.assemble(blocks, n)
		if len(bytes.TrimSpace(line)) == 0 {
			release()
			continue
		}
		return c.decode(line, release)
	}
}

// decode turns one line into messages. The result of a tools/call in
// flight that convertLine can convert is handed to the call with the
// budget; every other message gives the budget back once decoded.
func (c *stdioConn) decode(line []byte, release func()) readItem {
	line = bytes.TrimSpace(line)
	if line[0] == '[' {
		defer release()
		var raws []json.RawMessage
		if err := json.Unmarshal(line, &raws); err != nil {
			return readItem{err: fmt.Errorf("unmarshaling jsonrpc batch: %w", err)}
		}
		if len(raws) == 0 {
			return readItem{err: errors.New("empty batch")}
		}
		msgs := make([]jsonrpc.Message, 0, len(raws))
		for _, raw := range raws {
			m, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return readItem{err: err}
			}
			msgs = append(msgs, m)
		}
		return readItem{msgs: msgs, batch: true}
	}
	if id, out, structured, ok := c.convertFor(line); ok {
		c.mu.Lock()
		token, inFlight := c.ids[id]
		s := c.calls[token]
		if inFlight && s != nil && !s.got {
			delete(c.ids, id) // a second answer to the same id is the SDK's to drop
			s.out, s.structd, s.release, s.got = out, structured, release, true
			c.mu.Unlock()
			return readItem{msgs: []jsonrpc.Message{&jsonrpc.Response{ID: id, Result: json.RawMessage(`{"content":[]}`)}}}
		}
		c.mu.Unlock()
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		release()
		return readItem{err: err}
	}
	if !c.holdFor(m, release) {
		release()
	}
	return readItem{msgs: []jsonrpc.Message{m}}
}

// holdFor gives release to the call in flight whose final result m is
// (the SDK decodes and Call converts it: the budget is given back when
// the call ends), and reports whether it did. A result that asks for
// input (the call goes on, maybe waiting for a person) keeps no budget.
func (c *stdioConn) holdFor(m jsonrpc.Message, release func()) bool {
	resp, ok := m.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) == 0 || resp.Result[0] != '{' {
		return false
	}
	final := eachMember(resp.Result, func(key, _ []byte) bool {
		return string(key) != "inputRequests" && string(key) != "resultType"
	})
	if !final {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.calls[c.ids[resp.ID]]
	if s == nil || s.got || s.release != nil {
		return false
	}
	s.release = release
	return true
}

// convertFor converts line when it is the result of a tools/call in
// flight and convertLine accepts it.
func (c *stdioConn) convertFor(line []byte) (jsonrpc.ID, json.RawMessage, bool, bool) {
	c.mu.Lock()
	waiting := len(c.ids) > 0
	c.mu.Unlock()
	if !waiting {
		return jsonrpc.ID{}, nil, false, false
	}
	id, out, structured, ok := convertLineStructured(line)
	if !ok {
		return jsonrpc.ID{}, nil, false, false
	}
	if _, inFlight := c.callOf(id); !inFlight {
		return jsonrpc.ID{}, nil, false, false
	}
	return id, out, structured, true
}

// bigLine is the size from which a line waits for resultBudget.
const bigLine = 1 << 20

// lineReader reads newline-delimited lines of at most max bytes. Long
// lines are collected in pooled blocks and copied once into a buffer of
// their exact size.
type lineReader struct {
	br  *bufio.Reader
	max int
	eof bool
}

// blockSize is the size of the pooled blocks a long line is collected in.
const blockSize = 1 << 20

var blockPool = sync.Pool{New: func() any { b := make([]byte, 0, blockSize); return &b }}

// read reads the next line (without its line end): a short line that
// fits the reader's buffer as small, a longer one into blocks; n is its
// length. A last line without a line end is a line; after it, io.EOF.
func (lr *lineReader) read() (small []byte, blocks []*[]byte, n int, err error) {
	if lr.eof {
		return nil, nil, 0, io.EOF
	}
	for {
		frag, ferr := lr.br.ReadSlice('\n')
		if ferr == nil {
			frag = frag[:len(frag)-1]
			if len(blocks) == 0 {
				return bytes.Clone(frag), nil, len(frag), nil
			}
		}
		if n+len(frag) > lr.max {
			lr.recycle(blocks)
			return nil, nil, 0, ErrMessageTooLarge
		}
		n += len(frag)
		for len(frag) > 0 {
			if len(blocks) == 0 || len(*blocks[len(blocks)-1]) == blockSize {
				blocks = append(blocks, blockPool.Get().(*[]byte))
			}
			b := blocks[len(blocks)-1]
			k := min(len(frag), blockSize-len(*b))
			*b = append(*b, frag[:k]...)
			frag = frag[k:]
		}
		switch {
		case ferr == nil:
			return nil, blocks, n, nil
		case errors.Is(ferr, bufio.ErrBufferFull):
			continue
		case errors.Is(ferr, io.EOF):
			lr.eof = true
			if n == 0 {
				lr.recycle(blocks)
				return nil, nil, 0, io.EOF
			}
			return nil, blocks, n, nil
		default:
			lr.recycle(blocks)
			return nil, nil, 0, ferr
		}
	}
}

// assemble copies the line out of its blocks into one buffer of its size
// and recycles the blocks.
func (lr *lineReader) assemble(blocks []*[]byte, n int) []byte {
	line := make([]byte, 0, n)
	for _, b := range blocks {
		line = append(line, *b...)
	}
	lr.recycle(blocks)
	return line
}

func (lr *lineReader) recycle(blocks []*[]byte) {
	for _, b := range blocks {
		*b = (*b)[:0]
		blockPool.Put(b)
	}
}
