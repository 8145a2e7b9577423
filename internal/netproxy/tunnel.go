package netproxy

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// activity is the time of the last byte moved in either direction of one
// connection pair, as monotonic nanoseconds since clockBase.
type activity struct{ last atomic.Int64 }

var clockBase = time.Now()

func newActivity() *activity {
	a := &activity{}
	a.touch()
	return a
}

func (a *activity) touch() { a.last.Store(int64(time.Since(clockBase))) }

// recent reports whether a byte moved within d.
func (a *activity) recent(d time.Duration) bool {
	return time.Since(clockBase)-time.Duration(a.last.Load()) < d
}

// idleConn gives every Read and Write a deadline of idle from now; when
// the deadline passes but the other direction moved a byte meanwhile, it
// keeps waiting. So a connection pair is closed only when neither
// direction has moved a byte for idle.
type idleConn struct {
	net.Conn
	act  *activity
	idle time.Duration
}

func (c *idleConn) Read(p []byte) (int, error) {
	for {
		c.Conn.SetReadDeadline(time.Now().Add(c.idle))
		n, err := c.Conn.Read(p)
		if n > 0 {
			c.act.touch()
		}
		if err != nil && n == 0 && isTimeout(err) && c.act.recent(c.idle) {
			continue
		}
		return n, err
	}
}

func (c *idleConn) Write(p []byte) (int, error) {
	written := 0
	for {
		c.Conn.SetWriteDeadline(time.Now().Add(c.idle))
		n, err := c.Conn.Write(p[written:])
		written += n
		if n > 0 {
			c.act.touch()
		}
		if err != nil && written < len(p) && isTimeout(err) && c.act.recent(c.idle) {
			continue
		}
		return written, err
	}
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// pipe copies src to dst until EOF (nil) or an error.
func pipe(dst io.Writer, src io.Reader) error {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
}

// tunnel copies bytes both ways between the client and origin until both
// directions end (an EOF half-closes the other side) or one fails or
// stays idle (both connections are closed).
func (ss *session) tunnel(origin net.Conn) {
	act := newActivity()
	idle := ss.srv.cfg.IdleTimeout
	cli := &idleConn{Conn: ss.client, act: act, idle: idle}
	org := &idleConn{Conn: origin, act: act, idle: idle}
	ss.startStreaming(cli)

	up := make(chan struct{})
	go func() {
		defer close(up)
		// bytes the client sent after its request header are in br
		if n := ss.br.Buffered(); n > 0 {
			b, _ := ss.br.Peek(n)
			if _, err := org.Write(b); err != nil {
				ss.close()
				return
			}
			ss.br.Discard(n)
		}
		if err := pipe(org, ss.cr); err != nil {
			ss.close()
			return
		}
		closeWrite(origin)
	}()
	if err := pipe(cli, org); err != nil {
		ss.close()
	} else {
		closeWrite(ss.client)
	}
	<-up
	ss.close()
}
