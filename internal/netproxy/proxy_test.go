package netproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/proxy"

	"github.com/modebox/modebox/internal/codes"
)

func TestConnectListedLoopback(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})

	c, br, resp := connect(t, p, echo.addr)
	defer c.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT status %d", resp.StatusCode)
	}
	echoRoundTrip(t, br, c, []byte("ping through CONNECT"))
	big := []byte(strings.Repeat("0123456789abcdef", 16<<10)) // 256 KiB
	go c.Write(big)
	got := make([]byte, len(big))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != string(big) {
		t.Fatalf("256 KiB echo: err %v, equal %v", err, string(got) == string(big))
	}
	// half-close: the target sees EOF, answers with EOF
	c.(*net.UnixConn).CloseWrite()
	if rest, err := io.ReadAll(br); err != nil || len(rest) != 0 {
		t.Fatalf("after CloseWrite: %q, %v", rest, err)
	}
	if !hasEvent(p.events.all(), func(e Event) bool {
		return e.Allowed && e.Protocol == ProtoConnect && e.Host == "127.0.0.1" && e.Port == echo.port && e.Entry == echo.addr
	}) {
		t.Errorf("no allowed connect event: %+v", p.events.all())
	}
}

func TestConnectPipelinedBytes(t *testing.T) {
	// bytes sent right after the CONNECT header (before the 200) are
	// tunnelled, not lost
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})
	c := p.dial(t)
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "CONNECT "+echo.addr+" HTTP/1.1\r\n\r\nearly bytes")
	want := "HTTP/1.1 200 Connection established\r\n\r\nearly bytes"
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c, got); err != nil || string(got) != want {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestHTTPSThroughConnect(t *testing.T) {
	// what curl/Go do with HTTPS_PROXY: CONNECT, then TLS end to end
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "tls ok")
	}))
	defer srv.Close()
	hostport := strings.TrimPrefix(srv.URL, "https://")
	p := startProxy(t, Config{Allow: []string{hostport}})
	client, tr := p.httpClient()
	tr.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	defer tr.CloseIdleConnections()
	resp, err := client.Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "tls ok" {
		t.Fatalf("status %d body %q", resp.StatusCode, b)
	}
	if resp.TLS == nil {
		t.Fatal("not TLS")
	}
}

func TestPlainHTTPListedLoopback(t *testing.T) {
	h := newHTTPTarget(t)
	entry := "127.0.0.1:" + strconv.Itoa(h.port)
	p := startProxy(t, Config{Allow: []string{entry}})
	client, _ := p.httpClient()

	req, _ := http.NewRequest("POST", "http://"+entry+"/path?q=1", strings.NewReader("payload"))
	req.Header.Set("Proxy-Authorization", "Basic c2VjcmV0OnNlY3JldA==")
	req.Header.Set("Proxy-Connection", "keep-alive")
	req.Header.Set("Connection", "X-Secret-Hop")
	req.Header.Set("X-Secret-Hop", "must not reach the origin")
	req.Header.Set("X-Kept", "kept")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "hello from origin: POST /path?q=1 body=payload" {
		t.Fatalf("status %d body %q", resp.StatusCode, b)
	}
	if resp.Header.Get("X-Origin") != "yes" || resp.Header.Get("Keep-Alive") != "" {
		t.Errorf("response headers %v", resp.Header)
	}
	last, uri := h.lastRequest()
	if uri != "/path?q=1" {
		t.Errorf("origin saw request target %q, want origin-form", uri)
	}
	if last.Host != entry {
		t.Errorf("origin saw Host %q", last.Host)
	}
	for _, k := range []string{"Proxy-Authorization", "Proxy-Connection", "X-Secret-Hop"} {
		if v := last.Header.Get(k); v != "" {
			t.Errorf("origin saw %s: %q", k, v)
		}
	}
	if last.Header.Get("X-Kept") != "kept" {
		t.Errorf("end-to-end header lost")
	}
	if !hasEvent(p.events.all(), func(e Event) bool { return e.Allowed && e.Protocol == ProtoHTTP && e.Port == h.port }) {
		t.Errorf("no allowed http event: %+v", p.events.all())
	}

	// a chunked upload with Expect: 100-continue, and a HEAD
	req, _ = http.NewRequest("PUT", "http://"+entry+"/up", io.MultiReader(strings.NewReader("chunk"), strings.NewReader("ed")))
	req.Header.Set("Expect", "100-continue")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "hello from origin: PUT /up body=chunked" {
		t.Fatalf("chunked upload: %q", b)
	}
	resp, err = client.Head("http://" + entry + "/h")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("HEAD: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestSOCKS5ListedLoopback(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})
	d, err := proxy.SOCKS5("unix", p.sock, nil, proxy.Direct)
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Dial("tcp", echo.addr) // ATYP IPv4
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echoRoundTrip(t, c, c, []byte("ping through SOCKS5"))
	if !hasEvent(p.events.all(), func(e Event) bool { return e.Allowed && e.Protocol == ProtoSOCKS5 && e.Host == "127.0.0.1" }) {
		t.Errorf("no allowed socks5 event: %+v", p.events.all())
	}

	// an IP literal sent as ATYP domain (socks5h clients do that) is the
	// same target
	c2, code, err := socksRequest(t, p, 1, 3, []byte("127.0.0.1"), echo.port)
	if err != nil || code != 0 {
		t.Fatalf("ATYP domain 127.0.0.1: code %d err %v", code, err)
	}
	echoRoundTrip(t, c2, c2, []byte("domain-form literal"))
	c2.Close()
}

func TestIPv6LiteralEntry(t *testing.T) {
	l, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no IPv6 loopback on this CI machine:", err)
		}
		t.Skip("no IPv6 loopback:", err)
	}
	l.Close()
	echo := newEchoTarget(t, "tcp6", "[::1]:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})
	c, br, resp := connect(t, p, echo.addr)
	defer c.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT [::1] status %d", resp.StatusCode)
	}
	echoRoundTrip(t, br, c, []byte("v6"))
	s, code, err := socksRequest(t, p, 1, 4, ip16("::1"), echo.port)
	if err != nil || code != 0 {
		t.Fatalf("SOCKS5 ATYP IPv6 ::1 listed: code %d err %v", code, err)
	}
	echoRoundTrip(t, s, s, []byte("v6 socks"))
	s.Close()
}

