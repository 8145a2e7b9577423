package tsx

import "testing"

func TestStripFence(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		wantBody   string
		wantOffset int
	}{
		{"plain", "return 1\n", "return 1\n", 0},
		{"ts fence", "```ts\nreturn 1\n```", "return 1", 1},
		{"javascript fence", "```javascript\nconst a = 1;\nreturn a;\n```\n", "const a = 1;\nreturn a;", 1},
		{"bare fence", "```\nreturn 1\n```", "return 1", 1},
		{"typescript fence with spaces", "``` typescript \nreturn 1\n```", "return 1", 1},
		{"surrounding blank lines", "\n\n  ```ts\nreturn 1\n```  \n\n", "return 1", 3},
		{"longer closing fence", "```ts\nreturn 1\n`````", "return 1", 1},
		{"tilde fence", "~~~js\nreturn 1\n~~~", "return 1", 1},
		{"four backticks", "````ts\nreturn '```'\n````", "return '```'", 1},
		{"empty fenced body", "```ts\n```", "", 1},
		{"closing shorter than opening", "````ts\nreturn 1\n```", "````ts\nreturn 1\n```", 0},
		{"no closing fence", "```ts\nreturn 1\n", "```ts\nreturn 1\n", 0},
		{"text after fence", "```ts\nreturn 1\n```\nthanks", "```ts\nreturn 1\n```\nthanks", 0},
		{"text before fence", "Here:\n```ts\nreturn 1\n```", "Here:\n```ts\nreturn 1\n```", 0},
		{"single line", "```return 1```", "```return 1```", 0},
		{"mixed markers", "```ts\nreturn 1\n~~~", "```ts\nreturn 1\n~~~", 0},
		{"inner fence kept", "```md\n```\nx\n```\n```", "```\nx\n```", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, off := stripFence(tt.in)
			if body != tt.wantBody || off != tt.wantOffset {
				t.Errorf("stripFence(%q) = %q, %d; want %q, %d", tt.in, body, off, tt.wantBody, tt.wantOffset)
			}
		})
	}
}

func TestNormalizeNewlines(t *testing.T) {
	if got := normalizeNewlines("a\r\nb\rc\nd"); got != "a\nb\nc\nd" {
		t.Errorf("normalizeNewlines = %q", got)
	}
}

// TestTransformFenced checks that fenced programs compile and that their
// positions count the fence lines.
func TestTransformFenced(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		lang     Lang
		wantLine int // of the throw
	}{
		{"ts", "```ts\nconst a: number = 1;\nthrow new Error('x' + a);\n```", TS, 3},
		{"typescript crlf", "\r\n```typescript\r\nconst a = 1 as number;\r\nthrow new Error('x');\r\n```\r\n", TS, 4},
		{"javascript", "  ```javascript\n\nthrow new Error('x');\n```", JS, 3},
		{"js tilde", "~~~js\nthrow new Error('x');\n~~~", JS, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Transform(tt.src, tt.lang)
			if err != nil {
				t.Fatal(err)
			}
			gl, gc := findInCode(t, p, "throw new")
			line, col, ok := p.Original(gl, gc)
			if !ok || line != tt.wantLine || col != 1 {
				t.Errorf("Original(%d, %d) = %d, %d, %v; want %d, 1", gl, gc, line, col, ok, tt.wantLine)
			}
			if got := p.LineText(line); got != "throw new Error('x' + a);" && got != "throw new Error('x');" {
				t.Errorf("LineText(%d) = %q", line, got)
			}
		})
	}
}
