package schema

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/jsongen"
)

// decodeStd is decodeJSON's fallback alone: encoding/json's Decoder.
func decodeStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	return v, nil
}

// checkPlain fails when decodePlain accepts data that the Decoder does not,
// or gives another value.
func checkPlain(t *testing.T, data []byte) (plain bool) {
	t.Helper()
	got, ok := decodePlain(data)
	want, err := decodeStd(data)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("decodePlain accepted %q, which encoding/json refuses: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decodePlain(%q) = %#v, encoding/json gives %#v", data, got, want)
	}
	return true
}

func TestDecodePlainIsEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, `[]`, `{"a":1,"b":[true,false,null],"c":{"d":"x"}}`, ` {"a" : 1 } `, "\t[1,\n2]\r",
		`0`, `-0`, `1.5`, `1e5`, `1E+5`, `-1.25e-7`, `123456789012345678901234567890`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
		`"plain"`, `"é日本😀"`, `"a\"b"`, `"\u0041"`, "\"\x00\"", "\"\x1f\"", "\"\xff\"", "\"\xed\xa0\x80\"",
		`{"a":1,"a":2}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `tru`, `nul`, `true false`, `{"a":1}x`, ``, ` `,
		strings.Repeat("[", 99) + strings.Repeat("]", 99), strings.Repeat("[", 100) + strings.Repeat("]", 100),
		strings.Repeat("[", 101) + strings.Repeat("]", 101), strings.Repeat(`{"a":`, 150) + "1" + strings.Repeat("}", 150),
		`{"query":"weather in paris","limit":10,"sort":"asc","tags":["a","b"]}`,
	}
	plain := 0
	for _, c := range cases {
		if checkPlain(t, []byte(c)) {
			plain++
		}
	}
	if plain < 15 {
		t.Fatalf("only %d of the cases took the direct path", plain)
	}
}

// Generated values (every JSON type, every Unicode plane, lone
// surrogates, & < > " \ NUL, deep nesting, large strings), written both by
// encoding/json and by the generator, then cut and mutated.
func TestDecodePlainGenerated(t *testing.T) {
	g := jsongen.New(7)
	rng := rand.New(rand.NewPCG(7, 11))
	plain := 0
	for i := 0; i < 3000; i++ {
		v := g.Any()
		b, err := json.Marshal(v.Want)
		if err != nil {
			t.Fatal(err)
		}
		for _, data := range [][]byte{b, []byte(v.Source)} {
			if checkPlain(t, data) {
				plain++
			}
			if len(data) > 0 {
				m := bytes.Clone(data)
				const bytesToTry = "{}[]\",:0-e. \\tfn\x00\xff"
				m[rng.IntN(len(m))] = bytesToTry[rng.IntN(len(bytesToTry))]
				checkPlain(t, m)
				checkPlain(t, data[:rng.IntN(len(data))])
			}
		}
	}
	if plain < 1000 {
		t.Fatalf("only %d values took the direct path", plain)
	}
}

// decodeJSON gives the Decoder's error for malformed text.
func TestDecodeJSONErrorsAreTheDecoders(t *testing.T) {
	for _, c := range []string{`{"a":1,}`, `[1 2]`, `tru`, ``, `{"a":1}x`, "\"\x01\""} {
		_, err1 := decodeJSON([]byte(c))
		dec := json.NewDecoder(strings.NewReader(c))
		dec.UseNumber()
		var v any
		err2 := dec.Decode(&v)
		if err1 == nil {
			t.Fatalf("%q accepted", c)
		}
		if err2 != nil && err1.Error() != err2.Error() {
			t.Fatalf("%q: %v, the Decoder says %v", c, err1, err2)
		}
	}
}
