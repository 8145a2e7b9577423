package toolsearch

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func smallIndex() *Index {
	return NewIndex([]Doc{
		{ID: "fs.read_file", Namespace: "fs", Name: "read_file", Description: "Read a file."},
		{ID: "fs.write_file", Namespace: "fs", Name: "write_file", Description: "Write a file."},
		{ID: "math.add", Namespace: "math", Name: "add", Original: "add-numbers", Description: "Add two numbers.", Params: []string{"a", "b"}},
		{ID: "math.get_sum", Namespace: "math", Name: "get_sum", Original: "get-sum", Description: "Sum a list of numbers.", Params: []string{"numbers"}},
	})
}

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func TestSearchEmptyAndUnmatched(t *testing.T) {
	ix := smallIndex()
	for _, q := range []string{"", "   ", "?!", "zebra", "the"} {
		if hits := ix.Search(q, 10); len(hits) != 0 {
			t.Errorf("Search(%q) = %v, want nothing", q, hits)
		}
	}
	var nilIx *Index
	if hits := nilIx.Search("read", 10); hits != nil {
		t.Errorf("nil index returned %v", hits)
	}
	if hits := NewIndex(nil).Search("read", 10); hits != nil {
		t.Errorf("empty index returned %v", hits)
	}
}

func TestSearchLimitAndOrder(t *testing.T) {
	ix := smallIndex()
	all := ix.Search("file", 0)
	if got := ids(all); !slices.Equal(got, []string{"fs.read_file", "fs.write_file"}) {
		t.Fatalf("Search(file) = %v", all)
	}
	// The two tools are symmetric, so they tie and are ordered by ID.
	if all[0].Score != all[1].Score {
		t.Errorf("scores differ: %v", all)
	}
	if got := ix.Search("file", 1); len(got) != 1 || got[0].ID != "fs.read_file" {
		t.Errorf("Search(file, 1) = %v", got)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Score > all[i-1].Score {
			t.Errorf("not sorted: %v", all)
		}
	}
}

func TestSearchNames(t *testing.T) {
	ix := smallIndex()
	cases := map[string]string{
		"read":        "fs.read_file",
		"readFile":    "fs.read_file",
		"fs.readfile": "fs.read_file",
		"save":        "fs.write_file", // synonym
		"add-numbers": "math.add",      // original name
		"get-sum":     "math.get_sum",
		"getSum":      "math.get_sum",
		"sum":         "math.get_sum",
	}
	for q, want := range cases {
		hits := ix.Search(q, 3)
		if len(hits) == 0 || hits[0].ID != want {
			t.Errorf("Search(%q) = %v, want %s first", q, hits, want)
		}
	}
}

func TestSearchExactNameFirst(t *testing.T) {
	// "add" is the name of math.add but the description of another tool
	// mentions it more.
	ix := NewIndex([]Doc{
		{ID: "a.add", Namespace: "a", Name: "add", Description: "Sum."},
		{ID: "b.add_many", Namespace: "b", Name: "add_many", Description: "Add add add, add everything."},
	})
	if hits := ix.Search("add", 0); len(hits) != 2 || hits[0].ID != "a.add" {
		t.Errorf("Search(add) = %v, want a.add first", hits)
	}
}

func TestSearchNamespace(t *testing.T) {
	ix := NewIndex([]Doc{
		{ID: "github.create_issue", Namespace: "github", Name: "create_issue", Description: "Create a new issue in a repository."},
		{ID: "jira.create_issue", Namespace: "jira", Name: "create_issue", Description: "Create a new issue in a project."},
	})
	for ns, want := range map[string]string{"github": "github.create_issue", "jira": "jira.create_issue"} {
		hits := ix.Search(ns+" create issue", 0)
		if len(hits) != 2 || hits[0].ID != want || hits[0].Score <= hits[1].Score {
			t.Errorf("namespace %s: got %v", ns, hits)
		}
	}
}

func TestPrefixExpansion(t *testing.T) {
	ix := smallIndex()
	if hits := ix.Search("numb", 0); len(hits) != 2 {
		t.Errorf("Search(numb) = %v, want the two tools about numbers", hits)
	}
}

func TestDuplicateIDs(t *testing.T) {
	ix := NewIndex([]Doc{
		{ID: "x", Name: "alpha"},
		{ID: "x", Name: "beta"},
	})
	if hits := ix.Search("alpha", 0); len(hits) != 1 {
		t.Errorf("first doc not indexed: %v", hits)
	}
	if hits := ix.Search("beta", 0); len(hits) != 0 {
		t.Errorf("duplicate doc indexed: %v", hits)
	}
}

func TestCompoundWords(t *testing.T) {
	ix := NewIndex([]Doc{
		{ID: "jira.add_worklog", Name: "add_worklog", Description: "Add a worklog entry."},
		{ID: "git.log", Name: "log", Description: "Show the log."},
		{ID: "x.work", Name: "work", Description: "Do work."},
		{ID: "x.other", Name: "other", Description: "Something else."},
	})
	// "worklog" is "work" and "log" written together, both indexed words,
	// so either finds it.
	for _, q := range []string{"work", "log"} {
		if !slices.Contains(ids(ix.Search(q, 0)), "jira.add_worklog") {
			t.Errorf("Search(%q) = %v, want jira.add_worklog among them", q, ix.Search(q, 0))
		}
	}
	if hits := ix.Search("other", 0); len(hits) != 1 {
		t.Errorf("Search(other) = %v", hits)
	}
}

func TestConcurrentSearch(t *testing.T) {
	ix := NewIndex(toolbox())
	want := make(map[string][]Hit)
	for _, c := range relevanceCases {
		want[c.query] = ix.Search(c.query, 5)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				for _, c := range relevanceCases {
					if got := ix.Search(c.query, 5); !slices.Equal(got, want[c.query]) {
						errs <- fmt.Errorf("Search(%q) = %v, want %v", c.query, got, want[c.query])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestHostileLongWordIndexedQuickly(t *testing.T) {
	// a 200,000-letter word in a description and a name (a hostile
	// server's listing) must not make indexing slow
	w := strings.Repeat("ab", 100_000)
	start := time.Now()
	ix := NewIndex([]Doc{
		{ID: "evil.word", Namespace: "evil", Name: "word", Description: "one word: " + w},
		{ID: "evil.x", Namespace: "evil", Name: w, Description: "a name of one word"},
		{ID: "good.read_file", Namespace: "good", Name: "read_file", Description: "Reads a file."},
	})
	// about 0.05s with the guards, 10s without them on a 2-core machine
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("indexing took %s", d)
	}
	if hits := ix.Search("read file", 3); len(hits) == 0 || hits[0].ID != "good.read_file" {
		t.Errorf("search after the long word: %+v", hits)
	}
}
