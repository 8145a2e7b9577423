package webfetch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// gzipBomb returns about 1 MiB of gzip that expands to 1 GiB of zeros: one
// member of 16 MiB repeated (a gzip stream may hold many members).
func gzipBomb(t testing.TB) []byte {
	t.Helper()
	var one bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&one, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 16; i++ {
		zw.Write(zeros)
	}
	zw.Close()
	return bytes.Repeat(one.Bytes(), 64)
}

func TestGzipBomb(t *testing.T) {
	bomb := gzipBomb(t)
	t.Logf("bomb: %d bytes of gzip for 1 GiB", len(bomb))
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Error("the host did not ask for gzip")
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(bomb)
	})
	c := mustNew(t, Config{Allow: []string{srv.entry()}})
	s := session(t, c)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := s.Do(context.Background(), Request{URL: srv.URL}, false)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	wantCode(t, err, codes.FetchTooLarge)
	if !strings.Contains(err.Error(), "decompressed") {
		t.Errorf("message: %v", err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("refused after %v, %d MiB allocated", elapsed, alloc>>20)
	if elapsed > 5*time.Second {
		t.Errorf("took %v", elapsed)
	}
	if alloc > 128<<20 {
		t.Errorf("allocated %d MiB for a 10 MiB cap", alloc>>20)
	}

	// a small gzip body is decoded, and the cap counts decoded bytes
	var small bytes.Buffer
	zw := gzip.NewWriter(&small)
	zw.Write(bytes.Repeat([]byte("a"), 2000))
	zw.Close()
	srv2 := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(small.Bytes())
	})
	for _, tc := range []struct {
		max  int64
		code codes.Code
	}{{2000, ""}, {1999, codes.FetchTooLarge}} {
		c := mustNew(t, Config{Allow: []string{srv2.entry()}, MaxBytes: tc.max})
		r, err := session(t, c).Do(context.Background(), Request{URL: srv2.URL}, false)
		if tc.code != "" {
			wantCode(t, err, tc.code)
			continue
		}
		if err != nil || len(r.Body) != 2000 || r.Headers["content-encoding"] != "" {
			t.Fatalf("max %d: %v %+v", tc.max, err, r)
		}
	}
}

func TestBodyCap(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 5000)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			w.Write(big[:10]) // no Content-Length: chunked
			w.(http.Flusher).Flush()
			w.Write(big[10:])
			return
		}
		w.Write(big)
	})
	c := mustNew(t, Config{Allow: []string{srv.entry()}, MaxBytes: 4999})
	s := session(t, c)
	for _, p := range []string{"/", "/chunked"} {
		_, err := s.Do(context.Background(), Request{URL: srv.URL + p}, false)
		wantCode(t, err, codes.FetchTooLarge)
	}
	c = mustNew(t, Config{Allow: []string{srv.entry()}, MaxBytes: 5000})
	if r, err := session(t, c).Do(context.Background(), Request{URL: srv.URL + "/chunked"}, false); err != nil || len(r.Body) != 5000 {
		t.Fatalf("at the cap: %v", err)
	}
}

// rawHTTP serves each connection by reading one request head and then
// writing resp.
func rawHTTP(t testing.TB, resp func(w io.Writer, n int)) int {
	n := 0
	return rawServer(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			n++
			resp(c, n)
		}
	})
}

