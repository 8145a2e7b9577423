package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/internal/jsongen"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkConvert is what the SDK's decoding and convertResult make of a
// response line: the path every line convertLine refuses takes.
func sdkConvert(line []byte) (jsonrpc.ID, json.RawMessage, error) {
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return jsonrpc.ID{}, nil, err
	}
	resp, ok := m.(*jsonrpc.Response)
	if !ok || resp.Error != nil {
		return jsonrpc.ID{}, nil, errors.New("not a result")
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		return jsonrpc.ID{}, nil, err
	}
	out, err := convertResult("s", "t", &res)
	return resp.ID, out, err
}

// resultLine writes a tools/call response around the JSON string text:
// half the time in a shape convertLine takes (any member order and
// spacing, the optional members it allows), half the time with one of
// the changes it must leave to the SDK.
func resultLine(rnd *rand.Rand, text, structured string) string {
	sp := func() string { return []string{"", " ", "\t", "\r\n  "}[rnd.IntN(4)] }
	member := func(k, v string) string { return sp() + `"` + k + `"` + sp() + ":" + sp() + v + sp() }
	obj := func(members ...string) string {
		rnd.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		return "{" + strings.Join(members, ",") + "}"
	}
	odd := -1
	if rnd.IntN(2) == 0 {
		odd = rnd.IntN(14)
	}
	block := []string{member("type", `"text"`), member("text", text)}
	switch odd {
	case 0:
		block = append(block, member("annotations", `{"priority":1}`))
	case 1:
		block = append(block, member("Text", `"other"`))
	case 2:
		block = append(block, member("text", `"twice"`))
	case 3:
		block[0] = member("type", `"image"`)
	}
	blocks := "[" + sp() + obj(block...) + sp() + "]"
	switch odd {
	case 4:
		blocks = "[" + obj(block...) + "," + obj(block...) + "]"
	case 5:
		blocks = "[]"
	}
	res := []string{member("content", blocks)}
	if structured != "" {
		switch rnd.IntN(3) {
		case 0:
			res = nil // no content at all
		case 1:
			res = []string{member("content", "[]")}
		}
		res = append(res, member("structuredContent", structured))
	} else if rnd.IntN(3) == 0 {
		res = append(res, member("structuredContent", "null"))
	}
	optional := []string{member("isError", "false"),
		member("_meta", `{"progressToken":"x","deep":{"a":[null,true,"<&>"]}}`)}
	for _, m := range optional {
		if rnd.IntN(3) == 0 {
			res = append(res, m)
		}
	}
	switch odd {
	case 6:
		res = append(res, member("isError", "true"))
	case 7:
		res = append(res, member("structuredContent", `{"a":[1,"<b>"]}`))
	case 8:
		res = append(res, member("_meta", `"not an object"`))
	case 9:
		res = append(res, member("resultType", `"complete"`))
	case 10:
		res = append(res, member("content", `[]`))
	}
	ids := []string{"1", "42", `"s1"`, `"\u0061b"`, "7.0", "-3"}
	id := ids[rnd.IntN(len(ids))]
	msg := []string{member("jsonrpc", `"2.0"`), member("id", id), member("result", obj(res...))}
	switch odd {
	case 11:
		msg = append(msg, member("error", `{"code":1,"message":"m"}`))
	case 12:
		msg[0] = member("jsonrpc", `"1.0"`)
	case 13:
		msg[2] = member("\\u0072esult", obj(res...))
	}
	return sp() + obj(msg...) + sp()
}

// oddValues are structured values the generator does not make: duplicate
// and escaped member names, names that sort differently decoded, numbers
// in every notation and at float64's edges, whitespace, deep nesting.
var oddValues = []string{
	`{"a":1,"a":2}`, `{"b":{"x":1,"y":2,"x":[3]},"a":null}`, `{"\u0062":1,"a":2,"b":3}`, `{"é":1,"e":2,"\u00e9":3,"z":4}`,
	`{"\ud83d\ude00":1,"\uffff":2,"\ud800":3,"\udbff":4}`, `{"<&>":"<&>","\u2028":"\u2029"}`,
	`[1E400]`, `[-1e-400]`, `[-0, 0.0, -0.0, 1.0, 1e0, 10E-1]`, `[0.000001, 0.0000001, 1e20, 1e21, 123456789012345678901234567890]`,
	`[1.7976931348623157e308, 5e-324, 4.9e-324, 2.2250738585072014e-308, 9007199254740993]`, `[1e-7, 1.5e-10, -2.5E+30, 1E21, 9.999999999999999e20]`,
	` { "k" : [ 1 , 2 ] , "j" : { } } `, `[[[[[[[[[[{"a":[[[[[[[[[[]]]]]]]]]]}]]]]]]]]]]`, `"just a string <\n>"`, `12.5`, `true`, `{}`, `[]`,
	"{\"\xff\":1,\"\xfe\":2}", "[\"a\xffb\"]",
}

