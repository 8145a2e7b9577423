package webfetch

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strings"

	"github.com/modebox/modebox/internal/codes"
)

// minSecretLen is the shortest injected value that is redacted whole;
// shorter values would garble ordinary text and are no secret anyway.
const minSecretLen = 4

// minPartLen is the shortest part of an injected value that is redacted
// on its own (the credentials after an Authorization scheme, a Basic
// password, a cookie's value), and the shortest secret whose encodings
// are redacted: shorter pieces, such as the "dark" of "theme=dark", are
// common words that redacting everywhere would garble.
const minPartLen = 8

// secretParts returns the values a server could echo on their own from an
// injected header value v of canonical name canon: v itself (if at least
// minSecretLen bytes), and for Authorization and Proxy-Authorization the
// credentials after the scheme, with Basic credentials also decoded
// ("user:password") and the password alone, and for the other schemes
// the values of their name=value parameters; for Cookie, each cookie's
// value; for any other name, each word of v (a run without spaces or
// tabs: the token of "Token <token>" under a custom name). Parts shorter
// than minPartLen are left out.
func secretParts(canon, v string) []string {
	var out []string
	if len(v) >= minSecretLen {
		out = append(out, v)
	}
	add := func(s string) {
		if len(s) >= minPartLen {
			out = append(out, s)
		}
	}
	switch canon {
	case "Authorization", "Proxy-Authorization":
		scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
		if !ok {
			break
		}
		cred = strings.TrimSpace(cred)
		add(cred)
		if strings.EqualFold(scheme, "Basic") {
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
				if dec, err := enc.DecodeString(cred); err == nil {
					add(string(dec))
					if _, pw, ok := strings.Cut(string(dec), ":"); ok {
						add(pw)
					}
					break
				}
			}
			break
		}
		// Digest, AWS4-HMAC-SHA256 and the like: name=value parameters
		for _, p := range strings.Split(cred, ",") {
			if _, pv, ok := strings.Cut(p, "="); ok {
				add(strings.Trim(strings.TrimSpace(pv), `"`))
			}
		}
	case "Cookie":
		for _, p := range strings.Split(v, ";") {
			if _, cv, ok := strings.Cut(strings.TrimSpace(p), "="); ok {
				add(strings.Trim(strings.TrimSpace(cv), `"`))
			}
		}
	default:
		if ws := strings.Fields(v); len(ws) > 1 {
			for _, w := range ws {
				add(w)
			}
		}
	}
	return out
}

// secretForms returns the parts (see secretParts) and, for each part of
// at least minPartLen bytes, its common encodings: base64 and base64url
// (padded, unpadded, and the characters that any base64 text containing
// the part at any offset must contain), percent-encoding (as a query or a path,
// with upper- or lower-case hex), hex (both cases) and JSON string
// escaping (Go's, with and without HTML escapes, and with "\/").
func secretForms(parts []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if len(s) >= minSecretLen && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, p := range parts {
		add(p)
		if len(p) < minPartLen {
			continue
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			raw := enc.WithPadding(base64.NoPadding)
			add(enc.EncodeToString([]byte(p)))
			add(raw.EncodeToString([]byte(p)))
			for k := 0; k < 3; k++ {
				add(base64Core(raw, p, k))
			}
		}
		for _, e := range []string{url.QueryEscape(p), url.PathEscape(p)} {
			add(e)
			add(lowerPercentHex(e))
		}
		h := hex.EncodeToString([]byte(p))
		add(h)
		add(strings.ToUpper(h))
		for _, html := range []bool{true, false} {
			var b bytes.Buffer
			je := json.NewEncoder(&b)
			je.SetEscapeHTML(html)
			if je.Encode(p) == nil {
				js := strings.TrimSuffix(b.String(), "\n")
				js = js[1 : len(js)-1]
				add(js)
				add(strings.ReplaceAll(js, "/", `\/`))
			}
		}
	}
	return out
}

// base64Core returns the base64 characters that encode p and nothing
// else when p starts k bytes (mod 3) into the encoded text: those are
// the same whatever surrounds p.
func base64Core(enc *base64.Encoding, p string, k int) string {
	s := enc.EncodeToString(append(make([]byte, k), p...))
	first := (8*k + 5) / 6            // the first character made of p's bits only
	last := (8*k + 8*len(p)) / 6      // one past the last such character
	return s[first:min(last, len(s))] // s is at least last long
}

// lowerPercentHex writes the hex digits of %XX escapes in lower case.
func lowerPercentHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1] = toLowerASCII(b[i+1])
			b[i+2] = toLowerASCII(b[i+2])
		}
	}
	return string(b)
}

func toLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldSecrets returns forms with ASCII letters in lower case, without
// repeats, longest first (the order redaction searches in): redaction
// matches regardless of ASCII case, since host names, header names and
// hex reach the guest case-folded.
func foldSecrets(forms []string) []string {
	seen := make(map[string]bool, len(forms))
	out := make([]string, 0, len(forms))
	for _, f := range forms {
		f = string(lowerASCII([]byte(f)))
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// lowerASCII returns b with ASCII letters in lower case: b itself when it
// has none in upper case, a copy otherwise. Byte offsets are kept.
func lowerASCII(b []byte) []byte {
	i := 0
	for i < len(b) && !('A' <= b[i] && b[i] <= 'Z') {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, len(b))
	copy(out, b[:i])
	for ; i < len(b); i++ {
		out[i] = toLowerASCII(b[i])
	}
	return out
}

// redact replaces every secret in s.
func (c *Client) redact(s string) string {
	if len(c.secrets) == 0 {
		return s
	}
	if b, changed := c.redactBytes([]byte(s)); changed {
		return string(b)
	}
	return s
}

// redactErr returns err with its message redacted: every error Do and
// Check return goes through it, so no message built from what a server
// sent (a redirect target, a host name that does not resolve) carries a
// secret to the guest. Err is kept for errors.As; its text is not shown.
func (c *Client) redactErr(err error) error {
	if err == nil {
		return nil
	}
	var fe *Error
	if !errors.As(err, &fe) {
		return newError(codes.FetchFailed, err, "%s", c.redact(err.Error()))
	}
	return &Error{Code: fe.Code, Message: c.redact(fe.Message), Err: fe.Err}
}

// redactBytes replaces every occurrence of a secret in b by Redacted,
// ignoring ASCII case; overlapping or adjacent occurrences (of one secret
// or of several) are replaced as one, so no piece of a secret is left
// between two replacements. It reports whether anything was replaced.
func (c *Client) redactBytes(b []byte) ([]byte, bool) {
	if len(c.secrets) == 0 {
		return b, false
	}
	type span struct{ start, end int }
	var spans []span
	lb := lowerASCII(b) // c.secrets are lower case (foldSecrets)
	for _, sec := range c.secrets {
		s := []byte(sec)
		for off := 0; off < len(lb); {
			i := bytes.Index(lb[off:], s)
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(s)
			if n := len(spans); n > 0 && spans[n-1].end >= start && spans[n-1].start <= start {
				spans[n-1].end = max(spans[n-1].end, end)
			} else {
				spans = append(spans, span{start, end})
			}
			off = start + 1
		}
	}
	if len(spans) == 0 {
		return b, false
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	out := make([]byte, 0, len(b))
	pos := 0
	for i := 0; i < len(spans); {
		start, end := spans[i].start, spans[i].end
		for i++; i < len(spans) && spans[i].start <= end; i++ {
			end = max(end, spans[i].end)
		}
		out = append(out, b[pos:start]...)
		out = append(out, Redacted...)
		pos = end
	}
	return append(out, b[pos:]...), true
}
