package toolsearch

import "strings"

// This file and toolbox2_test.go hold a synthetic toolbox modelled on
// public MCP servers (GitHub, filesystem, memory, Slack, Jira, Google
// Calendar, Postgres, Playwright, Gmail, weather, time, fetch, git). The
// descriptions are written the way those servers write them, not for the
// queries in quality_test.go.

// tool builds a Doc. Each param is "name: description"; a nested parameter
// is written "parent.child: description" and contributes both names.
func tool(ns, name, desc string, params ...string) Doc {
	d := Doc{ID: ns + "." + name, Namespace: ns, Name: name, Original: name, Description: desc}
	for _, p := range params {
		n, doc, _ := strings.Cut(p, ": ")
		for _, part := range strings.Split(n, ".") {
			if !strings.Contains(strings.Join(d.Params, " ")+" ", part+" ") {
				d.Params = append(d.Params, part)
			}
		}
		if doc != "" {
			d.ParamDocs = append(d.ParamDocs, doc)
		}
	}
	return d
}

// prefixed sets the Original name of every doc to prefix+Name, as servers
// that prefix their tool names do ("slack_post_message").
func prefixed(prefix string, docs ...Doc) []Doc {
	for i := range docs {
		docs[i].Original = prefix + docs[i].Name
	}
	return docs
}

// toolbox returns the whole synthetic toolbox.
func toolbox() []Doc {
	var docs []Doc
	docs = append(docs, githubTools()...)
	docs = append(docs, filesystemTools()...)
	docs = append(docs, memoryTools()...)
	docs = append(docs, slackTools()...)
	docs = append(docs, jiraTools()...)
	docs = append(docs, calendarTools()...)
	docs = append(docs, postgresTools()...)
	docs = append(docs, browserTools()...)
	docs = append(docs, emailTools()...)
	docs = append(docs, miscTools()...)
	docs = append(docs, gitTools()...)
	return docs
}

var (
	pOwner = "owner: Repository owner"
	pRepo  = "repo: Repository name"
	pPage  = "page: Page number for pagination (min 1)"
	pPer   = "perPage: Results per page for pagination (min 1, max 100)"
)