// TestConvertLineIsTheSDKPath checks convertLine against the SDK's
// decoding followed by convertResult over generated lines: text with
// every kind of character (every plane, & < > " \ /, controls, NUL,
// U+2028/9, lone surrogates and pairs, raw or escaped at random, bytes
// that are not UTF-8) in every shape of result. Where convertLine
// converts, the id and the bytes are the SDK path's exactly; where it
// does not, the SDK decodes the line. Enough lines must be converted for
// the comparison to mean something.
func TestConvertLineIsTheSDKPath(t *testing.T) {
	g := jsongen.New(7)
	rnd := rand.New(rand.NewPCG(3, 4))
	invalid := []string{"\xff", "\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	converted, copied, structuredDone := 0, 0, 0
	for i := range 20000 {
		text := g.Quote(g.Units(rnd.IntN(60)))
		switch rnd.IntN(10) {
		case 0: // raw bytes that are not UTF-8
			k := 1 + rnd.IntN(len(text)-1)
			text = text[:k] + invalid[rnd.IntN(len(invalid))] + text[k:]
		case 1: // plain text (needs no change)
			text = `"` + strings.Repeat("plain text ", rnd.IntN(5)) + `"`
		case 2: // the escapes json.Marshal does not write
			text = `"a\/b\u0041\u00e9\u007f\ufffd\u2028\u003C"`
		}
		structured := ""
		if rnd.IntN(3) == 0 {
			structured = g.Any().Source
			if rnd.IntN(3) == 0 {
				structured = oddValues[rnd.IntN(len(oddValues))]
			}
		}
		line := []byte(resultLine(rnd, text, structured))
		id, out, ok := convertLine(line)
		wantID, want, err := sdkConvert(line)
		if !ok {
			continue
		}
		converted++
		if structured != "" && structured != "null" {
			structuredDone++
		}
		if len(out) > 0 && len(line) > 0 && &out[0] != &line[0] && !bytes.Contains(line, out) {
			copied++
		}
		if err != nil {
			t.Fatalf("case %d: convertLine converted a line the SDK refuses (%v):\n%s", i, err, line)
		}
		if id != wantID || !bytes.Equal(out, want) {
			t.Fatalf("case %d:\n%s\nconvertLine: id %v, %q\nSDK path:    id %v, %q", i, line, id.Raw(), out, wantID.Raw(), want)
		}
	}
	if converted < 4000 || copied < 500 || structuredDone < 1000 {
		t.Fatalf("only %d of 20000 lines converted (%d rewritten): the comparison covers too little", converted, copied)
	}
	t.Logf("%d lines converted (%d rewritten, %d structured), all as the SDK path", converted, copied, structuredDone)
	// large: 15 MiB of plain text is the line's own bytes; with escapes,
	// one buffer of the final size
	big := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("r", 15<<20) + `"}]}}`
	line := []byte(big)
	_, out, ok := convertLine(line)
	if !ok || len(out) != 15<<20+2 || &out[1] != &line[bytes.IndexByte(line[60:], 'r')+60] {
		t.Fatalf("15 MiB of plain text: ok %v, %d bytes, not the line's own", ok, len(out))
	}
	esc := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`line \"q\" <a>\n`, 1<<20) + `"}]}}`)
	_, out, ok = convertLine(esc)
	_, want, _ := sdkConvert(esc)
	if !ok || !bytes.Equal(out, want) || cap(out) != len(out) {
		t.Fatalf("escaped text: ok %v, equal %v, cap %d len %d", ok, bytes.Equal(out, want), cap(out), len(out))
	}
}

// TestBudget checks the budget: first come first served, a request over
// the whole budget takes all of it, a waiter can give up, and releasing
// twice gives back once.
func TestBudget(t *testing.T) {
	b := newBudget(100)
	r1, _ := b.acquire(60, nil)
	got := make(chan string, 3)
	go func() {
		r, _ := b.acquire(50, nil)
		got <- "50"
		r()
	}()
	waitFor(5*time.Second, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 1 })
	// a small request behind a waiting one waits too (no overtaking)
	done := make(chan struct{})
	go func() {
		if _, ok := b.acquire(10, done); !ok {
			got <- "gave up"
		}
	}()
	waitFor(5*time.Second, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 2 })
	close(done)
	if s := <-got; s != "gave up" {
		t.Fatalf("got %s before the waiter gave up", s)
	}
	r1()
	r1()
	if s := <-got; s != "50" {
		t.Fatalf("got %s", s)
	}
	if !waitFor(5*time.Second, func() bool { return b.inUse() == 0 }) {
		t.Fatalf("in use %d after all released", b.inUse())
	}
	all, ok := b.acquire(1000, nil)
	if !ok || b.inUse() != 100 {
		t.Fatalf("an oversized request: ok %v, in use %d", ok, b.inUse())
	}
	all()
}