func TestUnlistedRefused(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	h := newHTTPTarget(t)
	listed := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{listed.addr}})

	status, body := connectStatus(t, p, echo.addr)
	if status != 403 || !strings.Contains(body, echo.addr) || !strings.Contains(body, "shell.network.allow") {
		t.Errorf("CONNECT unlisted: %d %q", status, body)
	}
	client, _ := p.httpClient()
	resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(h.port) + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 403 || resp.Header.Get("X-Modebox-Proxy-Error") != string(codes.HostNotAllowed) || !strings.Contains(string(b), "shell.network.allow") {
		t.Errorf("plain HTTP unlisted: %d %v %q", resp.StatusCode, resp.Header, b)
	}
	if code := socksReplyCode(t, p, 1, 1, ip4("127.0.0.1"), echo.port); code != 0x02 {
		t.Errorf("SOCKS5 unlisted: reply %#x, want 0x02", code)
	}
	if code := socksReplyCode(t, p, 1, 4, ip16("::1"), echo.port); code != 0x02 {
		t.Errorf("SOCKS5 unlisted ::1: reply %#x, want 0x02", code)
	}
	// x/net's client reports the refusal too
	d, _ := proxy.SOCKS5("unix", p.sock, nil, proxy.Direct)
	if c, err := d.Dial("tcp", echo.addr); err == nil {
		c.Close()
		t.Error("x/net SOCKS5 to unlisted port succeeded")
	} else if !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("x/net SOCKS5 error: %v", err)
	}
	// a listed host on another port is not listed
	if status, _ := connectStatus(t, p, "127.0.0.1:"+strconv.Itoa(listed.port+1)); status != 403 {
		t.Errorf("other port: %d", status)
	}
	settle()
	if echo.accepts() != 0 || h.accepts() != 0 {
		t.Errorf("unlisted targets saw connections: echo %d http %d", echo.accepts(), h.accepts())
	}
	evs := p.events.all()
	for _, proto := range []string{ProtoConnect, ProtoHTTP, ProtoSOCKS5} {
		if !hasEvent(evs, func(e Event) bool { return e.Protocol == proto && !e.Allowed && e.Code == codes.HostNotAllowed }) {
			t.Errorf("no refusal event for %s: %+v", proto, evs)
		}
	}
}

