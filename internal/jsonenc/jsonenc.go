// Package jsonenc encodes JSON without HTML escaping. json.Marshal writes
// <, > and & as \u escapes, and rewrites them (and U+2028, U+2029) inside
// a json.RawMessage too; Marshal keeps them as written, so text a model
// reads stays as written ("Promise<number>") and a json.RawMessage that is
// compact JSON is kept byte for byte (a digest of it still matches).
package jsonenc

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping: what json.Encoder with
// SetEscapeHTML(false) writes, without its trailing newline. Like
// json.Marshal it compacts a json.RawMessage (drops the white space
// between its tokens) and fails on one that is not valid JSON.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
