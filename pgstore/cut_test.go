package pgstore_test

import (
	"context"
	"io"
	"net"
	neturl "net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/pgstore"
)

// cutter is a TCP proxy on loopback in front of PostgreSQL. While mute,
// it still forwards what the client sends but drops the server's answers,
// then cuts the connections: a claim sent then is executed by the server
// and its answer lost, as when the network fails mid-statement.
type cutter struct {
	ln    net.Listener
	mute  atomic.Bool
	mu    sync.Mutex
	conns []net.Conn
}

func newCutter(t *testing.T, target string) *cutter {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{ln: ln}
	t.Cleanup(func() { ln.Close(); c.cut() })
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			c.mu.Lock()
			c.conns = append(c.conns, client, server)
			c.mu.Unlock()
			go func() { _, _ = io.Copy(server, client) }()
			go func() {
				buf := make([]byte, 32<<10)
				for {
					n, err := server.Read(buf)
					if n > 0 && !c.mute.Load() {
						if _, werr := client.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						client.Close()
						return
					}
				}
			}()
		}
	}()
	return c
}

func (c *cutter) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.conns {
		conn.Close()
	}
	c.conns = nil
}

// A connection lost during a claim: the claim fails closed with
// TOKEN_STORE_UNAVAILABLE within the claim timeout; the server did record
// it, so the token does not resume later either (never twice); and the
// store works again on new connections.
func TestClaimConnectionCut(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	direct, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	cut := newCutter(t, c.Addr())
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = cut.ln.Addr().String()
	viaURL := u.String()
	s, err := pgstore.Open(context.Background(), viaURL, pgstore.Options{GCInterval: -1, ClaimTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Claim(id1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}

	const id2 = "fedcba9876543210fedcba9876543210"
	cut.mute.Store(true)
	go func() { time.Sleep(300 * time.Millisecond); cut.cut() }()
	t0 := time.Now()
	err = s.Claim(id2, time.Now().Add(time.Hour))
	if pgstore.CodeOf(err) != modebox.CodeTokenStoreUnavailable {
		t.Fatalf("claim whose answer was lost: %v, want %s", err, modebox.CodeTokenStoreUnavailable)
	}
	if d := time.Since(t0); d > 30*time.Second {
		t.Errorf("the claim took %v to fail", d)
	}
	// The server executed it: the token is used, on every replica.
	if err := direct.Claim(id2, time.Now().Add(time.Hour)); seal.CodeOf(err) != modebox.CodeTokenUsed {
		t.Fatalf("after the lost answer: %v, want TOKEN_USED (the claim was recorded)", err)
	}
	// An answer that never comes: the claim times out, failing closed.
	const id3 = "00000000000000000000000000000003"
	cut.mute.Store(true)
	if err := s.Claim(id3, time.Now().Add(time.Hour)); pgstore.CodeOf(err) != modebox.CodeTokenStoreUnavailable {
		t.Fatalf("claim with no answer: %v", err)
	}
	cut.cut()
	cut.mute.Store(false)
	const id4 = "00000000000000000000000000000004"
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s.Claim(id4, time.Now().Add(time.Hour))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("claims do not work again: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