func TestListedNameResolvingToLoopbackRefused(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	h := newHTTPTarget(t)
	res := newStub("svc.test", "127.0.0.1", "mixed.test", "93.184.215.14", "mixed.test", "10.0.0.1", "meta.test", "169.254.169.254")
	port, hport := strconv.Itoa(echo.port), strconv.Itoa(h.port)
	p := startProxy(t, Config{
		Allow:    []string{"svc.test:" + port, "svc.test:" + hport, "*.test:" + port, "mixed.test:" + port, "meta.test:" + port},
		Resolver: res,
	})
	for _, host := range []string{"svc.test", "sub.svc.test", "mixed.test", "meta.test"} {
		if host == "sub.svc.test" {
			res.mu.Lock()
			res.m[host] = res.m["svc.test"]
			res.mu.Unlock()
		}
		status, body := connectStatus(t, p, host+":"+port)
		if status != 403 || !strings.Contains(body, "address") {
			t.Errorf("CONNECT %s: %d %q", host, status, body)
		}
		if code := socksReplyCode(t, p, 1, 3, []byte(host), echo.port); code != 0x02 {
			t.Errorf("SOCKS5 %s: reply %#x, want 0x02", host, code)
		}
	}
	resp, body := rawHTTP(t, p, "GET http://svc.test:"+hport+"/ HTTP/1.1\r\nHost: svc.test\r\n\r\n")
	if resp.StatusCode != 403 || resp.Header.Get("X-Modebox-Proxy-Error") != string(codes.AddressRefused) || !strings.Contains(body, "loopback") {
		t.Errorf("plain HTTP svc.test: %d %q", resp.StatusCode, body)
	}
	settle()
	if echo.accepts() != 0 || h.accepts() != 0 {
		t.Errorf("targets saw connections: %d %d", echo.accepts(), h.accepts())
	}
	if got := res.asked(); len(got) == 0 {
		t.Error("the resolver was never asked: names are not resolved on the host")
	}
}

func TestListedNameDialErrors(t *testing.T) {
	// a public address the dial cannot reach: an error, not a hang
	res := newStub("v6.test", "2606:4700:4700::1111", "v4.test", "1.2.3.4")
	p := startProxy(t, Config{
		Allow:       []string{"v6.test:1", "v4.test:1", "nx.test:1"},
		Resolver:    res,
		DialTimeout: 2 * time.Second,
	})
	start := time.Now()
	status, body := connectStatus(t, p, "v6.test:1")
	if status != 502 && status != 504 {
		t.Errorf("CONNECT v6.test: %d %q", status, body)
	}
	code := socksReplyCode(t, p, 1, 3, []byte("v6.test"), 1)
	if code != 0x03 && code != 0x04 && code != 0x05 {
		t.Errorf("SOCKS5 v6.test: %#x", code)
	}
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("took %v", el)
	}
	// unknown name: resolve failure, host unreachable
	if status, body := connectStatus(t, p, "nx.test:1"); status != 502 || !strings.Contains(body, "resolve") {
		t.Errorf("CONNECT nx.test: %d %q", status, body)
	}
	if code := socksReplyCode(t, p, 1, 3, []byte("nx.test"), 1); code != 0x04 {
		t.Errorf("SOCKS5 nx.test: %#x", code)
	}
}

func TestDialTimeoutReported(t *testing.T) {
	// a dial that cannot finish in time, whatever the network does
	res := newStub("v4.test", "1.2.3.4")
	p := startProxy(t, Config{Allow: []string{"v4.test:1"}, Resolver: res, DialTimeout: time.Nanosecond})
	if status, body := connectStatus(t, p, "v4.test:1"); status != 504 || !strings.Contains(body, "timed out") {
		t.Errorf("CONNECT: %d %q", status, body)
	}
	if code := socksReplyCode(t, p, 1, 3, []byte("v4.test"), 1); code != 0x04 {
		t.Errorf("SOCKS5: %#x", code)
	}
	resp, _ := rawHTTP(t, p, "GET http://v4.test:1/ HTTP/1.1\r\nHost: v4.test:1\r\n\r\n")
	if resp.StatusCode != 504 {
		t.Errorf("HTTP: %d", resp.StatusCode)
	}
}

func TestConnectionRefusedReported(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	p := startProxy(t, Config{Allow: []string{addr}})
	if status, body := connectStatus(t, p, addr); status != 502 || !strings.Contains(body, "refused the connection") {
		t.Errorf("CONNECT: %d %q", status, body)
	}
	if code := socksReplyCode(t, p, 1, 1, ip4("127.0.0.1"), port); code != 0x05 {
		t.Errorf("SOCKS5: %#x, want 0x05", code)
	}
}

