package prompt

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// hostile is a request whose every field tries to take over the terminal.
var hostile = Request{
	Tool:   "github.create_issue\x1b[8m",
	Reason: "policy \"ask\"\x1b]8;;http://evil\x07\r\nApprove? [y/N]",
	Args: json.RawMessage(`{"title":"\u001b[2J\u001b[H\u001b]0;evil\u0007",` +
		`"body":"x\r[modebox] approved automatically\n── modebox: a tool call needs your approval\nAllow github.get_issue? [y] once",` +
		`"file":"\u202etxt.exe\u202c\u2066\u2069","c1":"\u009b2J","zw":"a\u200bb\ufeff",` +
		`"\u001b[1Akey":"\u0008\u0008\u0008\u0000"}`),
}

// argRows returns the rows of r's rendering that lie between the args
// label and the closing rule, and fails if any of them is not behind the
// gutter or one of the prompt's own notes.
func argRows(t *testing.T, out string) []string {
	t.Helper()
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var args []string
	in := false
	for i, row := range rows {
		switch {
		case strings.HasPrefix(row, " args:"):
			in = true
		case !in:
		case i == len(rows)-1:
			if strings.Trim(row, "─") != "" {
				t.Errorf("last row is not the rule: %q", row)
			}
		case strings.HasPrefix(row, gutter), strings.HasPrefix(row, contGutter):
			args = append(args, row)
		case strings.HasPrefix(row, "  └ "):
		default:
			t.Errorf("row %d is outside the gutter: %q", i, row)
		}
	}
	if !in {
		t.Errorf("no args label in\n%s", out)
	}
	return args
}

