package netproxy

import (
	"io"
	"net"
	"testing"
)

const connectReply = "HTTP/1.1 200 Connection established\r\n\r\n"

// benchEcho runs one connection setup plus a 1 KiB echo round trip per
// iteration; open returns a connection that reaches the echo target.
func benchEcho(b *testing.B, open func() net.Conn) {
	msg := make([]byte, 1024)
	for i := range msg {
		msg[i] = byte(i)
	}
	got := make([]byte, len(msg))
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		c := open()
		if _, err := c.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, got); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

// BenchmarkEchoDirect dials the target over TCP loopback.
func BenchmarkEchoDirect(b *testing.B) {
	echo := newEchoTarget(b, "tcp4", "127.0.0.1:0")
	benchEcho(b, func() net.Conn {
		c, err := net.Dial("tcp", echo.addr)
		if err != nil {
			b.Fatal(err)
		}
		return c
	})
}

// BenchmarkEchoCONNECT goes through the proxy with HTTP CONNECT.
func BenchmarkEchoCONNECT(b *testing.B) {
	echo := newEchoTarget(b, "tcp4", "127.0.0.1:0")
	p := startProxy(b, Config{Allow: []string{echo.addr}})
	buf := make([]byte, len(connectReply))
	req := []byte("CONNECT " + echo.addr + " HTTP/1.1\r\nHost: " + echo.addr + "\r\n\r\n")
	benchEcho(b, func() net.Conn {
		c, err := net.Dial("unix", p.sock)
		if err != nil {
			b.Fatal(err)
		}
		c.Write(req)
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != connectReply {
			b.Fatalf("CONNECT: %q %v", buf, err)
		}
		return c
	})
}

// BenchmarkEchoSOCKS5 goes through the proxy with SOCKS5 (IPv4 target).
func BenchmarkEchoSOCKS5(b *testing.B) {
	echo := newEchoTarget(b, "tcp4", "127.0.0.1:0")
	p := startProxy(b, Config{Allow: []string{echo.addr}})
	req := []byte{5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, byte(echo.port >> 8), byte(echo.port)}
	buf := make([]byte, 12)
	benchEcho(b, func() net.Conn {
		c, err := net.Dial("unix", p.sock)
		if err != nil {
			b.Fatal(err)
		}
		c.Write(req) // greeting and request at once
		if _, err := io.ReadFull(c, buf); err != nil || buf[3] != 0 {
			b.Fatalf("SOCKS5: %v %v", buf, err)
		}
		return c
	})
}