func TestSOCKS5Commands(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})
	for _, tc := range []struct {
		name       string
		cmd, atyp  byte
		addr       []byte
		want       byte
		wantCodeEv codes.Code
	}{
		{"BIND", 2, 1, ip4("127.0.0.1"), 0x07, codes.Unsupported},
		{"UDP ASSOCIATE", 3, 1, ip4("127.0.0.1"), 0x07, codes.Unsupported},
		{"command 9", 9, 1, ip4("127.0.0.1"), 0x07, codes.Unsupported},
		{"ATYP 5", 1, 5, nil, 0x08, codes.BadAddressType},
		{"numeric domain", 1, 3, []byte("2130706433"), 0x02, codes.BadHost},
		{"hex domain", 1, 3, []byte("0x7f.1"), 0x02, codes.BadHost},
		{"short domain", 1, 3, []byte("127.1"), 0x02, codes.BadHost},
		{"mapped v6", 1, 4, ip16("::ffff:127.0.0.1"), 0x02, codes.HostNotAllowed},
		{"domain with port", 1, 3, []byte("127.0.0.1:" + strconv.Itoa(echo.port)), 0x02, codes.BadHost},
		{"domain with zone", 1, 3, []byte("fe80::1%lo"), 0x02, codes.BadHost},
		{"empty domain", 1, 3, []byte{}, 0x01, codes.BadRequest},
		{"domain with NUL", 1, 3, []byte("127.0.0.1\x00.evil"), 0x02, codes.BadHost},
		{"trailing dot", 1, 3, []byte("localhost."), 0x02, codes.BadHost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port := echo.port
			var (
				c    net.Conn
				code byte
				err  error
			)
			if tc.atyp == 5 {
				// unknown ATYP: the reply comes before any address byte
				c = p.dial(t)
				c.SetDeadline(time.Now().Add(5 * time.Second))
				c.Write([]byte{5, 1, 0, 5, 1, 0, 5})
				rep := make([]byte, 12)
				if _, rerr := io.ReadFull(c, rep); rerr != nil {
					t.Fatalf("reading the reply: %v", rerr)
				}
				code = rep[3]
				if rep[0] != 5 || rep[1] != 0 {
					t.Fatalf("reply %v", rep)
				}
			} else {
				c, code, err = socksRequest(t, p, tc.cmd, tc.atyp, tc.addr, port)
			}
			if err != nil {
				t.Fatal(err)
			}
			c.Close()
			if code != tc.want {
				t.Errorf("reply %#x, want %#x", code, tc.want)
			}
		})
	}
	settle()
	if echo.accepts() != 0 {
		t.Errorf("target saw %d connections", echo.accepts())
	}
}

func TestSOCKSHandshakeOddities(t *testing.T) {
	p := startProxy(t, Config{})
	// no acceptable method: 0xFF
	c := p.dial(t)
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 2}) // username/password only
	var sel [2]byte
	if _, err := io.ReadFull(c, sel[:]); err != nil || sel != [2]byte{5, 0xff} {
		t.Errorf("auth-only greeting: %v %v", sel, err)
	}
	c.Close()
	// SOCKS4
	c = p.dial(t)
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{4, 1, 0, 80, 127, 0, 0, 1, 0})
	var r4 [8]byte
	if _, err := io.ReadFull(c, r4[:]); err != nil || r4[1] != 0x5b {
		t.Errorf("SOCKS4: %v %v", r4, err)
	}
	c.Close()
	// truncated greetings and requests: closed, server alive
	for _, b := range [][]byte{{5}, {5, 3, 0}, {5, 1, 0, 5, 1}, {5, 1, 0, 5, 1, 0, 3, 10, 'a'}} {
		c := p.dial(t)
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.Write(b)
		c.(*net.UnixConn).CloseWrite()
		io.ReadAll(c)
		c.Close()
	}
	// wrong version in the request: general failure
	c = p.dial(t)
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 0, 4, 1, 0, 1, 127, 0, 0, 1, 0, 80})
	rep := make([]byte, 12)
	if _, err := io.ReadFull(c, rep); err != nil || rep[3] != 0x01 {
		t.Errorf("bad request version: %v %v", rep, err)
	}
	c.Close()
	if status, _ := connectStatus(t, p, "example.com:443"); status != 403 {
		t.Errorf("server unhealthy after oddities: %d", status)
	}
}

