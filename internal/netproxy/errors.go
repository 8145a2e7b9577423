package netproxy

import "net/http"

// Error codes. The refusal codes reach the client as the
// X-Modebox-Proxy-Error response header (HTTP) and in Event.Code.
const (
	// CodeConfig: the Config is invalid (Listen).
	CodeConfig = "BAD_CONFIG"
	// CodeListen: the socket could not be created (Listen).
	CodeListen = "LISTEN_FAILED"
	// CodeClosed: the server is closed (Serve after Close).
	CodeClosed = "SERVER_CLOSED"

	// CodeBadRequest: the client's bytes are not a request this proxy
	// understands (garbage, a truncated greeting, CONNECT without a port,
	// an origin-form HTTP request).
	CodeBadRequest = "BAD_REQUEST"
	// CodeBadHost: the host is written in a refused form (a non-canonical
	// numeric address, an IPv6 zone, a trailing dot, credentials, a
	// wildcard). Checked before any lookup.
	CodeBadHost = "BAD_HOST"
	// CodeUnsupported: a valid request this proxy does not serve (SOCKS
	// BIND or UDP ASSOCIATE, SOCKS authentication, SOCKS4, https:// in an
	// absolute-form request).
	CodeUnsupported = "UNSUPPORTED"
	// CodeBadAddressType: a SOCKS5 request with an unknown ATYP.
	CodeBadAddressType = "BAD_ADDRESS_TYPE"
	// CodeNotListed: host:port matches no allowlist entry.
	CodeNotListed = "HOST_NOT_ALLOWED"
	// CodeAddress: the address about to be dialled is not allowed (a
	// non-public address that the matched entry does not name literally).
	CodeAddress = "ADDRESS_REFUSED"
	// CodeResolve: the host name could not be resolved.
	CodeResolve = "RESOLVE_FAILED"
	// CodeDialTimeout: the connection to the target timed out.
	CodeDialTimeout = "DIAL_TIMEOUT"
	// CodeConnRefused: the target refused the connection.
	CodeConnRefused = "CONNECTION_REFUSED"
	// CodeNetUnreachable: no route to the target's network.
	CodeNetUnreachable = "NETWORK_UNREACHABLE"
	// CodeHostUnreachable: no route to the target host.
	CodeHostUnreachable = "HOST_UNREACHABLE"
	// CodeDialFailed: the connection failed for another reason.
	CodeDialFailed = "DIAL_FAILED"
	// CodeTooMany: Config.MaxConns connections are already open.
	CodeTooMany = "TOO_MANY_CONNECTIONS"
	// CodeTimeout: the client was too slow sending its request.
	CodeTimeout = "TIMEOUT"
	// CodeHeaderTooLarge: the request header exceeds MaxHeaderBytes.
	CodeHeaderTooLarge = "HEADER_TOO_LARGE"
	// CodeUpstream: the origin's HTTP response could not be read.
	CodeUpstream = "BAD_UPSTREAM_RESPONSE"
	// CodeInternal: a bug in this package (a recovered panic); the
	// connection is closed, the server goes on.
	CodeInternal = "INTERNAL"
)

// Error is a refused or failed connection, or a failure of Listen or
// Serve.
type Error struct {
	// Code is one of the Code constants.
	Code string
	// Reason is a sentence for a person.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the reason, followed by the underlying error if any.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Reason + ": " + e.Err.Error()
	}
	return e.Reason
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the stable code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = &Error{Code: CodeClosed, Reason: "netproxy: server closed"}

// httpStatus is the HTTP status for a refusal code.
func httpStatus(code string) int {
	switch code {
	case CodeNotListed, CodeAddress:
		return http.StatusForbidden
	case CodeResolve, CodeConnRefused, CodeNetUnreachable, CodeHostUnreachable, CodeDialFailed, CodeUpstream, CodeInternal:
		return http.StatusBadGateway
	case CodeDialTimeout:
		return http.StatusGatewayTimeout
	case CodeTooMany:
		return http.StatusServiceUnavailable
	case CodeTimeout:
		return http.StatusRequestTimeout
	case CodeHeaderTooLarge:
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
func socksReply(code string) byte {
	switch code {
	case CodeBadHost, CodeNotListed, CodeAddress:
		return socksNotAllowed
	case CodeUnsupported:
		return socksCommandUnsupported
	case CodeBadAddressType:
		return socksBadAddressType
	case CodeResolve, CodeDialTimeout, CodeHostUnreachable:
		return socksHostUnreachable
	case CodeNetUnreachable:
		return socksNetUnreachable
	case CodeConnRefused:
		return socksConnRefused
	default: // CodeBadRequest, CodeDialFailed, CodeTooMany, CodeTimeout, ...
		return socksGeneralFailure
	}
}
