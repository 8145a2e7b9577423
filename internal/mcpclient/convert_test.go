package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestConvertResult(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *mcp.CallToolResult
		want string
	}{
		{"one text block", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"a":1}`}}}, `"{\"a\":1}"`},
		{"structured wins", &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: "x"}},
			StructuredContent: map[string]any{"n": 1},
		}, `{"n":1}`},
		{"no blocks", &mcp.CallToolResult{}, `{"content":[]}`},
		{"two texts", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: "b"}}},
			`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`},
		{"one image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: []byte("PNG")}}},
			`{"content":[{"type":"image","mimeType":"image/png","data":"UE5H"}]}`},
		{"resource link", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ResourceLink{URI: "file:///x", Name: "x"}}},
			`{"content":[{"type":"resource_link","uri":"file:///x","name":"x"}]}`},
		{"embedded resource", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{
			Resource: &mcp.ResourceContents{URI: "mem://a", MIMEType: "text/plain", Text: "hi"}}}},
			`{"content":[{"type":"resource","resource":{"uri":"mem://a","mimeType":"text/plain","text":"hi"}}]}`},
	} {
		got, err := convertResult("s", "t", tc.res)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %s, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}

func TestConvertError(t *testing.T) {
	for _, tc := range []struct {
		res  *mcp.CallToolResult
		want string
	}{
		{&mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "bad"}, &mcp.TextContent{Text: "input"}}}, "bad\ninput"},
		{&mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"code": 7}}, `{"code":7}`},
		{&mcp.CallToolResult{IsError: true}, "the tool reported an error without a message"},
	} {
		_, err := convertResult("srv", "tool", tc.res)
		var te *ToolError
		if !errors.As(err, &te) || te.Message != tc.want || te.Server != "srv" || te.Tool != "tool" {
			t.Errorf("got %v; want *ToolError %q", err, tc.want)
		}
	}
}

func TestCallArguments(t *testing.T) {
	for in, want := range map[string]string{"": "{}", " null ": "{}", `{"a":1}`: `{"a":1}`} {
		if got, err := callArguments([]byte(in)); err != nil || string(got) != want {
			t.Errorf("callArguments(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{`[1]`, `"x"`, `{"a":`, `3`} {
		if _, err := callArguments([]byte(in)); err == nil {
			t.Errorf("callArguments(%q) succeeded", in)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	var tb tailBuffer
	tb.Write([]byte("first line\n"))
	if got := tb.String(); got != "first line\n" {
		t.Errorf("short tail = %q", got)
	}
	for i := 0; i < 500; i++ {
		tb.Write([]byte("0123456789\n"))
	}
	tb.Write([]byte("last words\n"))
	got := tb.String()
	if len(got) > tailSize+len("…") || !strings.HasPrefix(got, "…0123456789\n") || !strings.HasSuffix(got, "last words\n") {
		t.Errorf("long tail (%d bytes) = %.40q…%q", len(got), got, got[len(got)-20:])
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}
	for i, w := range want {
		if got := backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %s; want %s", i+1, got, w)
		}
	}
	if got := backoff(100); got != 30*time.Second {
		t.Errorf("backoff(100) = %s; want 30s", got)
	}
}

func TestServerErrorText(t *testing.T) {
	e := &ServerError{Server: "x", Reason: "exited (exit status 1)", StderrTail: "boom\n"}
	if got := e.Error(); got != "mcp server \"x\" exited (exit status 1)\nstderr: boom" {
		t.Errorf("Error() = %q", got)
	}
}

func TestMarshalTextProperty(t *testing.T) {
	// marshalText returns what json.Marshal returns for every string:
	// plain ASCII (its fast path), each byte value, the characters JSON
	// or HTML escaping touches, every Unicode plane, invalid UTF-8, and
	// large sizes
	rnd := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "Z", "0", " ", "~", "\x7f", "\"", "\\", "<", ">", "&", "\x00", "\n", "\t", "\x1f",
		"é", "\u2028", "\u2029", "\ufffd", "\U0001F600", "\U000E0001", "\U0010FFFF", "\xff", "\xc3", "\xed\xa0\x80"}
	cases := []string{"", strings.Repeat("r", 15<<20), strings.Repeat("r", 1<<20) + "<"}
	for b := range 256 {
		cases = append(cases, "x"+string(rune(b))+"y", "x"+string([]byte{byte(b)})+"y")
	}
	for range 3000 {
		var s strings.Builder
		ascii := rnd.IntN(2) == 0
		for range rnd.IntN(40) {
			if ascii {
				s.WriteByte(byte(0x20 + rnd.IntN(0x5f)))
			} else {
				s.WriteString(pieces[rnd.IntN(len(pieces))])
			}
		}
		cases = append(cases, s.String())
	}
	for _, s := range cases {
		got, err := marshalText(s)
		want, werr := json.Marshal(s)
		if err != nil || werr != nil || !bytes.Equal(got, want) {
			t.Fatalf("marshalText(%q) = %q, %v; json.Marshal gives %q, %v", s, got, err, want, werr)
		}
	}
}
