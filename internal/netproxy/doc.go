// Package netproxy is the host side of the shell sandbox's network: a
// filtering proxy on a Unix socket that is bind-mounted into the sandbox,
// where a small bridge forwards each TCP connection made to
// 127.0.0.1:3128 to it byte for byte.
//
// One socket speaks three protocols, told apart by the first byte:
//
//   - 0x05: SOCKS5 (RFC 1928), no authentication, CONNECT only, with IPv4,
//     IPv6 and domain-name targets. Domain names are resolved here, on the
//     host (socks5h semantics), never inside the sandbox.
//   - anything else: HTTP/1.1. "CONNECT host:port" opens a tunnel;
//     absolute-form requests ("GET http://host:port/path") are forwarded to
//     the origin as plain HTTP, one request per client connection.
//     Origin-form requests are refused with 400: this is only a proxy.
//
// Every target is checked the same way, with package netguard:
//
//  1. The host must be written canonically: a lower-cased ASCII name (IDNA
//     applied), a dotted-quad IPv4 address, or a bracketed IPv6 address
//     without a zone. Numeric forms such as 2130706433, 0x7f000001, 127.1
//     and 0177.0.0.1 are refused before anything is resolved.
//  2. host:port must match an entry of Config.Allow exactly as written
//     (netguard.Allowlist.Match). Only canonical forms match: when
//     "127.0.0.1:8080" is listed, "[::ffff:127.0.0.1]:8080" is not.
//  3. The target is dialled with netguard.Dialer, which resolves names on
//     the host and checks every address it is about to connect to.
//     Loopback, private, link-local, metadata and other non-public
//     addresses are reachable only when the matched entry names that IP
//     literally, or names the host with the " private" mark
//     (netguard.Entry.OpensPrivate, the rule fetch() uses too); a listed
//     name that resolves, or rebinds, to such an address is refused.
//
// Refusals are explicit: HTTP 400/403/502/503/504 with a short text body
// and an X-Modebox-Proxy-Error header carrying the Error code, or the
// matching SOCKS5 reply code. Config.OnEvent receives one Event per
// decision, for logs and audit.
package netproxy
