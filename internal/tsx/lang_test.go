package tsx

import "testing"

func TestLangFromName(t *testing.T) {
	tests := []struct {
		name string
		want Lang
		ok   bool
	}{
		{"main.js", JS, true},
		{"a/b/lib.mjs", JS, true},
		{"x.cjs", JS, true},
		{"MAIN.JS", JS, true},
		{"main.ts", TS, true},
		{"dir.v2/x.mts", TS, true},
		{"x.cts", TS, true},
		{"x.tsx", JS, false},
		{"x.jsx", JS, false},
		{"x.json", JS, false},
		{"ts", JS, false},
		{"", JS, false},
	}
	for _, tt := range tests {
		got, ok := LangFromName(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LangFromName(%q) = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseLang(t *testing.T) {
	tests := []struct {
		in      string
		want    Lang
		wantErr bool
	}{
		{"js", JS, false},
		{"javascript", JS, false},
		{"JavaScript", JS, false},
		{"ts", TS, false},
		{" typescript ", TS, false},
		{"TS", TS, false},
		{"tsx", JS, true},
		{"", JS, true},
		{"python", JS, true},
	}
	for _, tt := range tests {
		got, err := ParseLang(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseLang(%q) = %v, %v; want %v, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestLangString(t *testing.T) {
	if JS.String() != "js" || TS.String() != "ts" || JS.Filename() != "main.js" || TS.Filename() != "main.ts" {
		t.Errorf("names: %s %s %s %s", JS, TS, JS.Filename(), TS.Filename())
	}
	if Lang(7).String() != "Lang(7)" {
		t.Errorf("Lang(7).String() = %q", Lang(7).String())
	}
}