// TestLineReader checks the line reader over generated streams: every
// line comes back whole (short and long, a last one without a line end,
// CRLF), and a line over the cap is ErrMessageTooLarge.
func TestLineReader(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		var lines []string
		var stream []byte
		for range rnd.IntN(5) {
			n := rnd.IntN(3000)
			if rnd.IntN(4) == 0 {
				n = rnd.IntN(3 * blockSize)
			}
			l := strings.Repeat(string(rune('a'+rnd.IntN(26))), n)
			lines = append(lines, l)
			stream = append(append(stream, l...), '\n')
		}
		if len(lines) > 0 && rnd.IntN(3) == 0 {
			stream = stream[:len(stream)-1] // the last line has no line end
		}
		lr := &lineReader{br: newSmallReader(stream, rnd), max: 2 * blockSize}
		for j, want := range lines {
			small, blocks, n, err := lr.read()
			if len(want) > lr.max {
				if !errors.Is(err, ErrMessageTooLarge) {
					t.Fatalf("case %d line %d: %d bytes over the cap: %v", i, j, len(want), err)
				}
				break
			}
			if err != nil {
				t.Fatalf("case %d line %d: %v", i, j, err)
			}
			got := small
			if small == nil {
				got = lr.assemble(blocks, n)
			}
			if string(got) != want {
				t.Fatalf("case %d line %d: %d bytes, want %d", i, j, len(got), len(want))
			}
		}
	}
}

// newSmallReader reads data in chunks of random sizes through a small
// buffer, so that lines cross fragments and blocks.
func newSmallReader(data []byte, rnd *rand.Rand) *bufio.Reader {
	return bufio.NewReaderSize(&chunkReader{data: data, rnd: rnd}, 4096)
}

// TestBigResultBudgetComesBack checks that a big result whose call gave
// up before it arrived gives its budget back (it is left to the SDK,
// which drops it), that calls after it convert their results, and that a
// big result the SDK decodes gives the budget back once converted.
func TestBigResultBudgetComesBack(t *testing.T) {
	m := startManager(t, map[string]config.Server{"s": hostileStdio("big-result-late")}, Options{})
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := m.Call(ctx, "s", "evil", nil)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a call that gave up: %v", err)
		}
	}
	res, err := m.Call(context.Background(), "s", "evil", nil)
	if err != nil || len(res) != 15<<20+2 {
		t.Fatalf("the call after: %d bytes, %v", len(res), err)
	}
	if !waitFor(10*time.Second, func() bool { return resultBudget.inUse() == 0 }) {
		t.Fatalf("%d bytes of the budget still held", resultBudget.inUse())
	}
	// a big result the SDK decodes holds the budget until its call has
	// converted it, and then gives it back
	m2 := startManager(t, map[string]config.Server{"s": hostileStdio("big-blocks")}, Options{})
	for range 3 {
		res, err := m2.Call(context.Background(), "s", "evil", nil)
		if err != nil || !bytes.HasPrefix(res, []byte(`{"content":[{"type":"text","text":"bbb`)) || len(res) < 12<<20 {
			t.Fatalf("two big blocks: %.60s (%d bytes), %v", res, len(res), err)
		}
	}
	if used := resultBudget.inUse(); used != 0 {
		t.Fatalf("%d bytes of the budget still held after results the SDK decoded", used)
	}
}

// FuzzConvertLine checks convertLine against the SDK path on arbitrary
// lines: whatever it converts, the SDK path converts to the same id and
// bytes.
func FuzzConvertLine(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\n<b>"}]}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"structuredContent":{"b":1,"a":[1e-7,-0,"\u2028"]},"content":[]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"\ud83d\ude00\ud800"}],"isError":false,"_meta":{}}}`,
		`{"id":3,"jsonrpc":"2.0","result":{"structuredContent":{"k":{"k":1,"k":2}}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		id, out, ok := convertLine(line)
		if !ok {
			return
		}
		wantID, want, err := sdkConvert(line)
		if err != nil || id != wantID || !bytes.Equal(out, want) {
			t.Fatalf("%q: convertLine id %v %q; SDK path id %v %q, %v", line, id.Raw(), out, wantID.Raw(), want, err)
		}
	})
}