func TestNumericAndEncodedHosts(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	h := newHTTPTarget(t)
	port, hport := strconv.Itoa(echo.port), strconv.Itoa(h.port)
	p := startProxy(t, Config{Allow: []string{"127.0.0.1:" + port, "127.0.0.1:" + hport}})
	forms := []string{"2130706433", "0x7f000001", "0x7f.1", "127.1", "0177.0.0.1", "127.000.000.001", "127.0.0.01",
		"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::1%25lo]", "[::1%lo]", "[127.0.0.1]", "127.0.0.1.", "localhost",
		"１２７.０.０.１", "127。0。0。1", "127.0.0.1%00"}
	for _, f := range forms {
		status, body := connectStatus(t, p, f+":"+port)
		if status != 400 && status != 403 {
			t.Errorf("CONNECT %s: %d %q", f, status, body)
		}
		resp, body := rawHTTP(t, p, "GET http://"+f+":"+hport+"/ HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp.StatusCode != 400 && resp.StatusCode != 403 {
			t.Errorf("GET http://%s: %d %q", f, resp.StatusCode, body)
		}
	}
	for _, a := range []string{"127.0.0.1:" + port + "@evil.test:443", "evil.test:443@127.0.0.1:" + port, "127.0.0.1:" + port + "#x", "127.0.0.1:+" + port, "127.0.0.1:0" + port, "127.0.0.1", "127.0.0.1:", ":" + port, "*.0.0.1:" + port, "/127.0.0.1:" + port, "http://127.0.0.1:" + port} {
		status, body := connectStatus(t, p, a)
		if status != 400 && status != 403 {
			t.Errorf("CONNECT %s: %d %q", a, status, body)
		}
	}
	for _, u := range []string{"http://127.0.0.1:" + hport + "@evil.test/", "http://evil.test@127.0.0.1:" + hport + "/", "http:/127.0.0.1:" + hport + "/", "http://127.0.0.1:" + hport + "\\@evil/"} {
		resp, body := rawHTTP(t, p, "GET "+u+" HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp.StatusCode != 400 && resp.StatusCode != 403 {
			t.Errorf("GET %s: %d %q", u, resp.StatusCode, body)
		}
	}
	settle()
	if echo.accepts() != 0 || h.accepts() != 0 {
		t.Errorf("targets saw connections: %d %d", echo.accepts(), h.accepts())
	}
	// the canonical form still works
	if status, _ := connectStatus(t, p, "127.0.0.1:"+port); status != 200 {
		t.Errorf("canonical form: %d", status)
	}
}

