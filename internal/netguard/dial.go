package netguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

type privateKey struct{}

// WithPrivate returns a context whose dials may (allowed true) or may not
// reach non-public addresses. Without it they may not.
func WithPrivate(ctx context.Context, allowed bool) context.Context {
	return context.WithValue(ctx, privateKey{}, allowed)
}

func privateAllowed(ctx context.Context) bool {
	v, _ := ctx.Value(privateKey{}).(bool)
	return v
}

// CheckAddr refuses a non-public address unless allowPrivate.
func CheckAddr(a netip.Addr, allowPrivate bool) error { return checkAddr(a, allowPrivate, "") }

// checkAddr is CheckAddr; a refusal names host, when it is a name that
// resolved to a ("host resolves to a, a loopback address").
func checkAddr(a netip.Addr, allowPrivate bool, host string) error {
	c := Classify(a)
	if c == ClassPublic {
		return nil
	}
	if c == ClassInvalid {
		if host != "" {
			return &Error{Code: codes.AddressRefused, Message: host + " resolves to something that is not an IP address"}
		}
		return &Error{Code: codes.AddressRefused, Message: "not an IP address"}
	}
	if allowPrivate {
		// an allowance opens the special ranges, never the unspecified
		// address or multicast
		if c != ClassUnspecified && c != ClassMulticast {
			return nil
		}
	}
	what := fmt.Sprintf("%s is %s %s address", Normalize(a), c.Article(), c)
	if host != "" && host != Normalize(a).String() {
		what = fmt.Sprintf("%s resolves to %s, %s %s address", host, Normalize(a), c.Article(), c)
	}
	return &Error{Code: codes.AddressRefused, Message: what + "; it is reachable only through an allowlist entry that names this IP, or a host entry marked private"}
}

// Dialer dials TCP with every address checked: the host is resolved here
// (not by the system's dialer), every answer is classified, and the
// socket's Control hook checks the address once more right before connect.
// A name with any non-public answer is refused as a whole unless the
// context allows private addresses (mixed answers are a rebinding sign).
type Dialer struct {
	// Resolver resolves names; nil means net.DefaultResolver.
	Resolver Resolver
	// Timeout bounds each connect; zero means 10s.
	Timeout time.Duration
}

// DialContext dials network ("tcp", "tcp4", "tcp6") address ("host:port").
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(address)
	if err != nil {
		return nil, &Error{Code: codes.AddressRefused, Message: "bad address " + address, Err: err}
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 1 || port > 65535 {
		return nil, &Error{Code: codes.AddressRefused, Message: "bad port in " + address}
	}
	allow := privateAllowed(ctx)
	addrs, err := d.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if err := checkAddr(a, allow, host); err != nil {
			return nil, err
		}
	}
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	nd := &net.Dialer{
		Timeout: timeout,
		ControlContext: func(ctx context.Context, network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &Error{Code: codes.AddressRefused, Message: "bad dial address " + address, Err: err}
			}
			return CheckAddr(ap.Addr(), allow)
		},
	}
	var firstErr error
	for _, a := range addrs {
		c, err := nd.DialContext(ctx, network, netip.AddrPortFrom(Normalize(a), uint16(port)).String())
		if err == nil {
			return c, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

func (d *Dialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return nil, &Error{Code: codes.AddressRefused, Message: "zoned addresses are not dialled"}
		}
		return []netip.Addr{a}, nil
	}
	var r Resolver = net.DefaultResolver
	if d.Resolver != nil {
		r = d.Resolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, &Error{Code: codes.AddressRefused, Message: host + " has no addresses"}
	}
	return addrs, nil
}