func TestLyingContentLength(t *testing.T) {
	ctx := context.Background()
	t.Run("shorter than the body", func(t *testing.T) {
		port := rawHTTP(t, func(w io.Writer, n int) {
			io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello world, and more")
		})
		entry := "127.0.0.1:" + strconv.Itoa(port)
		s := session(t, mustNew(t, Config{Allow: []string{entry}}))
		for i := 0; i < 3; i++ { // the extra bytes must not be read as the next response
			r, err := s.Do(ctx, Request{URL: "http://" + entry + "/"}, false)
			if err != nil {
				// the transport may notice the unsolicited bytes on the
				// idle connection and fail the next request: never with
				// those bytes as a response
				wantCode(t, err, codes.FetchFailed)
				continue
			}
			if string(r.Body) != "hello" {
				t.Fatalf("body %q", r.Body)
			}
		}
	})
	t.Run("longer than the body", func(t *testing.T) {
		port := rawServer(t, func(c net.Conn) {
			http.ReadRequest(bufio.NewReader(c))
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello")
		})
		entry := "127.0.0.1:" + strconv.Itoa(port)
		_, err := session(t, mustNew(t, Config{Allow: []string{entry}})).Do(ctx, Request{URL: "http://" + entry + "/"}, false)
		wantCode(t, err, codes.FetchFailed)
		if !strings.Contains(err.Error(), "ended early") {
			t.Errorf("message: %v", err)
		}
	})
	t.Run("announced over the cap", func(t *testing.T) {
		port := rawServer(t, func(c net.Conn) {
			http.ReadRequest(bufio.NewReader(c))
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\nhello")
			time.Sleep(5 * time.Second) // a client that waits for the body times out
		})
		entry := "127.0.0.1:" + strconv.Itoa(port)
		start := time.Now()
		_, err := session(t, mustNew(t, Config{Allow: []string{entry}})).Do(ctx, Request{URL: "http://" + entry + "/"}, false)
		wantCode(t, err, codes.FetchTooLarge)
		if time.Since(start) > 2*time.Second {
			t.Fatal("waited for the body")
		}
	})
}

func TestOversizedHeaders(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		for i := 0; i < n; i++ {
			w.Header().Add("X-Big-"+strconv.Itoa(i), strings.Repeat("a", 1000))
		}
		w.Write([]byte("ok"))
	})
	c := mustNew(t, Config{Allow: []string{srv.entry()}, MaxHeaderBytes: 16 << 10})
	s := session(t, c)
	if _, err := s.Do(context.Background(), Request{URL: srv.URL + "/?n=10"}, false); err != nil {
		t.Fatal(err)
	}
	_, err := s.Do(context.Background(), Request{URL: srv.URL + "/?n=100"}, false)
	wantCode(t, err, codes.FetchTooLarge)
	// one huge header line
	port := rawServer(t, func(c net.Conn) {
		http.ReadRequest(bufio.NewReader(c))
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nX-Huge: %s\r\nContent-Length: 0\r\n\r\n", strings.Repeat("b", 1<<20))
	})
	entry := "127.0.0.1:" + strconv.Itoa(port)
	_, err = session(t, mustNew(t, Config{Allow: []string{entry}})).Do(context.Background(), Request{URL: "http://" + entry + "/"}, false)
	wantCode(t, err, codes.FetchTooLarge)
}

func TestSlowloris(t *testing.T) {
	const timeout = 600 * time.Millisecond
	trickle := func(head string, each string) int {
		return rawServer(t, func(c net.Conn) {
			http.ReadRequest(bufio.NewReader(c))
			io.WriteString(c, head)
			for i := 0; i < 200; i++ {
				if _, err := io.WriteString(c, each); err != nil {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
	cases := map[string]int{
		"body":    trickle("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", "x"),
		"chunked": trickle("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "1\r\nx\r\n"),
		"headers": trickle("HTTP/1.1 200 OK\r\n", "X-Slow: a\r\n"),
		"status":  trickle("", "H"),
		"silent":  trickle("", ""),
	}
	for name, port := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			entry := "127.0.0.1:" + strconv.Itoa(port)
			s := session(t, mustNew(t, Config{Allow: []string{entry}, Timeout: timeout}))
			start := time.Now()
			_, err := s.Do(context.Background(), Request{URL: "http://" + entry + "/"}, false)
			el := time.Since(start)
			wantCode(t, err, codes.FetchTimeout)
			if el < timeout || el > timeout+time.Second {
				t.Fatalf("ended after %v, the deadline is %v", el, timeout)
			}
		})
	}
}

func TestParentContextCancelled(t *testing.T) {
	port := rawServer(t, func(c net.Conn) { time.Sleep(3 * time.Second) })
	entry := "127.0.0.1:" + strconv.Itoa(port)
	s := session(t, mustNew(t, Config{Allow: []string{entry}}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := s.Do(ctx, Request{URL: "http://" + entry + "/"}, false)
	wantCode(t, err, codes.FetchFailed)
}