func TestMalformedHTTP(t *testing.T) {
	h := newHTTPTarget(t)
	p := startProxy(t, Config{Allow: []string{"127.0.0.1:" + strconv.Itoa(h.port)}, MaxHeaderBytes: 4096})
	for _, tc := range []struct {
		name, raw string
		status    int
	}{
		{"origin-form", "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + strconv.Itoa(h.port) + "\r\n\r\n", 400},
		{"garbage", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n", 400},
		{"no version", "GET http://127.0.0.1/\r\n\r\n", 400},
		{"https absolute", "GET https://127.0.0.1:" + strconv.Itoa(h.port) + "/ HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"ftp absolute", "GET ftp://127.0.0.1:" + strconv.Itoa(h.port) + "/ HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"CONNECT without port", "CONNECT example.com HTTP/1.1\r\n\r\n", 400},
		{"CONNECT path", "CONNECT /x HTTP/1.1\r\n\r\n", 400},
		{"h2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400},
		{"huge header line", "GET http://127.0.0.1/ HTTP/1.1\r\nX-Long: " + strings.Repeat("a", 10000) + "\r\n\r\n", 431},
		{"many headers", "GET http://127.0.0.1/ HTTP/1.1\r\n" + strings.Repeat("X-A: b\r\n", 2000) + "\r\n", 431},
		{"huge request line", "GET http://127.0.0.1/" + strings.Repeat("a", 10000) + " HTTP/1.1\r\n\r\n", 431},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := rawHTTP(t, p, tc.raw)
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %q", resp.StatusCode, tc.status, body)
			}
		})
	}
	// garbage that closes at once
	c := p.dial(t)
	c.Write([]byte{0, 0, 0})
	c.Close()
	c = p.dial(t)
	c.Close()
	settle()
	if h.accepts() != 0 {
		t.Errorf("target saw %d connections", h.accepts())
	}
	client, _ := p.httpClient()
	resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(h.port) + "/ok")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("server unhealthy after malformed input: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestSlowloris(t *testing.T) {
	p := startProxy(t, Config{HeaderTimeout: 300 * time.Millisecond, HandshakeTimeout: 300 * time.Millisecond})
	trickle := func(name string, data []byte) {
		c := p.dial(t)
		defer c.Close()
		start := time.Now()
		done := make(chan struct{})
		go func() {
			defer close(done)
			for _, b := range data {
				if _, err := c.Write([]byte{b}); err != nil {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, _ := io.ReadAll(c)
		el := time.Since(start)
		c.Close()
		<-done
		if el > 2*time.Second {
			t.Errorf("%s: connection lived %v", name, el)
		}
		if name == "http" && !strings.Contains(string(got), "408") {
			t.Errorf("%s: got %q", name, got)
		}
	}
	trickle("http", []byte("GET http://example.com/ HTTP/1.1\r\nX-Slow: "+strings.Repeat("a", 100)))
	trickle("socks", []byte{5, 1, 0, 5, 1, 0, 3, 100, 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'})
	// a connection that sends nothing at all
	c := p.dial(t)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	io.ReadAll(c)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("silent connection lived %v", el)
	}
	c.Close()
	if !hasEvent(p.events.all(), func(e Event) bool { return e.Code == codes.Timeout }) {
		t.Errorf("no timeout event: %+v", p.events.all())
	}
}

func TestMaxConns(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}, MaxConns: 2})
	c1, br1, r1 := connect(t, p, echo.addr)
	c2, br2, r2 := connect(t, p, echo.addr)
	if r1.StatusCode != 200 || r2.StatusCode != 200 {
		t.Fatalf("first two: %d %d", r1.StatusCode, r2.StatusCode)
	}
	status, body := connectStatus(t, p, echo.addr)
	if status != 503 || !strings.Contains(body, "too many") {
		t.Errorf("third CONNECT: %d %q", status, body)
	}
	if code := socksReplyCode(t, p, 1, 1, ip4("127.0.0.1"), echo.port); code != 0x01 {
		t.Errorf("third SOCKS5: %#x, want 0x01", code)
	}
	waitFor(t, "two target connections", func() bool { return echo.accepts() == 2 })
	// flood beyond the overflow slots: all closed, nothing reaches the target
	var flood []net.Conn
	for i := 0; i < overflowSlots+5; i++ {
		flood = append(flood, p.dial(t))
	}
	for _, c := range flood {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		c.Write([]byte("CONNECT " + echo.addr + " HTTP/1.1\r\n\r\n"))
	}
	for _, c := range flood {
		b, _ := io.ReadAll(c)
		if len(b) > 0 && !strings.Contains(string(b), "503") {
			t.Errorf("flood connection got %q", b)
		}
		c.Close()
	}
	echoRoundTrip(t, br1, c1, []byte("still alive"))
	echoRoundTrip(t, br2, c2, []byte("still alive"))
	c1.Close()
	// a slot frees up
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, _ := connectStatus(t, p, echo.addr)
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after closing a tunnel: %d", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c2.Close()
}

func TestIdleTimeout(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}, IdleTimeout: time.Second})
	// busy: traffic every 100ms for 1.5s keeps the tunnel open
	c, br, _ := connect(t, p, echo.addr)
	var start time.Time
	for i := 0; i < 15; i++ {
		time.Sleep(100 * time.Millisecond)
		echoRoundTrip(t, br, c, []byte("tick"))
		start = time.Now()
	}
	// idle: closed about 1s after the last byte
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("idle tunnel read: %v", err)
	}
	if el := time.Since(start); el < 900*time.Millisecond || el > 4*time.Second {
		t.Errorf("idle tunnel closed after %v", el)
	}
	c.Close()
}

