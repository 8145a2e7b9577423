package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/toolcorpus"

	"github.com/modebox/modebox"
)

// fakeTools returns n tools in namespaces of per tools each, with names
// of about the captured servers' length.
func fakeTools(n, per int) []modebox.Tool {
	var ts []modebox.Tool
	for i := range n {
		ts = append(ts, modebox.Tool{Namespace: fmt.Sprintf("ns%02d", i/per), Name: fmt.Sprintf("get_thing_number_%03d", i),
			Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
	}
	return ts
}

func index(t *testing.T, tools []modebox.Tool) string {
	t.Helper()
	e, err := modebox.New(modebox.EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return e.Index()
}

var nsCount = regexp.MustCompile(`(?m)^(.+) \((\d+)( each)?\)`)

// TestIndexTiers: a small toolbox is listed whole; a larger one by
// namespace with counts and some tools; a huge one by namespace and count
// only. The index never passes IndexBudget, and its counts add up.
func TestIndexTiers(t *testing.T) {
	// Small: every tool, by name.
	small := fakeTools(20, 10)
	idx := index(t, small)
	if !strings.HasPrefix(idx, "20 tools:\n") || len(idx) > modebox.IndexBudget {
		t.Fatalf("small index:\n%s", idx)
	}
	for _, tl := range small {
		if !strings.Contains(idx, tl.Name) {
			t.Errorf("small index lacks %s", tl.Name)
		}
	}

	for _, c := range []struct {
		n, per int
		header string
		named  bool
	}{
		{200, 20, "200 tools in 10 namespaces; some of each", true},
		{2000, 20, "2000 tools in 100 namespaces (search for them)", false},
		{20000, 20, "20000 tools in 1000 namespaces (search for them)", false},
	} {
		idx := index(t, fakeTools(c.n, c.per))
		if !strings.HasPrefix(idx, c.header) {
			t.Errorf("%d tools: index starts %q, want %q", c.n, idx[:min(len(idx), 80)], c.header)
		}
		if len(idx) > modebox.IndexBudget {
			t.Errorf("%d tools: index is %d B, over IndexBudget %d", c.n, len(idx), modebox.IndexBudget)
		}
		if got := strings.Contains(idx, "get_thing"); got != c.named {
			t.Errorf("%d tools: names tools %v, want %v:\n%s", c.n, got, c.named, idx)
		}
		// Every namespace listed, or the rest counted: namespaces add up.
		listed := 0
		for _, m := range nsCount.FindAllStringSubmatch(strings.ReplaceAll(idx, "; ", "\n"), -1) {
			k, _ := strconv.Atoi(m[2])
			if k != c.per {
				t.Errorf("%d tools: %q counts %d, want %d", c.n, m[0], k, c.per)
			}
			listed += strings.Count(m[1], ",") + 1
		}
		more := 0
		if m := regexp.MustCompile(`and (\d+) more`).FindStringSubmatch(idx); m != nil {
			more, _ = strconv.Atoi(m[1])
		}
		if listed+more != c.n/c.per {
			t.Errorf("%d tools: %d namespaces listed + %d more, want %d:\n%s", c.n, listed, more, c.n/c.per, idx)
		}
	}
}

// TestIndexSharesLines: namespaces with the same tools (one server run
// twice) share a line, and denied tools are not listed.
func TestIndexSharesLines(t *testing.T) {
	h := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	var tools []modebox.Tool
	for _, ns := range []string{"prod", "staging"} {
		tools = append(tools, modebox.Tool{Namespace: ns, Name: "query", Handler: h}, modebox.Tool{Namespace: ns, Name: "list-tables", Handler: h})
	}
	tools = append(tools, modebox.Tool{Namespace: "ops", Name: "drop_all", Handler: h})
	e, err := modebox.New(modebox.EngineConfig{Tools: tools, Policies: map[string]modebox.Policy{"ops.*": modebox.PolicyDeny}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Index(), "4 tools:\nprod, staging: list_tables, query\n"; got != want {
		t.Errorf("index %q, want %q", got, want)
	}
}

// TestIndexGrowsSlowerThanTheToolbox: on the captured servers and their
// renamed copies, the index is a shrinking share of the tools' own
// descriptions and schemas, and stays within IndexBudget.
func TestIndexGrowsSlowerThanTheToolbox(t *testing.T) {
	orig, err := toolcorpus.Load(filepath.Join("..", "testdata", "mcp-schemas"))
	if err != nil {
		t.Fatal(err)
	}
	prev := 1.0
	for _, n := range []int{36, 62, 124, 250, 500} {
		tools, err := toolcorpus.Grow(orig, n)
		if err != nil {
			t.Fatal(err)
		}
		raw := 0
		for _, ct := range tools {
			raw += len(ct.Raw)
		}
		e := corpusEngine(t, tools)
		idx := e.Index()
		share := float64(len(idx)) / float64(raw)
		t.Logf("%d tools: index %d B, %.2f%% of the tools' %d B", n, len(idx), 100*share, raw)
		if len(idx) > modebox.IndexBudget {
			t.Errorf("%d tools: index %d B over IndexBudget", n, len(idx))
		}
		if n >= 124 && share >= prev {
			t.Errorf("%d tools: index share %.2f%% did not shrink (was %.2f%%)", n, 100*share, 100*prev)
		}
		prev = share
	}
}

// TestIndexManyIdenticalNamespaces: one server run a thousand times (each
// namespace the same tools) still fits the budget and says how many
// namespaces there are.
func TestIndexManyIdenticalNamespaces(t *testing.T) {
	h := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	var tools []modebox.Tool
	for i := range 1000 {
		ns := fmt.Sprintf("replica%04d", i)
		tools = append(tools, modebox.Tool{Namespace: ns, Name: "query", Handler: h}, modebox.Tool{Namespace: ns, Name: "list_tables", Handler: h})
	}
	for i := range 300 {
		tools = append(tools, modebox.Tool{Namespace: fmt.Sprintf("svc%03d", i), Name: fmt.Sprintf("op%03d", i), Handler: h})
	}
	idx := index(t, tools)
	if len(idx) > modebox.IndexBudget {
		t.Errorf("index %d B, over IndexBudget:\n%s", len(idx), idx)
	}
	want := "2300 tools in 1300 namespaces"
	if !strings.HasPrefix(idx, want) || !strings.Contains(idx, "replica0000, replica0001, replica0002, replica0003, replica0004, replica0005, replica0006, replica0007 and 992 more (2 each)") {
		t.Errorf("index:\n%s", idx)
	}
	// The namespaces named or counted add up to all of them.
	m := regexp.MustCompile(`; and (\d+) more\n$`).FindStringSubmatch(idx)
	if m == nil {
		t.Fatalf("index does not count the namespaces it leaves out:\n%s", idx)
	}
	rest, _ := strconv.Atoi(m[1])
	if shown := strings.Count(idx, "svc"); shown+rest != 300 {
		t.Errorf("%d svc namespaces shown + %d more, want 300:\n%s", shown, rest, idx)
	}
}

// TestEngineLimits: the engine's own limits, the defaults elsewhere.
func TestEngineLimits(t *testing.T) {
	e, err := modebox.New(modebox.EngineConfig{Limits: modebox.Limits{Timeout: 5e9, MaxCalls: 10, Fuel: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	want := modebox.DefaultLimits()
	want.Timeout, want.MaxCalls, want.Fuel = 5e9, 10, 1000
	if got := e.Limits(); got != want {
		t.Errorf("Limits() = %+v, want %+v", got, want)
	}
}
