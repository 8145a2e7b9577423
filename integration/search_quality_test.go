package integration_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/toolcorpus"

	"github.com/modebox/modebox"
)

// capturedQueries are what a model would type to find each tool of the
// captured servers (testdata/mcp-schemas: everything, filesystem, memory,
// github), with the tool a person would pick (server and name as the
// server lists it). A "[...]" part names the service: it is left out
// against the captured servers alone, where the service is unambiguous, and
// kept (with {ns} the namespace) against the 500-tool toolbox, where eight
// servers of each kind answer. The queries were written from the tools'
// descriptions before the ranking was looked at.
var capturedQueries = []struct{ query, server, tool string }{
	// everything
	{"echo a message back[ with {ns}]", "everything", "echo"},
	{"add two numbers[ in {ns}]", "everything", "get-sum"},
	{"sum of two numbers[ {ns}]", "everything", "get-sum"},
	{"print environment variables[ of the {ns} server]", "everything", "get-env"},
	{"get a small image[ from {ns}]", "everything", "get-tiny-image"},
	{"gzip compress a file[ with {ns}]", "everything", "gzip-file-as-resource"},
	{"turn logging on or off[ in {ns}]", "everything", "toggle-simulated-logging"},
	{"resource subscription updates[ {ns}]", "everything", "toggle-subscriber-updates"},
	{"long running operation with progress[ {ns}]", "everything", "trigger-long-running-operation"},
	{"deep research query[ {ns}]", "everything", "simulate-research-query"},
	{"structured content with an output schema[ {ns}]", "everything", "get-structured-content"},
	{"message with annotations[ {ns}]", "everything", "get-annotated-message"},
	{"links to resources[ {ns}]", "everything", "get-resource-links"},
	{"resource reference[ {ns}]", "everything", "get-resource-reference"},
	// filesystem
	{"read a text file[ on {ns}]", "filesystem", "read_text_file"},
	{"read the contents of a file[ from {ns}]", "filesystem", "read_file"},
	{"read an image file as base64[ from {ns}]", "filesystem", "read_media_file"},
	{"read several files at once[ from {ns}]", "filesystem", "read_multiple_files"},
	{"write a new file[ to {ns}]", "filesystem", "write_file"},
	{"edit lines in a file[ on {ns}]", "filesystem", "edit_file"},
	{"make a new directory[ on {ns}]", "filesystem", "create_directory"},
	{"list the files in a directory[ on {ns}]", "filesystem", "list_directory"},
	{"list a directory with file sizes[ on {ns}]", "filesystem", "list_directory_with_sizes"},
	{"recursive directory tree as json[ of {ns}]", "filesystem", "directory_tree"},
	{"rename or move a file[ on {ns}]", "filesystem", "move_file"},
	{"find files by name pattern[ on {ns}]", "filesystem", "search_files"},
	{"file size and modification time[ on {ns}]", "filesystem", "get_file_info"},
	{"which directories are allowed[ on {ns}]", "filesystem", "list_allowed_directories"},
	// memory
	{"create entities in the knowledge graph[ {ns}]", "memory", "create_entities"},
	{"add relations between entities[ in {ns}]", "memory", "create_relations"},
	{"add observations to an entity[ in {ns}]", "memory", "add_observations"},
	{"delete entities[ from {ns}]", "memory", "delete_entities"},
	{"remove observations from an entity[ in {ns}]", "memory", "delete_observations"},
	{"delete relations[ from {ns}]", "memory", "delete_relations"},
	{"read the whole knowledge graph[ {ns}]", "memory", "read_graph"},
	{"search the knowledge graph for nodes[ {ns}]", "memory", "search_nodes"},
	{"open specific nodes by name[ in {ns}]", "memory", "open_nodes"},
	// github
	{"create or update a file in a repository[ on {ns}]", "github", "create_or_update_file"},
	{"search repositories[ on {ns}]", "github", "search_repositories"},
	{"create a new repository[ on {ns}]", "github", "create_repository"},
	{"get the contents of a file in a repo[ on {ns}]", "github", "get_file_contents"},
	{"push several files in one commit[ to {ns}]", "github", "push_files"},
	{"open a new issue[ on {ns}]", "github", "create_issue"},
	{"open a pull request[ on {ns}]", "github", "create_pull_request"},
	{"fork a repository[ on {ns}]", "github", "fork_repository"},
	{"create a branch[ on {ns}]", "github", "create_branch"},
	{"list commits of a branch[ on {ns}]", "github", "list_commits"},
	{"list issues in a repository[ on {ns}]", "github", "list_issues"},
	{"close an issue[ on {ns}]", "github", "update_issue"},
	{"comment on an issue[ on {ns}]", "github", "add_issue_comment"},
	{"search code across repositories[ on {ns}]", "github", "search_code"},
	{"search issues and pull requests[ on {ns}]", "github", "search_issues"},
	{"find a user[ on {ns}]", "github", "search_users"},
	{"get issue details[ on {ns}]", "github", "get_issue"},
	{"get pull request details[ on {ns}]", "github", "get_pull_request"},
	{"list open pull requests[ on {ns}]", "github", "list_pull_requests"},
	{"approve a pull request with a review[ on {ns}]", "github", "create_pull_request_review"},
	{"merge a pull request[ on {ns}]", "github", "merge_pull_request"},
	{"files changed in a pull request[ on {ns}]", "github", "get_pull_request_files"},
	{"status checks of a pull request[ on {ns}]", "github", "get_pull_request_status"},
	{"update a pull request branch from base[ on {ns}]", "github", "update_pull_request_branch"},
	{"review comments on a pull request[ on {ns}]", "github", "get_pull_request_comments"},
	{"reviews of a pull request[ on {ns}]", "github", "get_pull_request_reviews"},
	// Exact names, as a model copies them from the index.
	{"get_sum", "everything", "get-sum"},
	{"read_multiple_files", "filesystem", "read_multiple_files"},
	{"createEntities", "memory", "create_entities"},
	{"get-pull-request-files", "github", "get_pull_request_files"},
}

