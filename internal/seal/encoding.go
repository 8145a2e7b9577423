package seal

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"sync"

	"github.com/modebox/modebox/internal/codes"
)

// b64 is the token encoding: base64url without padding, strict about the
// unused trailing bits.
var b64 = base64.RawURLEncoding.Strict()

// encode returns raw in the token encoding.
func encode(raw []byte) string { return b64.EncodeToString(raw) }

// encodedLen is the length of raw's encoding.
func encodedLen(n int) int { return b64.EncodedLen(n) }

// decode decodes s strictly: only the base64url alphabet (no padding, no
// whitespace, no "+" or "/"), and only the canonical encoding, so that each
// token has exactly one text. (Go's decoder skips newlines even in strict
// mode, hence the explicit check of each character.)
func decode(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return nil, false
		}
	}
	raw, err := b64.DecodeString(s)
	if err != nil || encode(raw) != s {
		return nil, false
	}
	return raw, true
}

// writers and readers pool the (large) flate state between calls.
var (
	writers sync.Pool // *flate.Writer
	readers sync.Pool // io.ReadCloser that is also a flate.Resetter
)

// compress returns body compressed with DEFLATE (RFC 1951).
func compress(body []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, _ := writers.Get().(*flate.Writer)
	if w == nil {
		var err error
		if w, err = flate.NewWriter(&buf, flate.DefaultCompression); err != nil {
			return nil, fmt.Errorf("seal: %w", err)
		}
	} else {
		w.Reset(&buf)
	}
	_, err := w.Write(body)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("seal: compressing the body: %w", err)
	}
	writers.Put(w)
	return buf.Bytes(), nil
}

// decompress inflates z, refusing output beyond MaxBodySize.
func decompress(z []byte) ([]byte, error) {
	src := bytes.NewReader(z)
	r, _ := readers.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	defer readers.Put(r)
	body, err := io.ReadAll(io.LimitReader(r, MaxBodySize+1))
	if err != nil {
		return nil, &Error{Code: codes.TokenMalformed, Message: "token body does not decompress", Err: err}
	}
	if len(body) > MaxBodySize {
		return nil, fail(codes.TokenTooLarge, fmt.Sprintf("token body decompresses to more than the %d bytes allowed", MaxBodySize))
	}
	if src.Len() != 0 {
		return nil, fail(codes.TokenMalformed, "token body has data after its end")
	}
	return body, nil
}
