package webfetch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/http/httpguts"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// Request is one fetch as the guest asked for it.
type Request struct {
	// URL is absolute, http or https.
	URL string
	// Method is one of GET HEAD POST PUT PATCH DELETE OPTIONS, any case;
	// empty means GET.
	Method string
	// Headers are the guest's request headers (names case-insensitive,
	// each at most once).
	Headers map[string]string
	// Body is sent as is; not allowed with GET and HEAD.
	Body []byte
	// MaxBytes, when positive and below the client's MaxBytes, caps this
	// response's body instead: a caller that cannot use a larger one (a
	// run's value limit) need not wait for, or hold, the rest.
	MaxBytes int64
}

// Check is what the approval gate needs to know about a request before it
// runs. Computing it does no DNS and no I/O.
type Check struct {
	// Target is the checked URL.
	Target netguard.Target
	// Listed reports whether an allowlist entry matches Target.
	Listed bool
	// Entry is the matching entry when Listed.
	Entry netguard.Entry
	// Origin is Target's scheme://host:port, whole and safe to show in a
	// prompt (Summary may cut a long URL, host included).
	Origin string
	// Summary is one line for an approval prompt, for example
	// `POST https://api.example.com/v1/items?x=1 (body 120 bytes, application/json), not on the fetch allowlist`.
	Summary string
}

var allowedMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

// maxSummaryURL is the longest URL shown whole in a Summary.
const maxSummaryURL = 200

// Check validates r (method, headers, body size, URL) and matches it
// against the allowlist. An unlisted request is not an error here: the
// gate decides whether to ask for approval. A request that no approval
// could make work (an IP literal of a non-public class that no exact
// entry names) is refused with CodeAddressRefused. Error messages are
// redacted as Do's are.
func (c *Client) Check(r Request) (Check, error) {
	chk, _, err := c.check(r)
	if err != nil {
		return Check{}, c.redactErr(err)
	}
	t := chk.Target
	if t.IP.IsValid() && !(chk.Listed && chk.Entry.OpensPrivate()) {
		if err := netguard.CheckAddr(t.IP, false); err != nil {
			return Check{}, c.redactErr(c.addressError(t, chk.Entry, chk.Listed, err))
		}
	}
	return chk, nil
}

// check is Check without the address refusal; it also returns the method
// in upper case.
func (c *Client) check(r Request) (Check, string, error) {
	method, err := c.validate(r)
	if err != nil {
		return Check{}, "", err
	}
	t, err := netguard.CheckURL(r.URL)
	if err != nil {
		return Check{}, "", fromGuard(err)
	}
	e, listed := c.allow.MatchScheme(t.URL.Scheme, t.Host, t.Port)
	if err := c.checkSecure(t, e, listed); err != nil {
		return Check{}, "", err
	}
	return Check{Target: t, Listed: listed, Entry: e, Origin: promptSafe(t.URL.Scheme+"://"+t.HostPort(), true),
		Summary: summary(method, t, r, e, listed)}, method, nil
}

// checkSecure refuses a request that would send an entry's injected
// headers (its secrets) without TLS: they go over https only, unless the
// entry itself says http://.
func (c *Client) checkSecure(t netguard.Target, e netguard.Entry, listed bool) error {
	if !listed || len(c.inject[e.String()]) == 0 || t.URL.Scheme == "https" || e.Scheme == "http" {
		return nil
	}
	return newError(codes.FetchInsecure, nil, "%s is plain http, and the allowlist entry %s injects headers, which are sent over https only; "+
		"use an https:// URL, or write the entry as %q if the service really is plain http", t.HostPort(), e, "http://"+e.String())
}

func summary(method string, t netguard.Target, r Request, e netguard.Entry, listed bool) string {
	var b strings.Builder
	b.WriteString(method)
	b.WriteByte(' ')
	u := promptSafe(t.URL.String(), true)
	if len(u) > maxSummaryURL {
		cut := maxSummaryURL
		for cut > 0 && (u[cut]&0xc0) == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		fmt.Fprintf(&b, "%s… (URL of %d bytes)", u[:cut], len(u))
	} else {
		b.WriteString(u)
	}
	if len(r.Body) > 0 {
		fmt.Fprintf(&b, " (body %d bytes", len(r.Body))
		for k, v := range r.Headers {
			if strings.EqualFold(k, "Content-Type") {
				v = promptSafe(v, false)
				if len(v) > 60 {
					v = v[:60] + "…"
				}
				b.WriteString(", " + v)
			}
		}
		b.WriteByte(')')
	}
	if listed {
		fmt.Fprintf(&b, ", allowed by %s", e)
	} else {
		b.WriteString(", not on the fetch allowlist")
	}
	return b.String()
}

