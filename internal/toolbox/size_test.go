package toolbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/tsdecl"
)

// Schemas with long property descriptions do not make the declarations
// or a full search huge: 100 tools with 100 properties of 10 KB
// descriptions each.
func TestLongSchemaDescriptionsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 100 MB of schemas")
	}
	desc := strings.Repeat("a", 10_000)
	var ps []string
	for i := range 100 {
		ps = append(ps, fmt.Sprintf(`"p%d":{"type":"string","description":%q}`, i, desc))
	}
	in := `{"type":"object","properties":{` + strings.Join(ps, ",") + `}}`
	var tools []Tool
	for i := range 100 {
		tools = append(tools, Tool{Namespace: "srv", Name: fmt.Sprintf("tool%d", i), Description: "Finds things.", InputSchema: []byte(in), Handler: noop})
	}
	box, err := New(tools, nil, nil, policy.Flows{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := box.Declarations()
	if err != nil {
		t.Fatal(err)
	}
	if len(d) > 100*tsdecl.MaxToolDeclaration {
		t.Errorf("declarations: %d bytes", len(d))
	}
	total := 0
	for _, h := range box.Search("finds things", SearchOptions{Limit: 5, Full: true}) {
		total += len(h.Declaration)
	}
	if total > 5*tsdecl.MaxToolDeclaration {
		t.Errorf("search: %d bytes of declarations", total)
	}
	t.Logf("declarations %d bytes, search %d bytes", len(d), total)
}