func githubTools() []Doc {
	g := "github"
	return []Doc{
		tool(g, "create_issue", "Create a new issue in a GitHub repository.",
			pOwner, pRepo, "title: Issue title", "body: Issue body content",
			"assignees: Usernames to assign to this issue", "labels: Labels to apply to this issue",
			"milestone: Milestone number"),
		tool(g, "get_issue", "Get details of a specific issue in a GitHub repository.",
			pOwner, pRepo, "issue_number: The number of the issue"),
		tool(g, "list_issues", "List issues in a GitHub repository. For pagination, use the 'endCursor' from the previous response.",
			pOwner, pRepo, "state: Filter by state, by default both open and closed issues are returned when not provided",
			"labels: Filter by labels", "orderBy: Order issues by field", "direction: Order direction",
			"since: Filter by date (ISO 8601 timestamp)", "after: Cursor for pagination", pPer),
		tool(g, "update_issue", "Update an existing issue in a GitHub repository.",
			pOwner, pRepo, "issue_number: Issue number to update", "title: New title", "body: New description",
			"state: New state", "labels: New labels", "assignees: New assignees", "milestone: New milestone number"),
		tool(g, "add_issue_comment", "Add a comment to a specific issue in a GitHub repository.",
			pOwner, pRepo, "issue_number: Issue number to comment on", "body: Comment content"),
		tool(g, "search_issues", "Search for issues in GitHub repositories using issues search syntax already scoped to is:issue",
			"query: Search query using GitHub issues search syntax", pOwner, pRepo,
			"sort: Sort field by number of matches of categories, defaults to best match", "order: Sort order", pPage, pPer),
		tool(g, "get_pull_request", "Get details of a specific pull request in a GitHub repository.",
			pOwner, pRepo, "pullNumber: Pull request number"),
		tool(g, "list_pull_requests", "List pull requests in a GitHub repository. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead.",
			pOwner, pRepo, "state: Filter by state", "head: Filter by head user/org and branch",
			"base: Filter by base branch", "sort: Sort by", "direction: Sort direction", pPage, pPer),
		tool(g, "create_pull_request", "Create a new pull request in a GitHub repository.",
			pOwner, pRepo, "title: PR title", "body: PR description", "head: Branch containing changes",
			"base: Branch to merge into", "draft: Create as draft PR", "maintainer_can_modify: Allow maintainer edits"),
		tool(g, "merge_pull_request", "Merge a pull request in a GitHub repository.",
			pOwner, pRepo, "pullNumber: Pull request number", "commit_title: Title for merge commit",
			"commit_message: Extra detail for merge commit", "merge_method: Merge method"),
		tool(g, "get_pull_request_files", "Get the files changed in a specific pull request.",
			pOwner, pRepo, "pullNumber: Pull request number", pPage, pPer),
		tool(g, "get_pull_request_diff", "Get the diff of a pull request.",
			pOwner, pRepo, "pullNumber: Pull request number"),
		tool(g, "create_pull_request_review", "Create a review on a pull request. Use event APPROVE to approve, REQUEST_CHANGES to request changes, or COMMENT to leave a comment.",
			pOwner, pRepo, "pullNumber: Pull request number", "body: Review comment text",
			"event: Review action to perform", "commitID: SHA of commit to review"),
		tool(g, "create_branch", "Create a new branch in a GitHub repository",
			pOwner, pRepo, "branch: Name for new branch", "from_branch: Source branch (defaults to repo default)"),
		tool(g, "list_branches", "List branches in a GitHub repository",
			pOwner, pRepo, pPage, pPer),
		tool(g, "list_commits", "Get list of commits of a branch in a GitHub repository. Returns at least 30 results per page by default, but can return more if specified using the perPage parameter (up to 100).",
			pOwner, pRepo, "sha: Commit SHA, branch or tag name to list commits of", "author: Author username or email address to filter commits by", pPage, pPer),
		tool(g, "get_commit", "Get details for a commit from a GitHub repository",
			pOwner, pRepo, "sha: Commit SHA, branch name, or tag name", pPage, pPer),
		tool(g, "get_file_contents", "Get the contents of a file or directory from a GitHub repository",
			pOwner, pRepo, "path: Path to file/directory (directories must end with a slash '/')",
			"ref: Accepts optional git refs such as `refs/tags/{tag}`, `refs/heads/{branch}` or `refs/pull/{pr_number}/head`"),
		tool(g, "create_or_update_file", "Create or update a single file in a GitHub repository. If updating, you must provide the SHA of the file you want to update.",
			pOwner, pRepo, "path: Path where to create/update the file", "content: Content of the file",
			"message: Commit message", "branch: Branch to create/update the file in", "sha: Required if updating an existing file. The blob SHA of the file being replaced."),
		tool(g, "push_files", "Push multiple files to a GitHub repository in a single commit",
			pOwner, pRepo, "branch: Branch to push to", "files: Array of file objects to push, each object with path (string) and content (string)",
			"files.path: path to the file", "files.content: file content", "message: Commit message"),
		tool(g, "delete_file", "Delete a file from a GitHub repository",
			pOwner, pRepo, "path: Path to the file to delete", "message: Commit message", "branch: Branch to delete the file from"),
		tool(g, "search_code", "Fast and precise code search across ALL GitHub repositories using GitHub's native search engine. Best for finding exact symbols, functions, classes, or specific code patterns.",
			"query: Search query using GitHub's powerful code search syntax. Examples: 'content:Skill language:Java org:github', 'NOT is:archived language:Python OR language:go'",
			"sort: Sort field ('indexed' only)", "order: Sort order for results", pPage, pPer),
		tool(g, "search_repositories", "Find GitHub repositories by name, description, readme, topics, or other metadata. Perfect for discovering projects, finding examples, or locating specific repositories across GitHub.",
			"query: Repository search query. Examples: 'machine learning in:name stars:>1000 language:python', 'topic:react'", pPage, pPer),
		tool(g, "create_repository", "Create a new GitHub repository in your account or specified organization",
			"name: Repository name", "description: Repository description", "organization: Organization to create the repository in (omit to create in your personal account)",
			"private: Whether repo should be private", "autoInit: Initialize with README"),
		tool(g, "fork_repository", "Fork a GitHub repository to your account or specified organization",
			pOwner, pRepo, "organization: Organization to fork to"),
		tool(g, "search_users", "Find GitHub users by username, real name, or other profile information. Useful for locating developers, contributors, or team members.",
			"query: User search query. Examples: 'john smith', 'location:seattle', 'followers:>100'", "sort: Sort users by number of followers or repositories, or when the person joined GitHub.", "order: Sort order", pPage, pPer),
		tool(g, "get_me", "Get details of the authenticated GitHub user. Use this when a request is about the user's own profile for GitHub. Or when information is missing to build other tool calls."),
		tool(g, "list_notifications", "Lists all GitHub notifications for the authenticated user, including unread notifications, mentions, review requests, assignments, and updates on issues or pull requests.",
			"filter: Filter notifications to, use default unless specified. Read notifications are ones that have already been acknowledged by the user.",
			"since: Only show notifications updated after the given time (ISO 8601 format)", "owner: Optional repository owner", "repo: Optional repository name", pPage, pPer),
		tool(g, "list_tags", "List git tags in a GitHub repository", pOwner, pRepo, pPage, pPer),
		tool(g, "list_workflow_runs", "List workflow runs for a specific workflow",
			pOwner, pRepo, "workflow_id: The workflow ID or workflow file name", "status: Filter workflow runs by status", "branch: Filter by branch name"),
	}
}

func filesystemTools() []Doc {
	f := "filesystem"
	path := "path: The path of the file or directory"
	return []Doc{
		tool(f, "read_file", "Read the complete contents of a file from the file system. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Only works within allowed directories.",
			path, "tail: If provided, returns only the last N lines of the file", "head: If provided, returns only the first N lines of the file"),
		tool(f, "read_multiple_files", "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
			"paths: Array of file paths to read"),
		tool(f, "read_media_file", "Read an image or audio file. Returns the base64 encoded data and MIME type. Only works within allowed directories.", path),
		tool(f, "write_file", "Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.",
			path, "content: The content to write"),
		tool(f, "edit_file", "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories.",
			path, "edits: List of edits to apply", "edits.oldText: Text to search for - must match exactly",
			"edits.newText: Text to replace with", "dryRun: Preview changes using git-style diff format"),
		tool(f, "create_directory", "Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories.",
			path),
		tool(f, "list_directory", "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
			path),
		tool(f, "list_directory_with_sizes", "Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
			path, "sortBy: Sort entries by name or size"),
		tool(f, "directory_tree", "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). Only works within allowed directories.",
			path, "excludePatterns: Glob patterns to exclude"),
		tool(f, "move_file", "Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.",
			"source: Source path", "destination: Destination path"),
		tool(f, "search_files", "Recursively search for files and directories matching a pattern. Searches through all subdirectories from the starting path. The search is case-insensitive and matches partial names. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories.",
			path, "pattern: Glob pattern to match file names", "excludePatterns: Glob patterns to exclude"),
		tool(f, "get_file_info", "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.",
			path),
		tool(f, "list_allowed_directories", "Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files."),
	}
}