func TestOneWayTrafficIsNotIdle(t *testing.T) {
	// the client only listens while the target streams: not idle
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for i := 0; i < 15; i++ {
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	p := startProxy(t, Config{Allow: []string{l.Addr().String()}, IdleTimeout: time.Second})
	c, br, resp := connect(t, p, l.Addr().String())
	defer c.Close()
	if resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	b, err := io.ReadAll(br)
	if err != nil || string(b) != strings.Repeat("x", 15) {
		t.Errorf("stream: %q %v", b, err)
	}
}

func TestCloseWithLiveTunnels(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	h := newHTTPTarget(t)
	time.Sleep(50 * time.Millisecond)
	base := runtime.NumGoroutine()

	sock := t.TempDir() + "/p.sock"
	s, err := Listen(sock, Config{Allow: []string{echo.addr, "127.0.0.1:" + strconv.Itoa(h.port)}})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	p := &proxyT{Server: s, sock: sock}

	var conns []net.Conn
	for i := 0; i < 5; i++ {
		c, br, resp := connect(t, p, echo.addr)
		if resp.StatusCode != 200 {
			t.Fatal(resp.Status)
		}
		echoRoundTrip(t, br, c, []byte("live"))
		conns = append(conns, c)
	}
	for i := 0; i < 3; i++ {
		_, code, err := socksRequest(t, p, 1, 1, ip4("127.0.0.1"), echo.port)
		if err != nil || code != 0 {
			t.Fatal(code, err)
		}
	}
	// a connection mid-header and one that sent nothing
	half := p.dial(t)
	io.WriteString(half, "GET http://")
	silent := p.dial(t)
	conns = append(conns, half, silent)

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		// EOF, or a reset when the proxy had unread input
		if _, err := io.ReadAll(c); err != nil && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("after Close: %v", err)
		}
		c.Close()
	}
	if _, err := net.Dial("unix", sock); err == nil {
		t.Error("socket still accepts after Close")
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Error("socket file left behind")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := s.Serve(); err != ErrServerClosed {
		t.Errorf("Serve after Close: %v", err)
	}
	waitGoroutines(t, base)
}

func TestEventsAndReasons(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	var got []Event
	var mu = make(chan struct{}, 1)
	p := startProxy(t, Config{Allow: []string{echo.addr}, OnEvent: func(e Event) {
		mu <- struct{}{}
		got = append(got, e)
		<-mu
	}})
	connectStatus(t, p, echo.addr)
	connectStatus(t, p, "example.com:443")
	connectStatus(t, p, "2130706433:80")
	mu <- struct{}{}
	defer func() { <-mu }()
	if len(got) != 3 {
		t.Fatalf("events: %+v", got)
	}
	if e := got[0]; !e.Allowed || e.Protocol != ProtoConnect || e.Host != "127.0.0.1" || e.Port != echo.port || e.Time.IsZero() || e.Code != "" {
		t.Errorf("allowed event %+v", e)
	}
	if e := got[1]; e.Allowed || e.Host != "example.com" || e.Port != 443 || e.Code != codes.HostNotAllowed || !strings.Contains(e.Reason, "shell.network.allow") {
		t.Errorf("refused event %+v", e)
	}
	if e := got[2]; e.Allowed || e.Code != codes.BadHost || !strings.Contains(e.Reason, "non-canonical") {
		t.Errorf("bad host event %+v", e)
	}
}

func TestListen(t *testing.T) {
	dir := t.TempDir()
	sock := dir + "/new/dir/p.sock"
	s, err := Listen(sock, Config{})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Mode().Type() != fs.ModeSocket {
		t.Errorf("socket mode %v", fi.Mode())
	}
	di, _ := os.Lstat(dir + "/new/dir")
	if di.Mode().Perm() != 0o700 {
		t.Errorf("created directory mode %v", di.Mode())
	}
	go s.Serve()
	// a live socket is not taken over
	if _, err := Listen(sock, Config{}); err == nil {
		t.Error("Listen over a live socket succeeded")
	}
	s.Close()

	// a stale socket is replaced
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: dir + "/stale.sock", Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close()
	s2, err := Listen(dir+"/stale.sock", Config{})
	if err != nil {
		t.Fatalf("stale socket: %v", err)
	}
	s2.Close()

	// a regular file is not replaced
	os.WriteFile(dir+"/file", []byte("x"), 0o600)
	var pe *Error
	if _, err := Listen(dir+"/file", Config{}); !errors.As(err, &pe) || pe.Code != codes.ListenFailed {
		t.Errorf("regular file: %v", err)
	}
	// a bad allowlist entry
	if _, err := Listen(dir+"/x.sock", Config{Allow: []string{"example.com"}}); !errors.As(err, &pe) || pe.Code != codes.BadConfig {
		t.Errorf("bad entry: %v", err)
	}
	if _, err := Listen(dir+"/y.sock", Config{Allow: []string{"127.1:80"}}); !errors.As(err, &pe) || pe.Code != codes.BadConfig {
		t.Errorf("non-canonical entry: %v", err)
	}
	if s.Addr() != sock {
		t.Errorf("Addr %q", s.Addr())
	}
}

