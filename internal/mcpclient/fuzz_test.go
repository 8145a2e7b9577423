package mcpclient

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/internal/fuzzcorpus"
)

// fuzzResultSeeds are the seeds of FuzzConvertResult: CallToolResult
// messages as a server sends them. They are committed under
// testdata/fuzz/FuzzConvertResult.
var fuzzResultSeeds = map[string]string{
	"text":              `{"content":[{"type":"text","text":"hello"}]}`,
	"text-escapes":      `{"content":[{"type":"text","text":"<b>&\u2028\"\\\u0000\ud83d\ude00"}]}`,
	"two-texts":         `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b","_meta":{"k":1},"annotations":{"audience":["user"],"priority":0.5}}]}`,
	"structured":        `{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1,"s":[true,null,"x"]}}`,
	"structured-null":   `{"content":[{"type":"text","text":"t"}],"structuredContent":null}`,
	"structured-scalar": `{"structuredContent":1e20}`,
	"image":             `{"content":[{"type":"image","mimeType":"image/png","data":"UE5H"}]}`,
	"audio-empty":       `{"content":[{"type":"audio"}]}`,
	"resource":          `{"content":[{"type":"resource","resource":{"uri":"mem://a","mimeType":"text/plain","text":"hi"}}]}`,
	"resource-blob":     `{"content":[{"type":"resource","resource":{"uri":"mem://b","blob":"AAEC"}}]}`,
	"resource-link":     `{"content":[{"type":"resource_link","uri":"file:///x","name":"x","size":12}]}`,
	"is-error":          `{"isError":true,"content":[{"type":"text","text":"bad"},{"type":"image","data":""}]}`,
	"is-error-struct":   `{"isError":true,"structuredContent":{"code":7}}`,
	"is-error-empty":    `{"isError":true}`,
	"empty":             `{}`,
	"unknown-type":      `{"content":[{"type":"video","data":"x"}]}`,
	"deep":              `{"structuredContent":` + deepArray(2000) + `}`,
	"meta":              `{"_meta":{"progressToken":1},"content":[],"structuredContent":{"a":{"b":{"c":[1,2,3]}}}}`,
}

func deepArray(n int) string {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return string(b)
}

// FuzzConvertResult decodes arbitrary bytes as a server's CallToolResult
// (with the SDK's own decoder, as a real session does) and converts it to
// the value the sandbox sees. It checks that:
//
//   - conversion never panics;
//   - a success is valid JSON, no larger than a small multiple of what the
//     server sent (nothing is amplified);
//   - it is the rule of the package doc: structuredContent when there is
//     one, the text of a single text block as a JSON string, the content
//     blocks otherwise;
//   - an isError result becomes a *ToolError with a message, never a value.
func FuzzConvertResult(f *testing.F) {
	for _, s := range fuzzResultSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var res mcp.CallToolResult
		if err := json.Unmarshal(data, &res); err != nil {
			return
		}
		out, err := convertResult("srv", "tool", &res)
		if res.IsError {
			var te *ToolError
			if !errors.As(err, &te) || te.Message == "" || out != nil {
				t.Fatalf("isError result converted to %s, %v", out, err)
			}
			if len(te.Message) > 8*len(data)+256 {
				t.Fatalf("error message of %d bytes from %d bytes", len(te.Message), len(data))
			}
			return
		}
		if err != nil {
			var se *ServerError
			if !errors.As(err, &se) {
				t.Fatalf("conversion failed with %T: %v", err, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("not JSON: %q", out)
		}
		if len(out) > 8*len(data)+256 {
			t.Fatalf("%d bytes in, %d bytes out", len(data), len(out))
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Structured json.RawMessage `json:"structuredContent"`
		}
		_ = json.Unmarshal(data, &sent)
		switch {
		case res.StructuredContent != nil && string(out) != "null" && len(sent.Structured) > 0:
			var want any
			if err := json.Unmarshal(sent.Structured, &want); err == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("structuredContent %s became %s", sent.Structured, out)
			}
		case len(res.Content) == 1 && isText(res.Content[0]):
			if s, ok := got.(string); !ok || s != res.Content[0].(*mcp.TextContent).Text {
				t.Fatalf("single text block became %s", out)
			}
		default:
			m, ok := got.(map[string]any)
			blocks, _ := m["content"].([]any)
			if !ok || len(m) != 1 || len(blocks) != len(res.Content) {
				t.Fatalf("%d content blocks became %s", len(res.Content), out)
			}
		}
	})
}

func isText(c mcp.Content) bool {
	_, ok := c.(*mcp.TextContent)
	return ok
}

// TestFuzzConvertResultCorpus checks that the committed corpus of
// FuzzConvertResult holds every seed above, and rewrites it when
// $MODEBOX_WRITE_CORPUS is set.
func TestFuzzConvertResultCorpus(t *testing.T) {
	files := map[string]string{}
	for name, s := range fuzzResultSeeds {
		files[name] = fuzzcorpus.Entry([]byte(s))
	}
	fuzzcorpus.Check(t, "FuzzConvertResult", files)
}
