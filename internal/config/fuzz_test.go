package config

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// toAny converts a parsed node to what encoding/json produces with
// UseNumber, keeping the last of duplicate keys as encoding/json does.
func toAny(n *node) any {
	switch n.kind {
	case kindNull:
		return nil
	case kindBool:
		return n.b
	case kindNumber:
		return json.Number(n.str)
	case kindString:
		return n.str
	case kindArray:
		out := make([]any, 0, len(n.elems))
		for _, e := range n.elems {
			out = append(out, toAny(e))
		}
		return out
	}
	out := make(map[string]any, len(n.members))
	for _, m := range n.members {
		out[m.key] = toAny(m.val)
	}
	return out
}

// FuzzParseJSON checks the hand-written parser against encoding/json: the
// same documents are valid (except that the parser also rejects invalid
// UTF-8 and deep nesting) and they decode to the same values.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `true`, `-0.5e+10`, `"a\u00e9\n"`, `{"a": [1, {"b": null}]}`,
		fullExample, starter, `{"a":1,}`, `[1 2]`, `01`, `"\ud800"`, "\"\x01\"", ` `, `{"a" 1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, serr := parseJSON(data)
		body := bytes.TrimPrefix(data, []byte("\uFEFF"))
		valid := json.Valid(body)
		if serr == nil && !valid {
			t.Fatalf("parser accepts what encoding/json rejects: %q", data)
		}
		if serr != nil {
			if valid && utf8.Valid(body) && serr.msg != "nesting too deep" {
				t.Fatalf("parser rejects valid JSON %q: %s", data, serr.msg)
			}
			if serr.off < 0 || serr.off > len(data) {
				t.Fatalf("error offset %d out of range", serr.off)
			}
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := toAny(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json %#v", got, want)
		}
		// Parse must never panic on anything the parser accepts.
		_, _ = Parse(data, "f.json")
	})
}

// FuzzSchemaAgrees checks that Parse and the JSON Schema agree on
// documents that are valid JSON, apart from the documented cases only
// Parse can see (see Schema).
func FuzzSchemaAgrees(f *testing.F) {
	for _, s := range goodDocs {
		f.Add([]byte(s))
	}
	for _, s := range moreBadDocs {
		f.Add([]byte(s))
	}
	for _, c := range errorCases {
		f.Add([]byte(c.doc))
	}
	v := compileSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, serr := parseJSON(data); serr != nil || bytes.HasPrefix(data, []byte("\uFEFF")) {
			return
		}
		_, goErr := Parse(data, "f.json")
		schemaErr := v.ValidateJSON(data)
		if (goErr == nil) == (schemaErr == nil) {
			return
		}
		if goErr != nil {
			msg := goErr.Error()
			for _, documented := range []string{"duplicate key", "too large", "must be at most 2GiB, got \"", "invalid URL"} {
				if bytes.Contains([]byte(msg), []byte(documented)) {
					return
				}
			}
		}
		t.Fatalf("disagree on %q\nParse:  %v\nschema: %v", data, goErr, schemaErr)
	})
}
