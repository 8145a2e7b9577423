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

// idle returns the time since the last byte moved.
func (a *activity) idle() time.Duration {
	return time.Since(clockBase) - time.Duration(a.last.Load())
}

// recent reports whether a byte moved within d.
func (a *activity) recent(d time.Duration) bool { return a.idle() < d }

// linger runs once the client has ended its side of a connection (EOF:
// it half-closed, or it is gone, as when the command that opened it has
// exited). Until done is closed it waits, and closes the session when no
// byte has moved in either direction for Config.HalfCloseTimeout: the
// origin may finish its answer, for as long as it keeps sending, but an
// origin that ignores the end of the request does not keep the slot for
// the whole IdleTimeout.
func (ss *session) linger(act *activity, done <-chan struct{}) {
	grace := ss.srv.cfg.HalfCloseTimeout
	t := time.NewTimer(grace)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			idle := act.idle()
			if idle >= grace {
				ss.close()
				return
			}
			t.Reset(grace - idle)
		}
	}
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
// stays idle (both connections are closed). Once the client's side has
// ended, the origin's silence is bounded by HalfCloseTimeout (linger).
func (ss *session) tunnel(origin net.Conn) {
	act := newActivity()
	idle := ss.srv.cfg.IdleTimeout
	cli := &idleConn{Conn: ss.client, act: act, idle: idle}
	org := &idleConn{Conn: origin, act: act, idle: idle}
	ss.startStreaming(cli)

	up := make(chan struct{})
	down := make(chan struct{}) // closed when the origin-to-client copy ends
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
		ss.linger(act, down)
	}()
	if err := pipe(cli, org); err != nil {
		ss.close()
	} else {
		closeWrite(ss.client)
	}
	close(down)
	<-up
	ss.close()
}
