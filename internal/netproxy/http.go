package netproxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// maxResponseHeaderBytes bounds an origin's response header (including
// any 1xx responses before it).
const maxResponseHeaderBytes = 1 << 20

// refusalWriteTimeout bounds writing a refusal or the CONNECT reply.
const refusalWriteTimeout = 5 * time.Second

// drainTimeout and drainBytes bound how much of a refused client's
// remaining input is read (and dropped) before the connection is closed,
// so that the refusal is not lost to a connection reset.
const (
	drainTimeout = 500 * time.Millisecond
	drainBytes   = 64 << 10
)

// serveHTTP reads an HTTP/1.x request header and serves CONNECT or an
// absolute-form request.
func (ss *session) serveHTTP() {
	ss.proto = ProtoHTTP
	req, err := http.ReadRequest(ss.br)
	if err != nil {
		var e *Error
		switch {
		case ss.cr.exhausted():
			e = &Error{Code: codes.HeaderTooLarge, Message: fmt.Sprintf("the request header is larger than %d bytes", ss.srv.cfg.MaxHeaderBytes)}
		case ss.timedOut(err):
			e = &Error{Code: codes.Timeout, Message: "the request header did not arrive within the header timeout"}
		default:
			e = &Error{Code: codes.BadRequest, Message: "malformed HTTP request (this socket speaks HTTP/1.1 proxy requests and SOCKS5)", Err: err}
		}
		ss.refuse(ss.event("", 0), e)
		ss.httpRefuse(nil, e)
		return
	}
	if req.Method == http.MethodConnect {
		ss.proto = ProtoConnect
		ss.serveConnect(req)
		return
	}
	ss.serveForward(req)
}

// httpRefuse writes a refusal and closes the client's write side, then
// drains a little of the client's input.
func (ss *session) httpRefuse(req *http.Request, e *Error) {
	status := httpStatus(e.Code)
	body := "modebox proxy: " + e.Error() + "\n"
	ss.client.SetWriteDeadline(time.Now().Add(refusalWriteTimeout))
	_, err := fmt.Fprintf(ss.client, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\nX-Modebox-Proxy-Error: %s\r\n\r\n%s",
		status, http.StatusText(status), len(body), e.Code, body)
	if err != nil {
		return
	}
	ss.client.CloseWrite()
	// read the raw connection (not through idle tracking, which would
	// extend the deadline)
	ss.br.Discard(ss.br.Buffered())
	ss.client.SetReadDeadline(time.Now().Add(drainTimeout))
	io.CopyN(io.Discard, ss.client, drainBytes)
}

