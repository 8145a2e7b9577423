// Package webfetch is the host side of the guest's fetch(): the host makes
// every request, under a policy the guest cannot change.
//
// A Client holds the validated Config: the allowlist, the headers injected
// per entry (secrets read from the environment once, at New), and the
// caps. Client.Check validates a request without any I/O, for the
// approval gate. A Session, one per run, owns an http.Transport with no
// proxy (HTTP_PROXY and friends are ignored), no cookie jar, and
// netguard.Dialer as its dialer, so every dial of every attempt and of
// every redirect hop checks the address actually dialled.
//
// Decisions:
//
//   - Listed hosts are fetched directly; an unlisted host only with
//     approval, and only if it is public: non-public addresses (loopback,
//     private, link-local, metadata, ...) are reachable only through an
//     entry naming that exact host or IP and port. A wildcard entry or an
//     approval never opens them. Check refuses an IP literal that no
//     approval could open, so the gate need not ask.
//   - Redirects are followed by Session.Do itself, not by net/http, so
//     that each hop is checked like a new request: the URL check again,
//     https→http refused, the allowlist again (an unlisted target is
//     refused unless the original request was approved and the target is
//     the same host and port as the original request), the private
//     allowance recomputed from the new target's entry, at most
//     MaxRedirects hops. Methods follow the Fetch standard: 303 turns
//     anything but HEAD into GET, 301 and 302 turn POST into GET; the body
//     and its Content-* headers are dropped then. Injected headers are
//     recomputed per hop from the new target's entry (never carried to
//     another host), and the guest's Authorization, Cookie and Cookie2 are
//     dropped once a hop leaves the original origin (scheme, host, port),
//     for the rest of the chain.
//   - Injected headers replace guest headers of the same name. Their
//     values from the environment, and literal values that are not
//     obviously public, are redacted (replaced by "[redacted]") from the
//     response headers (names and values), body, URL and status text and
//     from every error message Do and Check return, so a server echoing
//     them back, or building a redirect target or a header name from
//     them, does not hand them to the guest. A literal value is obviously
//     public when its header is Accept, Accept-Charset, Accept-Language,
//     Cache-Control, Content-Language, Content-Type, DNT, Origin, Pragma,
//     Referer, User-Agent, X-Requested-With or a name ending in -Version;
//     otherwise it is redacted if the name is credential-like
//     (Authorization, Cookie, names containing auth, bearer, cookie,
//     cred, csrf, jwt, key, password, private, secret, session,
//     signature, token or xsrf, or with a part between '-' or '_'
//     starting with api, pass or sig), or if the value has a word (no
//     spaces) of at least 8 bytes that is not a media type. Redacted: the
//     whole value (at least 4 bytes); the parts a server may echo alone,
//     of at least 8 bytes (Authorization's credentials after the scheme,
//     Basic's decoded user:password and password, the values of other
//     schemes' name=value parameters, each Cookie value, each word of
//     another header's value); and each of those of at least 8 bytes in
//     base64 and base64url (also inside longer base64 text, at any
//     alignment), percent-encoding, hex and JSON string escaping.
//     Matching ignores ASCII case (host names and header names reach the
//     guest lower-cased). Overlapping matches are replaced as one. A
//     response header name holding a secret becomes "x-redacted" (the
//     values of several such names are joined with ", "). When redaction
//     rewrote the body, content-length is set to the new length and
//     digest headers (Content-MD5, Digest, Repr-Digest, Content-Digest,
//     ETag) are dropped. This is best effort: a server that transforms
//     the value otherwise (hashes it, encrypts it, splits it, or encodes
//     it twice) defeats it, and parts shorter than 8 bytes are not
//     redacted on their own; only inject secrets into hosts you trust.
//   - The guest may not set Host, Content-Length, Transfer-Encoding,
//     Connection, Keep-Alive, TE, Trailer, Upgrade, HTTP2-Settings,
//     Expect, Proxy-*, or Accept-Encoding (the host negotiates gzip and
//     caps the decompressed size); names or values with CR, LF or NUL are
//     refused (CodeBadRequest).
//   - Timeout covers one Do call, redirects included, from the first dial
//     to the last body byte. MaxRequests counts Do calls, not hops.
//   - Response header names are lower case; repeated values are joined
//     with ", ", Set-Cookie values with "\n". No cookie is ever stored.
//   - The approval Summary shows the whole URL, query included (what is
//     sent is what the approver must see), cut at 200 bytes.
package webfetch