func TestConcurrentClients(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})
	d, _ := proxy.SOCKS5("unix", p.sock, nil, proxy.Direct)
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		go func(i int) {
			var c net.Conn
			var err error
			if i%2 == 0 {
				c, err = d.(proxy.ContextDialer).DialContext(context.Background(), "tcp", echo.addr)
			} else {
				var cc net.Conn
				cc, err = net.Dial("unix", p.sock)
				if err == nil {
					fmt.Fprintf(cc, "CONNECT %s HTTP/1.1\r\n\r\n", echo.addr)
					buf := make([]byte, len("HTTP/1.1 200 Connection established\r\n\r\n"))
					_, err = io.ReadFull(cc, buf)
					c = cc
				}
			}
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			msg := []byte(strings.Repeat(strconv.Itoa(i), 1000))
			c.Write(msg)
			got := make([]byte, len(msg))
			if _, err := io.ReadFull(c, got); err != nil || string(got) != string(msg) {
				errs <- fmt.Errorf("client %d: %v", i, err)
				return
			}
			errs <- nil
		}(i)
	}
	for i := 0; i < 40; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestIPv6TextIsCanonicalised(t *testing.T) {
	// IPv6 text forms of the same address match ([0:0::1] is [::1]:
	// netguard canonicalises IPv6 text per RFC 5952); mapped IPv4 forms
	// never match an IPv4 entry (see TestNumericAndEncodedHosts).
	l, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no IPv6 loopback on this CI machine:", err)
		}
		t.Skip("no IPv6 loopback:", err)
	}
	l.Close()
	echo := newEchoTarget(t, "tcp6", "[::1]:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}})
	port := strconv.Itoa(echo.port)
	for _, f := range []string{"[0:0:0:0:0:0:0:1]", "[0::1]", "[::0001]"} {
		if status, body := connectStatus(t, p, f+":"+port); status != 200 {
			t.Errorf("CONNECT %s: %d %q", f, status, body)
		}
	}
	for _, f := range []string{"[::ffff:0:1]", "[::1%25lo]", "[::2]"} {
		if status, _ := connectStatus(t, p, f+":"+port); status == 200 {
			t.Errorf("CONNECT %s allowed", f)
		}
	}
}

func TestHostHeaderIsRewritten(t *testing.T) {
	// the origin sees the Host of the checked URL, not the client's
	h := newHTTPTarget(t)
	entry := "127.0.0.1:" + strconv.Itoa(h.port)
	p := startProxy(t, Config{Allow: []string{entry}})
	resp, body := rawHTTP(t, p, "GET http://"+entry+"/a HTTP/1.1\r\nHost: metadata.google.internal\r\nProxy-Authorization: Basic eDp5\r\n\r\n")
	if resp.StatusCode != 200 || !resp.Close {
		t.Fatalf("%d %v %q", resp.StatusCode, resp.Header, body)
	}
	last, _ := h.lastRequest()
	if last.Host != entry || last.Header.Get("Proxy-Authorization") != "" {
		t.Errorf("origin saw Host %q, headers %v", last.Host, last.Header)
	}
	// a second request pipelined on the same connection is not forwarded
	c := p.dial(t)
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET http://"+entry+"/one HTTP/1.1\r\nHost: x\r\n\r\nGET http://"+entry+"/two HTTP/1.1\r\nHost: x\r\n\r\n")
	all, _ := io.ReadAll(c)
	if !strings.Contains(string(all), "/one") || strings.Contains(string(all), "/two") {
		t.Errorf("pipelined: %q", all)
	}
}

func TestOnEventPanicDoesNotKillServer(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	p := startProxy(t, Config{Allow: []string{echo.addr}, MaxConns: 1, OnEvent: func(Event) { panic("logger bug") }})
	c, br, resp := connect(t, p, echo.addr)
	if resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	echoRoundTrip(t, br, c, []byte("ok"))
	c.Close()
	waitFor(t, "a free slot", func() bool {
		status, _ := connectStatus(t, p, echo.addr)
		return status == 200
	})
}