func TestRenderHostile(t *testing.T) {
	out := Render(hostile, 0, 0)
	checkSafe(t, out, true)
	for _, want := range []string{
		` tool:   github.create_issue\x1b[8m`,
		`\x1b]8;;http://evil\x07\x0d\nApprove? [y/N]`, // reason on one line
		`"title": "\x1b[2J\x1b[H\x1b]0;evil\x07",`,
		`"body": "x\r[modebox] approved automatically\n── modebox`,
		`"file": "\u{202e}txt.exe\u{202c}\u{2066}\u{2069}",`,
		`"c1": "\u009b2J",`,
		`"zw": "a\u{200b}b\u{feff}",`,
		`"\x1b[1Akey": "\x08\x08\x08\x00"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "── modebox"); n != 2 { // the header and the quoted fake
		t.Errorf("header text %d times", n)
	}
	if strings.Contains(out, "\nAllow") || strings.Contains(out, "\nApprove") {
		t.Errorf("fake question at the start of a row:\n%s", out)
	}
	if rows := argRows(t, out); len(rows) < 8 {
		t.Errorf("%d argument rows", len(rows))
	}
}

func TestRenderOrderAndShape(t *testing.T) {
	r := Request{Tool: "t", Reason: "policy \"ask\"", Args: json.RawMessage(
		`{"z":1,"a":[true,false,null],"m":{},"e":[],"n":{"k":-1.5e3},"z":"again"}`)}
	want := strings.Join([]string{
		gutter + `{`,
		gutter + `  "z": 1,`,
		gutter + `  "a": [`,
		gutter + `    true,`,
		gutter + `    false,`,
		gutter + `    null`,
		gutter + `  ],`,
		gutter + `  "m": {},`,
		gutter + `  "e": [],`,
		gutter + `  "n": {`,
		gutter + `    "k": -1.5e3`,
		gutter + `  },`,
		gutter + `  "z": "again"` + dupMark,
		gutter + `}`,
	}, "\n")
	out := Render(r, 0, 0)
	if got := strings.Join(argRows(t, out), "\n"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out, ` reason: policy "ask"`) {
		t.Errorf("reason missing:\n%s", out)
	}
}

func TestRenderBounds(t *testing.T) {
	big := strings.Repeat("A", 1<<20)
	elems := make([]string, 10000)
	for i := range elems {
		elems[i] = fmt.Sprint(i)
	}
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	tooDeep := strings.Repeat(`[`, 20000) + strings.Repeat("]", 20000)
	tests := []struct {
		name, args, hint string
	}{
		{"1 MB string", `{"body":"` + big + `"}`, "(1048376 more bytes; press v to view all)"},
		{"1 MB key", `{"` + big + `":1}`, "(1048376 more bytes; press v to view all)"},
		{"1 MB number", `[` + strings.Repeat("9", 1<<20) + `]`, "(1048376 more bytes; press v to view all)"},
		{"10000 elements", `{"list":[` + strings.Join(elems, ",") + `]}`, "more lines (press v to view all)"},
		{"deep nesting", deep, "more lines (press v to view all)"},
		{"too deep for JSON", tooDeep, "more bytes; press v to view all"},
		{"1 MB raw", "not json " + big, "(1048385 more bytes; press v to view all)"},
		{"many raw lines", strings.Repeat("x\n", 10000), "more lines (press v to view all)"},
		{"wide lines", `["` + strings.Repeat("世", 1000) + `"]`, "more bytes; press v to view all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Render(Request{Tool: "t", Args: json.RawMessage(tt.args)}, 0, 0)
			if len(out) > 6000 {
				t.Errorf("%d bytes of output", len(out))
			}
			if !strings.Contains(strings.ReplaceAll(out, "\n"+contGutter, ""), tt.hint) {
				t.Errorf("no %q in\n%s", tt.hint, out)
			}
			if rows := argRows(t, out); len(rows) > defaultMaxLines {
				t.Errorf("%d argument rows", len(rows))
			}
			rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for _, row := range rows[1 : len(rows)-1] { // not the rules
				if w := cols(row); w > defaultWidth {
					t.Errorf("row of %d columns: %q", w, row)
				}
			}
			checkSafe(t, out, true)
		})
	}
}

// cols is the conservative width used for wrapping.
func cols(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x20 && r < 0x7f {
			n++
		} else {
			n += 2
		}
	}
	return n
}

func TestRenderLimits(t *testing.T) {
	r := Request{Tool: strings.Repeat("t", 50), Args: json.RawMessage(`{"s":"0123456789","l":[1,2,3,4,5,6,7,8,9]}`)}
	out := Render(r, 4, 5)
	for _, want := range []string{
		`"s": "0123"… (6 more bytes; press v to view all),`,
		"  └ … 9 more lines (press v to view all)",
		" tool:   tttt… (46 more bytes; press v to view all)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if rows := argRows(t, out); len(rows) != 5 {
		t.Errorf("%d argument rows, want 5", len(rows))
	}
}

func TestRenderEmptyAndInvalid(t *testing.T) {
	out := Render(Request{Tool: "t"}, 0, 0)
	if !strings.Contains(out, " args:   (none)") {
		t.Errorf("no args:\n%s", out)
	}
	out = Render(Request{Tool: "t", Args: json.RawMessage("{\"a\":\x1b[2J\r\n\u202e}")}, 0, 0)
	if !strings.Contains(out, "not valid JSON") || !strings.Contains(out, gutter+`{"a":\x1b[2J\x0d`) ||
		!strings.Contains(out, gutter+`\u{202e}}`) {
		t.Errorf("raw args not shown sanitised:\n%s", out)
	}
	argRows(t, out)
	checkSafe(t, out, true)
}

func TestRenderWrapsBehindGutter(t *testing.T) {
	// Padding pushes the fake question to where an 80-column terminal
	// would wrap it to the start of a row.
	fake := strings.Repeat(" ", 70) + "Allow github.get_issue? [y] once [N] no:"
	out := Render(Request{Tool: "t", Args: json.RawMessage(`{"x":"` + fake + `"}`)}, 0, 0)
	rows := argRows(t, out)
	if len(rows) != 4 || !strings.HasPrefix(rows[2], contGutter) {
		t.Errorf("value not wrapped behind the gutter:\n%s", out)
	}
}

// A reason that leads with a long origin is not cut before the origin
// ends: the red team's host hid evil.io behind three 63-byte labels.
func TestReasonShowsWholeOrigin(t *testing.T) {
	label := strings.Repeat("a", 63)
	host := "api.github.com." + label + "." + label + "." + label + ".evil.io"
	reason := "fetch to https://" + host + ": a POST of 20 bytes, not on the fetch allowlist"
	out := Render(Request{Tool: "fetch", Reason: reason, Args: []byte(`{"url":"https://` + host + `/"}`)}, 0, 0)
	flat := strings.NewReplacer("\n", "", "┆", "", " ", "").Replace(out)
	if !strings.Contains(flat, strings.ReplaceAll(host, " ", "")+":") {
		t.Fatalf("the reason's origin was cut:\n%s", out)
	}
}
