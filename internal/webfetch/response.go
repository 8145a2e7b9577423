package webfetch

import (
	"bytes"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// Response is what the guest gets back.
type Response struct {
	// Status is the HTTP status code of the final response.
	Status int
	// StatusText is the reason phrase the server sent (or the standard
	// one when it sent none).
	StatusText string
	// Headers are the response headers with lower-case names. Repeated
	// headers are joined with ", ", except Set-Cookie, whose values are
	// joined with "\n" (a cookie's Expires date contains a comma). Secrets
	// in values are replaced by "[redacted]" as in Body; a name that
	// holds one is replaced by "x-redacted" (the values of several such
	// names joined with ", "). When redaction rewrote Body,
	// content-length is its new length and digest headers of the original
	// body are left out.
	Headers map[string]string
	// URL is the final URL, after redirects.
	URL string
	// Redirected reports whether at least one redirect was followed.
	Redirected bool
	// Body is the response body, decompressed when the server used gzip,
	// at most Config.MaxBytes before redaction. Values of injected headers
	// (those from the environment, and literal ones that are not obviously
	// public), their parts and their encodings are replaced by
	// "[redacted]", in any ASCII case (see the package documentation).
	Body []byte
}

// Redacted replaces injected header values in what the guest sees.
const Redacted = "[redacted]"

// readResponse reads and caps the body and converts the headers.
func (c *Client) readResponse(resp *http.Response, method string, t netguard.Target, maxBytes int64) (*Response, error) {
	var hsize int64
	for k, vs := range resp.Header {
		for _, v := range vs {
			hsize += int64(len(k) + len(v) + 4)
		}
	}
	if hsize > c.maxHeaderBytes {
		return nil, newError(codes.FetchTooLarge, nil, "the response headers of %s are %d bytes, over the limit of %d", t.HostPort(), hsize, c.maxHeaderBytes)
	}
	limit := strconv.FormatInt(maxBytes, 10) + " bytes"
	if maxBytes < c.maxBytes {
		limit += ", the most its caller can hold (a run's value limit)"
	}
	if resp.ContentLength > maxBytes {
		return nil, newError(codes.FetchTooLarge, nil, "the response body of %s is %d bytes (Content-Length), over the limit of %s", t.HostPort(), resp.ContentLength, limit)
	}
	var body []byte
	if method != http.MethodHead {
		var buf bytes.Buffer
		if n := resp.ContentLength; n > 0 {
			buf.Grow(int(min(n, 1<<20)))
		}
		n, err := buf.ReadFrom(io.LimitReader(resp.Body, maxBytes+1))
		if n > maxBytes {
			what := "body"
			if resp.Uncompressed {
				what = "decompressed body"
			}
			return nil, newError(codes.FetchTooLarge, nil, "the response %s of %s is over the limit of %s", what, t.HostPort(), limit)
		}
		if err != nil {
			return nil, err
		}
		body = buf.Bytes()
	}
	out := &Response{
		Status:     resp.StatusCode,
		StatusText: c.redact(statusText(resp)),
		Headers:    c.headers(resp.Header),
		URL:        c.redact(t.URL.String()),
		Body:       body,
	}
	var changed bool
	out.Body, changed = c.redactBytes(out.Body)
	if changed {
		fixLengths(out.Headers, len(out.Body))
	}
	if out.Body == nil {
		out.Body = []byte{}
	}
	return out, nil
}

func statusText(resp *http.Response) string {
	s, ok := strings.CutPrefix(resp.Status, strconv.Itoa(resp.StatusCode))
	if s = strings.TrimSpace(s); ok && s != "" {
		return s
	}
	return http.StatusText(resp.StatusCode)
}

// redactedName replaces a response header name that holds a secret: a
// valid header name (the guest's Headers takes it as is), where "[redacted]"
// would not be one.
const redactedName = "x-redacted"

// headers converts h for the guest: names in lower case, a name that
// holds a secret replaced by redactedName, values redacted, and the
// values of names that end up the same joined in the order of the
// server's names (sorted).
func (c *Client) headers(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lk := strings.ToLower(k)
		if c.redact(lk) != lk {
			lk = redactedName
		}
		sep := ", "
		if lk == "set-cookie" {
			sep = "\n"
		}
		v := strings.Join(h[k], sep)
		if prev, ok := out[lk]; ok { // two spellings of one name, or redacted names
			v = prev + sep + v
		}
		out[lk] = c.redact(v)
	}
	return out
}

// digestHeaders describe the body's bytes; they are dropped when
// redaction rewrote the body (they no longer match it, and would let the
// guest test guesses of the secret). An ETag is often made from the body
// too (Express's holds its length and a hash).
var digestHeaders = []string{"content-md5", "digest", "repr-digest", "content-digest", "etag"}

// fixLengths makes h describe a body that redaction rewrote to n bytes:
// content-length, when the server sent one, becomes n (the server's
// would tell the secret's length), and digests of the original body go.
func fixLengths(h map[string]string, n int) {
	if _, ok := h["content-length"]; ok {
		h["content-length"] = strconv.Itoa(n)
	}
	for _, k := range digestHeaders {
		delete(h, k)
	}
}
