package webfetch

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
)

func benchServer(b *testing.B) *server {
	body := bytes.Repeat([]byte("x"), 1024)
	return newServer(b, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
}

// BenchmarkSessionDo is one checked fetch of a 1 KiB body from loopback.
func BenchmarkSessionDo(b *testing.B) {
	srv := benchServer(b)
	c := mustNew(b, Config{Allow: []string{srv.entry()}, MaxRequests: 1 << 30})
	s := session(b, c)
	ctx := context.Background()
	req := Request{URL: srv.URL + "/"}
	b.ReportAllocs()
	for b.Loop() {
		r, err := s.Do(ctx, req, false)
		if err != nil || len(r.Body) != 1024 {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainHTTPGet is the same fetch with a plain net/http client.
func BenchmarkPlainHTTPGet(b *testing.B) {
	srv := benchServer(b)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	b.Cleanup(tr.CloseIdleConnections)
	cl := &http.Client{Transport: tr}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := cl.Get(srv.URL + "/")
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || len(body) != 1024 {
			b.Fatal(err)
		}
	}
}
