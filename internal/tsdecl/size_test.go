package tsdecl

import (
	"fmt"
	"strings"
	"testing"
)

// bigSchema has props properties, each with a description of descLen
// bytes, in nested objects and $defs too.
func bigSchema(props, descLen int) string {
	desc := quote(strings.Repeat("d", descLen-1) + "E")
	var ps []string
	for i := range props {
		ps = append(ps, fmt.Sprintf(`"p%d":{"type":"object","description":%s,"properties":{"q":{"type":"string","description":%s,"default":%s}}}`, i, desc, desc, desc))
	}
	return `{"type":"object","description":` + desc + `,"properties":{` + strings.Join(ps, ",") +
		`,"r":{"$ref":"#/$defs/R"}},"$defs":{"R":{"type":"string","title":` + desc + `,"description":` + desc + `}}}`
}

// Every doc text rendered from a schema is cut at MaxSchemaDocLength, and
// a tool's whole declaration is at most MaxToolDeclaration: past it the
// argument types are less detailed and a doc line says so.
func TestDeclarationSizeBounded(t *testing.T) {
	// small enough to declare in full once its descriptions are cut
	tool := Tool{Namespace: "ns", Name: "t", Description: strings.Repeat("x", 20000), Input: raw(bigSchema(3, 10000)), Output: raw(bigSchema(2, 10000))}
	d, err := Declaration(tool)
	if err != nil {
		t.Fatal(err)
	}
	checkTS(t, "cut", d)
	if strings.Contains(d, "dE") {
		t.Errorf("a description's end is shown")
	}
	for _, l := range strings.Split(d, "\n") {
		if len(l) > MaxSchemaDocLength+100 && !strings.Contains(l, "xxxx") {
			t.Errorf("a line of %d bytes: %.80s…", len(l), l)
		}
		if len(l) > MaxToolDocLength+100 {
			t.Errorf("a line of %d bytes: %.80s…", len(l), l)
		}
	}
	if !strings.Contains(d, "q?: string;") || strings.Contains(d, "too large") {
		t.Errorf("not declared in full:\n%.2000s", d)
	}

	// 100 properties × 10 KB descriptions: past the bound even when cut
	tool = Tool{Namespace: "ns", Name: "t", Description: "Big.", Input: raw(bigSchema(100, 10000)), Output: raw(bigSchema(100, 10000))}
	d, err = Declaration(tool)
	if err != nil {
		t.Fatal(err)
	}
	checkTS(t, "big", d)
	if len(d) > MaxToolDeclaration+2000 {
		t.Errorf("the declaration is %d bytes (bound %d)", len(d), MaxToolDeclaration)
	}
	if !strings.Contains(d, "too large") || !strings.Contains(d, "t(args") {
		t.Errorf("no note on the less detailed types:\n%.3000s", d)
	}
	all, err := Declarations([]Tool{tool, {Namespace: "ns", Name: "u", Input: raw(bigSchema(100, 10000))}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) > 2*MaxToolDeclaration+2000 {
		t.Errorf("the declarations are %d bytes", len(all))
	}
	checkTS(t, "big all", all)

	// too large even without doc comments: an untyped argument
	var ps []string
	for i := range 2000 {
		ps = append(ps, fmt.Sprintf(`"property_with_a_rather_long_name_%d":{"type":"string"}`, i))
	}
	tool = Tool{Namespace: "ns", Name: "t", Input: raw(`{"type":"object","properties":{` + strings.Join(ps, ",") + `},"required":["property_with_a_rather_long_name_1"]}`), Output: raw(`{"type":"string"}`)}
	d, err = Declaration(tool)
	if err != nil {
		t.Fatal(err)
	}
	checkTS(t, "huge", d)
	if !strings.Contains(d, "t(args: Record<string, unknown>): Promise<unknown>;") || !strings.Contains(d, "too large to declare") || len(d) > 1000 {
		t.Errorf("huge:\n%.3000s", d)
	}
}
