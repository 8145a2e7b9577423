package netproxy

import (
	"encoding/binary"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// SOCKS5 constants (RFC 1928).
const (
	socksVersion      = 0x05
	socksNoAuth       = 0x00
	socksNoAcceptable = 0xff
	socksCmdConnect   = 0x01
	socksCmdBind      = 0x02
	socksCmdUDP       = 0x03
	socksATYPIPv4     = 0x01
	socksATYPDomain   = 0x03
	socksATYPIPv6     = 0x04
)

// serveSOCKS runs the SOCKS5 handshake and tunnels a CONNECT.
func (ss *session) serveSOCKS() {
	fail := func(e *Error) {
		ss.refuse(ss.event("", 0), e)
	}
	readErr := func(what string, err error) *Error {
		if ss.timedOut(err) {
			return &Error{Code: codes.Timeout, Message: "SOCKS5 " + what + " did not arrive within the handshake timeout"}
		}
		return &Error{Code: codes.BadRequest, Message: "truncated SOCKS5 " + what, Err: err}
	}

	// greeting: VER NMETHODS METHODS...
	var hdr [2]byte
	if _, err := io.ReadFull(ss.br, hdr[:]); err != nil {
		fail(readErr("greeting", err))
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(ss.br, methods); err != nil {
		fail(readErr("greeting", err))
		return
	}
	noAuth := false
	for _, m := range methods {
		if m == socksNoAuth {
			noAuth = true
		}
	}
	if !noAuth {
		ss.client.Write([]byte{socksVersion, socksNoAcceptable})
		fail(&Error{Code: codes.Unsupported, Message: "the SOCKS5 client offers no method this proxy accepts (only \"no authentication\")"})
		return
	}
	if _, err := ss.client.Write([]byte{socksVersion, socksNoAuth}); err != nil {
		return
	}

	// request: VER CMD RSV ATYP DST.ADDR DST.PORT
	var rq [4]byte
	if _, err := io.ReadFull(ss.br, rq[:]); err != nil {
		fail(readErr("request", err))
		return
	}
	if rq[0] != socksVersion {
		e := &Error{Code: codes.BadRequest, Message: fmt.Sprintf("SOCKS5 request with version %d", rq[0])}
		ss.socksReply(socksReply(e.Code))
		fail(e)
		return
	}
	var host string
	switch rq[3] {
	case socksATYPIPv4:
		var b [4]byte
		if _, err := io.ReadFull(ss.br, b[:]); err != nil {
			fail(readErr("request", err))
			return
		}
		host = netip.AddrFrom4(b).String()
	case socksATYPIPv6:
		var b [16]byte
		if _, err := io.ReadFull(ss.br, b[:]); err != nil {
			fail(readErr("request", err))
			return
		}
		host = "[" + netip.AddrFrom16(b).String() + "]"
	case socksATYPDomain:
		var n [1]byte
		if _, err := io.ReadFull(ss.br, n[:]); err != nil {
			fail(readErr("request", err))
			return
		}
		b := make([]byte, n[0])
		if _, err := io.ReadFull(ss.br, b); err != nil {
			fail(readErr("request", err))
			return
		}
		host = string(b)
		if a, err := netip.ParseAddr(host); err == nil && a.Is6() {
			// an IPv6 literal sent as a name: check it as one
			host = "[" + host + "]"
		} else if strings.ContainsAny(host, "[]:") {
			e := &Error{Code: codes.BadHost, Message: "the SOCKS5 target name " + strconv.Quote(printable(host)) + " has characters a host name cannot have"}
			ss.socksReply(socksReply(e.Code))
			ss.refuse(ss.event(printable(host), 0), e)
			return
		}
	default:
		e := &Error{Code: codes.BadAddressType, Message: fmt.Sprintf("SOCKS5 address type %d is not IPv4 (1), domain name (3) or IPv6 (4)", rq[3])}
		ss.socksReply(socksReply(e.Code))
		fail(e)
		return
	}
	var pb [2]byte
	if _, err := io.ReadFull(ss.br, pb[:]); err != nil {
		fail(readErr("request", err))
		return
	}
	port := int(binary.BigEndian.Uint16(pb[:]))
	hostport := host + ":" + strconv.Itoa(port)

	if rq[1] != socksCmdConnect {
		what := fmt.Sprintf("command %d", rq[1])
		switch rq[1] {
		case socksCmdBind:
			what = "BIND"
		case socksCmdUDP:
			what = "UDP ASSOCIATE"
		}
		e := &Error{Code: codes.Unsupported, Message: "SOCKS5 " + what + " is not supported; only CONNECT"}
		ss.socksReply(socksReply(e.Code))
		ss.refuse(ss.event(printable(strings.Trim(host, "[]")), port), e)
		return
	}
	t, perr := parseAuthority(hostport)
	if perr != nil {
		ss.socksReply(socksReply(perr.Code))
		ss.refuse(ss.event(printable(strings.Trim(host, "[]")), port), perr)
		return
	}
	origin, perr := ss.connectTarget(t, ss.event(t.host, t.port))
	if perr != nil {
		ss.socksReply(socksReply(perr.Code))
		return
	}
	// BND.ADDR and BND.PORT are zero: the host's own addresses are none
	// of the sandbox's business.
	if err := ss.socksReply(socksSucceeded); err != nil {
		return
	}
	ss.tunnel(origin)
}

// socksReply writes a reply with a zero IPv4 bound address.
func (ss *session) socksReply(code byte) error {
	ss.client.SetWriteDeadline(time.Now().Add(refusalWriteTimeout))
	_, err := ss.client.Write([]byte{socksVersion, code, 0x00, socksATYPIPv4, 0, 0, 0, 0, 0, 0})
	return err
}
