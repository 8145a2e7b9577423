package toolsearch

import (
	"fmt"
	"testing"
)

// relevanceCases are queries as a model would write them, each with the tool
// a person would pick for it from the toolbox in toolbox*_test.go.
var relevanceCases = []struct {
	query, want string
}{
	// Close to the tool's own words.
	{"create github issue", "github.create_issue"},
	{"read file", "filesystem.read_file"},
	{"list directory contents", "filesystem.list_directory"},
	{"search memory graph entities", "memory.search_nodes"},
	{"merge a pull request", "github.merge_pull_request"},
	{"send an email", "email.send_email"},
	{"convert time between timezones", "time.convert_time"},
	{"list tables in the database", "postgres.list_tables"},
	{"take a screenshot of the page", "browser.take_screenshot"},
	{"reply to a slack thread", "slack.reply_to_thread"},
	{"download email attachment", "email.download_attachment"},
	{"fork a repo", "github.fork_repository"},
	{"weather forecast for tomorrow", "weather.get_forecast"},
	// Paraphrases and synonyms.
	{"open a new github issue", "github.create_issue"},
	{"what files are in this folder", "filesystem.list_directory"},
	{"remember a fact about a person", "memory.add_observations"},
	{"get pr details", "github.get_pull_request"},
	{"post a message to a slack channel", "slack.post_message"},
	{"what time is it in Tokyo", "time.get_current_time"},
	{"run a sql query", "postgres.query"},
	{"click a button", "browser.click"},
	{"go to a url", "browser.navigate"},
	{"schedule a meeting", "calendar.create_event"},
	{"cancel a calendar event", "calendar.delete_event"},
	{"create a jira ticket", "jira.create_issue"},
	{"move jira issue to done", "jira.transition_issue"},
	{"rename a file", "filesystem.move_file"},
	{"save text to a file", "filesystem.write_file"},
	{"make a folder", "filesystem.create_directory"},
	{"find files matching a pattern", "filesystem.search_files"},
	{"search code in github", "github.search_code"},
	{"create a new branch on github", "github.create_branch"},
	{"commit staged changes", "git.commit"},
	{"link two entities in the knowledge graph", "memory.create_relations"},
	{"delete an entity from memory", "memory.delete_entities"},
	{"file size and modification time", "filesystem.get_file_info"},
	{"show the commit history of the local repository", "git.log"},
	{"comment on a github issue", "github.add_issue_comment"},
	{"fill out a form on a web page", "browser.fill_form"},
	{"find free slots in my calendar", "calendar.get_freebusy"},
	{"list slack users", "slack.get_users"},
	{"upload a file to slack", "slack.upload_file"},
	{"fetch a web page as markdown", "fetch.fetch"},
	{"unread github notifications", "github.list_notifications"},
	{"describe table columns", "postgres.describe_table"},
	{"weather alerts in california", "weather.get_alerts"},
	{"write a draft email", "email.draft_email"},
	{"get my github user profile", "github.get_me"},
	{"log hours worked on a jira issue", "jira.add_worklog"},
	{"approve a pull request", "github.create_pull_request_review"},
	{"what changed in the working tree", "git.status"},
	// Written after the ranking was tuned, as a check on over-fitting.
	{"list open pull requests", "github.list_pull_requests"},
	{"star emoji reaction on a slack message", "slack.add_reaction"},
	{"get the diff of a PR", "github.get_pull_request_diff"},
	{"delete a file in the repo", "github.delete_file"},
	{"overwrite a file", "filesystem.write_file"},
	{"show directory tree recursively", "filesystem.directory_tree"},
	{"which directories can I access", "filesystem.list_allowed_directories"},
	{"find a user on github", "github.search_users"},
	{"run EXPLAIN on a query", "postgres.explain_query"},
	{"press the enter key", "browser.press_key"},
	{"hover over a menu", "browser.hover"},
	{"wait until text appears", "browser.wait_for"},
	{"search my inbox for invoices", "email.search_emails"},
	{"create a gmail label", "email.create_label"},
	{"list my calendars", "calendar.list_calendars"},
	{"update the meeting time", "calendar.update_event"},
	{"add a comment to jira issue", "jira.add_comment"},
	{"jql search", "jira.search"},
	{"what sprints are active on the board", "jira.get_sprints_from_board"},
	{"checkout a branch locally", "git.checkout"},
	{"unstage everything", "git.reset"},
	{"get entity details by name from memory", "memory.open_nodes"},
	{"dump the whole knowledge graph", "memory.read_graph"},
	{"recent messages in a slack channel", "slack.get_channel_history"},
	{"javascript in the page", "browser.evaluate"},
	{"list workflow runs in github actions", "github.list_workflow_runs"},
	// Exact names in the styles a model might copy them.
	{"read_multiple_files", "filesystem.read_multiple_files"},
	{"createIssue", "github.create_issue"},
	{"slack_post_message", "slack.post_message"},
	{"browser-take-screenshot", "browser.take_screenshot"},
	{"github.list_branches", "github.list_branches"},
}

// TestRelevance checks that every query ranks its expected tool in the top
// three, and logs the top-1 and top-3 hit rates.
func TestRelevance(t *testing.T) {
	docs := toolbox()
	if len(docs) < 100 {
		t.Fatalf("toolbox has %d tools, want at least 100", len(docs))
	}
	ix := NewIndex(docs)
	ids := make(map[string]bool, len(docs))
	for _, d := range docs {
		ids[d.ID] = true
	}
	top1, top3 := 0, 0
	for _, c := range relevanceCases {
		if !ids[c.want] {
			t.Fatalf("query %q: expected tool %s is not in the toolbox", c.query, c.want)
		}
		hits := ix.Search(c.query, 5)
		rank := 0
		for i, h := range hits {
			if h.ID == c.want {
				rank = i + 1
				break
			}
		}
		switch {
		case rank == 1:
			top1++
			top3++
		case rank > 0 && rank <= 3:
			top3++
			t.Logf("query %q: %s ranked %d: %s", c.query, c.want, rank, fmtHits(hits))
		default:
			t.Errorf("query %q: %s not in top 3: %s", c.query, c.want, fmtHits(hits))
		}
	}
	n := len(relevanceCases)
	t.Logf("%d tools, %d queries: top-1 %d/%d (%.1f%%), top-3 %d/%d (%.1f%%)",
		len(docs), n, top1, n, 100*float64(top1)/float64(n), top3, n, 100*float64(top3)/float64(n))
}

func fmtHits(hits []Hit) string {
	s := ""
	for i, h := range hits {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %.2f", h.ID, h.Score)
	}
	return s
}
