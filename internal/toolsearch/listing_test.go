package toolsearch

import (
	"slices"
	"strings"
	"testing"
)

// githubNames are the captured github server's tools (testdata/mcp-schemas).
var githubNames = strings.Fields(`create_or_update_file search_repositories create_repository get_file_contents
push_files create_issue create_pull_request fork_repository create_branch list_commits list_issues
update_issue add_issue_comment search_code search_issues search_users get_issue get_pull_request
list_pull_requests create_pull_request_review merge_pull_request get_pull_request_files
get_pull_request_status update_pull_request_branch get_pull_request_comments get_pull_request_reviews`)

// TestRepresentative: the picks are distinct names of the namespace, the
// first carries its most common concept, and the first few cover its main
// nouns and verbs rather than variations of one tool.
func TestRepresentative(t *testing.T) {
	got := Representative(githubNames, 6)
	t.Logf("github, 6: %v", got)
	if len(got) != 6 {
		t.Fatalf("%d picks, want 6", len(got))
	}
	seen := map[string]bool{}
	for _, n := range got {
		if !slices.Contains(githubNames, n) || seen[n] {
			t.Fatalf("pick %q is not a distinct name of the namespace: %v", n, got)
		}
		seen[n] = true
	}
	if !strings.Contains(got[0], "pull_request") {
		t.Errorf("first pick %q lacks the namespace's most common words (pull request)", got[0])
	}
	joined := strings.Join(got, " ")
	for _, w := range []string{"pull_request", "issue", "repositor", "file"} {
		if !strings.Contains(joined, w) {
			t.Errorf("picks %v do not mention %q", got, w)
		}
	}
	if n := strings.Count(joined, "pull_request"); n > 2 {
		t.Errorf("picks %v name pull requests %d times: variations of one tool", got, n)
	}
	// Deterministic, and the input is left alone.
	before := slices.Clone(githubNames)
	if again := Representative(githubNames, 6); !slices.Equal(again, got) || !slices.Equal(before, githubNames) {
		t.Errorf("not deterministic (%v vs %v) or input changed", again, got)
	}
	if all := Representative(githubNames, 100); !slices.Equal(all, githubNames) {
		t.Errorf("k past the names: %v", all)
	}
	if Representative(githubNames, 0) != nil || Representative(nil, 3) != nil {
		t.Error("k 0 or no names gives picks")
	}
}