var servicePart = regexp.MustCompile(`\[([^\]]*)\]`)

// corpusEngine is an engine over tools (their handlers answer nothing).
func corpusEngine(t testing.TB, tools []toolcorpus.Tool) *modebox.Engine {
	t.Helper()
	var ts []modebox.Tool
	for _, ct := range tools {
		ts = append(ts, modebox.Tool{Namespace: ct.Server, Name: ct.Name, Description: ct.Description,
			InputSchema: ct.InputSchema, OutputSchema: ct.OutputSchema,
			Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
	}
	e, err := modebox.New(modebox.EngineConfig{Tools: ts})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// relevance runs every query and reports the share found first and in the
// top three, logging the misses.
func relevance(t *testing.T, e *modebox.Engine, queries []struct{ query, want string }) (top1, top3 float64) {
	t.Helper()
	keys := map[string]bool{}
	for _, ti := range e.Tools() {
		keys[ti.Key] = true
	}
	n1, n3 := 0, 0
	for _, q := range queries {
		if !keys[q.want] {
			t.Fatalf("query %q: expected tool %s is not in the toolbox", q.query, q.want)
		}
		hits := e.Search(q.query, modebox.SearchOptions{Limit: 3})
		var got []string
		for i, h := range hits {
			got = append(got, h.Key)
			if h.Key == q.want {
				n3++
				if i == 0 {
					n1++
				}
			}
		}
		if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+q.want+" ") {
			t.Logf("miss: %q: want %s, top 3 %v", q.query, q.want, got)
		}
	}
	n := float64(len(queries))
	return float64(n1) / n, float64(n3) / n
}

// keyOf is the key modebox gives tool name of namespace ns.
func keyOf(e *modebox.Engine, ns, name string) string {
	for _, ti := range e.Tools() {
		if ti.Namespace == ns && ti.Name == name {
			return ti.Key
		}
	}
	return ns + "." + name + " (missing)"
}

// TestSearchCapturedServers: every query against the captured servers'
// 63 tools finds its tool in the top three.
func TestSearchCapturedServers(t *testing.T) {
	tools, err := toolcorpus.Load(filepath.Join("..", "testdata", "mcp-schemas"))
	if err != nil {
		t.Fatal(err)
	}
	e := corpusEngine(t, tools)
	var qs []struct{ query, want string }
	for _, c := range capturedQueries {
		qs = append(qs, struct{ query, want string }{servicePart.ReplaceAllString(c.query, ""), keyOf(e, c.server, c.tool)})
	}
	top1, top3 := relevance(t, e, qs)
	t.Logf("%d tools, %d queries: top-1 %.1f%%, top-3 %.1f%%", len(tools), len(qs), 100*top1, 100*top3)
	if top3 < 1 {
		t.Errorf("top-3 %.1f%%, want 100%%", 100*top3)
	}
}

// TestSearch500: against 500 tools (the captured servers and renamed
// copies of them, eight servers of each kind), each query names its
// service, in that service's words, and finds its tool in the top three
// for at least 95% of the queries.
func TestSearch500(t *testing.T) {
	orig, err := toolcorpus.Load(filepath.Join("..", "testdata", "mcp-schemas"))
	if err != nil {
		t.Fatal(err)
	}
	tools, err := toolcorpus.Grow(orig, 500)
	if err != nil {
		t.Fatal(err)
	}
	e := corpusEngine(t, tools)
	servers := map[string]bool{}
	for _, ct := range tools {
		servers[ct.Server] = true
	}
	// Each server of the toolbox gets its family's queries.
	copies := []toolcorpus.Copy{}
	for _, s := range toolcorpus.Servers {
		copies = append(copies, toolcorpus.Copy{Server: s, Family: s})
	}
	for _, c := range toolcorpus.Copies {
		if servers[c.Server] {
			copies = append(copies, c)
		}
	}
	var qs []struct{ query, want string }
	for _, c := range copies {
		for _, q := range capturedQueries {
			if q.server != c.Family {
				continue
			}
			want := keyOf(e, c.Server, c.Text(q.tool))
			if strings.HasSuffix(want, "(missing)") {
				continue // a copy cut short at 500 tools
			}
			text := servicePart.ReplaceAllString(c.Text(q.query), "$1")
			if !strings.Contains(q.query, "[") {
				text = c.Server + " " + c.Text(q.tool) // an exact name, with its namespace
			}
			qs = append(qs, struct{ query, want string }{strings.ReplaceAll(text, "{ns}", c.Server), want})
		}
	}
	top1, top3 := relevance(t, e, qs)
	t.Logf("%d tools in %d namespaces, %d queries: top-1 %.1f%%, top-3 %.1f%%", len(tools), len(servers), len(qs), 100*top1, 100*top3)
	if top3 < 0.95 {
		t.Errorf("top-3 %.1f%%, want at least 95%%", 100*top3)
	}
}
