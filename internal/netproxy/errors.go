package netproxy

import (
	"net/http"

	"github.com/modebox/modebox/internal/codes"
)

// Error is a refused or failed connection, or a failure of Listen or
// Serve. Message is a sentence for a person.
type Error = codes.Error[errorOf]

// errorOf keeps this package's errors apart from other packages' (see
// [codes.Error]).
type errorOf struct{}

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = &Error{Code: codes.ServerClosed, Message: "netproxy: server closed"}

// httpStatus is the HTTP status for a refusal code.
func httpStatus(code codes.Code) int {
	switch code {
	case codes.HostNotAllowed, codes.AddressRefused:
		return http.StatusForbidden
	case codes.ResolveFailed, codes.ConnectionRefused, codes.NetworkUnreachable, codes.HostUnreachable, codes.DialFailed, codes.BadUpstreamResponse, codes.Internal:
		return http.StatusBadGateway
	case codes.DialTimeout:
		return http.StatusGatewayTimeout
	case codes.TooManyConnections:
		return http.StatusServiceUnavailable
	case codes.Timeout:
		return http.StatusRequestTimeout
	case codes.HeaderTooLarge:
		return http.StatusRequestHeaderFieldsTooLarge
	default: // CodeBadRequest, CodeBadHost, CodeUnsupported
		return http.StatusBadRequest
	}
}

// SOCKS5 reply codes (RFC 1928 section 6).
const (
	socksSucceeded          = 0x00
	socksGeneralFailure     = 0x01
	socksNotAllowed         = 0x02
	socksNetUnreachable     = 0x03
	socksHostUnreachable    = 0x04
	socksConnRefused        = 0x05
	socksCommandUnsupported = 0x07
	socksBadAddressType     = 0x08
)

// socksReply is the SOCKS5 reply code for a refusal code.
func socksReply(code codes.Code) byte {
	switch code {
	case codes.BadHost, codes.HostNotAllowed, codes.AddressRefused:
		return socksNotAllowed
	case codes.Unsupported:
		return socksCommandUnsupported
	case codes.BadAddressType:
		return socksBadAddressType
	case codes.ResolveFailed, codes.DialTimeout, codes.HostUnreachable:
		return socksHostUnreachable
	case codes.NetworkUnreachable:
		return socksNetUnreachable
	case codes.ConnectionRefused:
		return socksConnRefused
	default: // CodeBadRequest, CodeDialFailed, CodeTooMany, CodeTimeout, ...
		return socksGeneralFailure
	}
}
