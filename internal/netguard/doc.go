// Package netguard decides which network addresses and URLs the host may
// reach on a guest's behalf. It is shared by fetch() and the shell's
// network proxy, so both refuse the same things the same way:
//
//   - CheckURL parses a URL before any DNS lookup: http and https only, no
//     userinfo, the host converted with IDNA as net/http does, and numeric
//     host forms other than canonical dotted quads (2130706433, 0x7f000001,
//     0177.0.0.1, 127.1), trailing dots, empty labels, backslashes, zones
//     and control characters refused.
//   - Classify puts an address into a class with one net/netip table,
//     after normalising it (zone dropped, IPv4-mapped IPv6 unmapped):
//     public, or loopback, private, link-local, metadata and the other
//     special-purpose ranges.
//   - Dialer resolves names itself and checks every address it is about to
//     dial, on every attempt (so DNS rebinding and mixed answers are caught
//     at connect time), and again in the socket's Control hook.
//   - Allowlist holds "host:port" entries with optional "*." wildcards,
//     an optional scheme ("https://host:port") and an optional " private"
//     mark.
//
// Non-public addresses are reachable only when the caller says so for
// that dial (WithPrivate), which fetch() and the shell proxy do by one
// rule, Entry.OpensPrivate: an IP-literal entry reaches exactly that IP,
// a name entry marked " private" may reach what its name resolves to, and
// any other entry (a plain name, a wildcard) public addresses only; the
// Dialer checks every address at connect time, so a name that resolves,
// or rebinds, to loopback is refused.
package netguard