// serveConnect checks the CONNECT authority, dials, answers 200 and
// tunnels.
func (ss *session) serveConnect(req *http.Request) {
	t, perr := parseAuthority(req.RequestURI)
	if perr != nil {
		ss.refuse(ss.event(printable(req.RequestURI), 0), perr)
		ss.httpRefuse(req, perr)
		return
	}
	origin, perr := ss.connectTarget(t, ss.event(t.host, t.port))
	if perr != nil {
		ss.httpRefuse(req, perr)
		return
	}
	ss.client.SetDeadline(time.Now().Add(refusalWriteTimeout))
	if _, err := io.WriteString(ss.client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	ss.tunnel(origin)
}

// hopHeaders are removed from forwarded requests and responses (RFC 9110
// section 7.6.1), with Proxy-Connection, which some clients still send.
var hopHeaders = []string{
	"Connection",
	"Proxy-Connection",
	"Keep-Alive",
	"Proxy-Authenticate",
	"Proxy-Authorization",
	"Te",
	"Trailer",
	"Transfer-Encoding",
	"Upgrade",
}

// removeHopHeaders deletes hop-by-hop headers, including those that the
// Connection header names.
func removeHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for _, f := range strings.Split(v, ",") {
			if f = textproto.TrimString(f); f != "" {
				h.Del(f)
			}
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}

// serveForward forwards one absolute-form request to its origin and
// streams the response back. One request per client connection: the
// response says Connection: close.
func (ss *session) serveForward(req *http.Request) {
	if req.URL.Host == "" || !strings.Contains(req.RequestURI, "://") {
		e := &Error{Code: codes.BadRequest, Message: "this is a proxy: send absolute-form requests (GET http://host:port/path), for example by setting HTTP_PROXY"}
		ss.refuse(ss.event("", 0), e)
		ss.httpRefuse(req, e)
		return
	}
	tgt, err := netguard.CheckURL(req.RequestURI)
	if err != nil {
		e := &Error{Code: codes.BadHost, Message: "refused URL", Err: err}
		ss.refuse(ss.event(printable(req.URL.Host), 0), e)
		ss.httpRefuse(req, e)
		return
	}
	t := target{host: tgt.Host, port: tgt.Port}
	if tgt.URL.Scheme != "http" {
		e := &Error{Code: codes.Unsupported, Message: "https:// URLs go through CONNECT (set HTTPS_PROXY), not as plain proxy requests"}
		ss.refuse(ss.event(t.host, t.port), e)
		ss.httpRefuse(req, e)
		return
	}
	origin, perr := ss.connectTarget(t, ss.event(t.host, t.port))
	if perr != nil {
		ss.httpRefuse(req, perr)
		return
	}

	act := newActivity()
	idle := ss.srv.cfg.IdleTimeout
	cli := &idleConn{Conn: ss.client, act: act, idle: idle}
	org := &idleConn{Conn: origin, act: act, idle: idle}
	ss.startStreaming(cli)

	out := req
	out.URL = tgt.URL
	out.Host = tgt.URL.Host
	out.RequestURI = ""
	out.Close = true
	removeHopHeaders(out.Header)
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = []string{""} // keep Go from adding its own
	}
	body := &clientBody{r: out.Body}
	out.Body = body

	done := make(chan struct{})    // closed when the forwarding ends
	watched := make(chan struct{}) // closed when the goroutine below ends
	go func() {
		defer close(watched)
		err := out.Write(org)
		if body.failed.Load() {
			// the client went away mid-body: nobody is left to answer
			ss.close()
		}
		if err != nil {
			return
		}
		// The request is sent; the client has nothing more to say (one
		// request per connection). When its side ends (EOF: it
		// half-closed or is gone; or an error), the origin gets
		// HalfCloseTimeout of silence. The socket is read directly:
		// httpRefuse may use ss.br meanwhile, and its drain deadline ends
		// this read too (the forwarding is ending then anyway).
		io.Copy(io.Discard, ss.client)
		ss.linger(act, done)
	}()
	defer func() { <-watched }()
	defer ss.close()
	defer close(done)

	olr := &limitReader{r: org, n: maxResponseHeaderBytes}
	obr := bufio.NewReader(olr)
	relayed := false
	for {
		resp, err := http.ReadResponse(obr, out)
		if err != nil {
			if !relayed {
				e := &Error{Code: codes.BadUpstreamResponse, Message: "no valid HTTP response from " + t.String(), Err: err}
				if olr.exhausted() {
					e.Message = fmt.Sprintf("the response header from %s is larger than %d bytes", t, maxResponseHeaderBytes)
				}
				ss.refuse(ss.event(t.host, t.port), e)
				ss.httpRefuse(req, e)
			}
			return
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
			// 100 Continue, 103 Early Hints: pass on, then read the next
			removeHopHeaders(resp.Header)
			if _, err := fmt.Fprintf(cli, "HTTP/1.1 %s\r\n", resp.Status); err != nil {
				return
			}
			if err := resp.Header.Write(cli); err != nil {
				return
			}
			if _, err := io.WriteString(cli, "\r\n"); err != nil {
				return
			}
			relayed = true
			continue
		}
		olr.n = -1
		removeHopHeaders(resp.Header)
		resp.Close = true
		bw := bufio.NewWriterSize(cli, 32<<10)
		if err := resp.Write(bw); err == nil {
			bw.Flush()
		}
		resp.Body.Close()
		return
	}
}

// clientBody is a forwarded request's body; it records whether reading
// from the client failed (rather than the origin going away).
type clientBody struct {
	r      io.ReadCloser
	failed atomic.Bool
}

func (b *clientBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		b.failed.Store(true)
	}
	return n, err
}

func (b *clientBody) Close() error { return b.r.Close() }