// validate checks the method, the guest's headers and the body size, and
// returns the method in upper case.
func (c *Client) validate(r Request) (string, error) {
	method := strings.ToUpper(r.Method)
	if method == "" {
		method = http.MethodGet
	}
	if !allowedMethods[method] {
		return "", newError(codes.FetchBadRequest, nil, "method %q is not allowed (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)", clip(r.Method, 40))
	}
	if (method == http.MethodGet || method == http.MethodHead) && len(r.Body) > 0 {
		return "", newError(codes.FetchBadRequest, nil, "a %s request cannot have a body", method)
	}
	if int64(len(r.Body)) > c.maxRequestBody {
		return "", newError(codes.FetchTooLarge, nil, "the request body is %d bytes, over the limit of %d", len(r.Body), c.maxRequestBody)
	}
	var size int64
	seen := make(map[string]bool, len(r.Headers))
	for k, v := range r.Headers {
		if !httpguts.ValidHeaderFieldName(k) {
			return "", newError(codes.FetchBadRequest, nil, "%q is not a valid header name", clip(k, 60))
		}
		if !httpguts.ValidHeaderFieldValue(v) {
			return "", newError(codes.FetchBadRequest, nil, "the value of header %s contains a control character (CR, LF or NUL)", clip(k, 60))
		}
		ck := http.CanonicalHeaderKey(k)
		if reason := forbiddenHeader(ck); reason != "" {
			return "", newError(codes.FetchBadRequest, nil, "header %s may not be set (%s)", ck, reason)
		}
		if seen[ck] {
			return "", newError(codes.FetchBadRequest, nil, "header %s is given twice (names are case-insensitive)", ck)
		}
		seen[ck] = true
		size += int64(len(k) + len(v) + 4)
	}
	if size > c.maxHeaderBytes {
		return "", newError(codes.FetchTooLarge, nil, "the request headers are %d bytes, over the limit of %d", size, c.maxHeaderBytes)
	}
	return method, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// fromGuard turns a netguard error into this package's.
func fromGuard(err error) error {
	var ge *netguard.Error
	if errors.As(err, &ge) {
		switch ge.Code {
		case codes.BadURL:
			return &Error{Code: codes.FetchBadURL, Message: ge.Message, Err: err}
		case codes.AddressRefused:
			return &Error{Code: codes.FetchAddressRefused, Message: ge.Message, Err: err}
		case codes.HostNotAllowed:
			return &Error{Code: codes.FetchNotAllowed, Message: ge.Message, Err: err}
		}
	}
	return &Error{Code: codes.FetchFailed, Message: err.Error(), Err: err}
}

// addressError explains a refused address and how it could be allowed.
func (c *Client) addressError(t netguard.Target, e netguard.Entry, listed bool, err error) error {
	reason := "the address is refused"
	var ge *netguard.Error
	if errors.As(err, &ge) {
		reason = ge.Message
	}
	// the entry that would open it: an IP literal's own entry reaches that
	// IP whatever its class; a name needs the private mark
	open := fmt.Sprintf("list %q", t.HostPort())
	if !t.IP.IsValid() {
		open = fmt.Sprintf("list %q (a host entry marked private), or the IP itself", t.HostPort()+netguard.PrivateMark)
	}
	var how string
	switch {
	case listed && e.Wildcard:
		how = fmt.Sprintf("the wildcard entry %s never opens non-public addresses; to allow it, %s", e, open)
	case listed && !e.IP.IsValid():
		how = fmt.Sprintf("the entry %s names a host, and a host entry reaches public addresses only (whatever its DNS answers); "+
			"for an internal service, mark it %q, or list the IP itself", e, e.String()+netguard.PrivateMark)
	case listed:
		how = "the entry does not open this address class"
	default:
		how = "an approval never opens non-public addresses; to allow it, " + open
	}
	return &Error{Code: codes.FetchAddressRefused, Message: fmt.Sprintf("%s: %s; %s", t.HostPort(), reason, how), Err: err}
}

// promptSafe keeps a Summary to printable ASCII, so that bidi controls or
// look-alike characters cannot disguise what an approver reads: in a URL
// other bytes are percent-encoded, elsewhere replaced by '?'.
func promptSafe(s string, isURL bool) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			var b strings.Builder
			for j := 0; j < len(s); j++ {
				c := s[j]
				switch {
				case c >= 0x20 && c < 0x7f:
					b.WriteByte(c)
				case isURL:
					fmt.Fprintf(&b, "%%%02X", c)
				default:
					b.WriteByte('?')
				}
			}
			return b.String()
		}
	}
	return s
}
