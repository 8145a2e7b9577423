package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The approval page shows arguments as the tool receives them: keys in
// the program's order (not sorted), every key (repeated ones, and keys
// that differ only in lone surrogates, which decoding merges into one
// U+FFFD key), lone surrogates as their escapes, strings as JSON strings.
func TestPrettyArgsKeepsOrderAndEveryKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"step2":"rm -rf /data","step1":"cp /data /backup"}`, "{\n  \"step2\": \"rm -rf /data\",\n  \"step1\": \"cp /data /backup\"\n}"},
		{`{"entries":{"\ud800":"HIDDEN: the dangerous entry","\ud801":"the harmless entry"}}`,
			"{\n  \"entries\": {\n    \"\\ud800\": \"HIDDEN: the dangerous entry\",\n    \"\\ud801\": \"the harmless entry\"\n  }\n}"},
		{`{"a":1,"a":2}`, "{\n  \"a\": 1,\n  \"a\": 2\n}"},
		{` { "s" : "\ud83d\ude00 \\ud800 \"q\" <b>&\u0041\n\u0001\/\udc00x" , "n" : [ 1 , 2.50 , true , null , [ ] , { } ] } `,
			"{\n  \"s\": \"\U0001F600 \\\\ud800 \\\"q\\\" <b>&A\\n\\u0001/\\udc00x\",\n  \"n\": [\n    1,\n    2.50,\n    true,\n    null,\n    [],\n    {}\n  ]\n}"},
		{`"\ud800"`, `"\ud800"`},
		{`42`, `42`},
		{`{}`, `{}`},
		{`not json`, `not json`},
		{`{"a":1}{"b":2}`, `{"a":1}{"b":2}`},
		{`{"a":`, `{"a":`},
	} {
		if got := prettyArgs([]byte(tc.in)); got != tc.want {
			t.Errorf("prettyArgs(%s):\n%s\nwant\n%s", tc.in, got, tc.want)
		}
	}
}

// On the page itself, both entries whose keys differ only in a lone
// surrogate are shown, each with its escape, and keys in their order.
func TestApprovalPageShowsLoneSurrogateKeys(t *testing.T) {
	s := newServer(Options{}, nil)
	p := s.pages.create([]pageCall{{ID: 1, Tool: "kv.put", Args: []byte(`{"entries":{"\ud800":"HIDDEN","\ud801":"harmless"},"zz":1,"aa":2}`)}}, time.Now().Add(time.Hour))
	w := httptest.NewRecorder()
	(&httpHandler{srv: s}).serveApproval(w, httptest.NewRequest(http.MethodGet, "/approve/"+p.id, nil), p.id)
	page := w.Body.String()
	for _, want := range []string{`\ud800`, "HIDDEN", `\ud801`, "harmless"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if z, a := strings.Index(page, "zz"), strings.Index(page, "aa"); z < 0 || a < 0 || z > a {
		t.Errorf("keys not in the program's order:\n%s", page)
	}
}
