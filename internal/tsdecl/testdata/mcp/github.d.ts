interface Github_AddIssueCommentInput {
  owner: string;
  repo: string;
  issue_number: number;
  body: string;
}

interface Github_CreateBranchInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Name for the new branch */
  branch: string;
  /** Optional: source branch to create from (defaults to the repository's default branch) */
  from_branch?: string;
}

interface Github_CreateIssueInput {
  owner: string;
  repo: string;
  title: string;
  body?: string;
  assignees?: string[];
  milestone?: number;
  labels?: string[];
}

interface Github_CreateOrUpdateFileInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Path where to create/update the file */
  path: string;
  /** Content of the file */
  content: string;
  /** Commit message */
  message: string;
  /** Branch to create/update the file in */
  branch: string;
  /** SHA of the file being replaced (required when updating existing files) */
  sha?: string;
}

interface Github_CreatePullRequestInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request title */
  title: string;
  /** Pull request body/description */
  body?: string;
  /** The name of the branch where your changes are implemented */
  head: string;
  /** The name of the branch you want the changes pulled into */
  base: string;
  /** Whether to create the pull request as a draft */
  draft?: boolean;
  /** Whether maintainers can modify the pull request */
  maintainer_can_modify?: boolean;
}

interface Github_CreatePullRequestReviewInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
  /** The SHA of the commit that needs a review */
  commit_id?: string;
  /** The body text of the review */
  body: string;
  /** The review action to perform */
  event: "APPROVE" | "REQUEST_CHANGES" | "COMMENT";
  /** Comments to post as part of the review (specify either position or line, not both) */
  comments?: ({
    /** The relative path to the file being commented on */
    path: string;
    /** The position in the diff where you want to add a review comment */
    position: number;
    /** Text of the review comment */
    body: string;
  } | {
    /** The relative path to the file being commented on */
    path: string;
    /** The line number in the file where you want to add a review comment */
    line: number;
    /** Text of the review comment */
    body: string;
  })[];
}

interface Github_CreateRepositoryInput {
  /** Repository name */
  name: string;
  /** Repository description */
  description?: string;
  /** Whether the repository should be private */
  private?: boolean;
  /** Initialize with README.md */
  autoInit?: boolean;
}

interface Github_ForkRepositoryInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Optional: organization to fork to (defaults to your personal account) */
  organization?: string;
}

interface Github_GetFileContentsInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Path to the file or directory */
  path: string;
  /** Branch to get contents from */
  branch?: string;
}

interface Github_GetIssueInput {
  owner: string;
  repo: string;
  issue_number: number;
}

interface Github_GetPullRequestInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
}

interface Github_GetPullRequestCommentsInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
}

interface Github_GetPullRequestFilesInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
}

interface Github_GetPullRequestReviewsInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
}

interface Github_GetPullRequestStatusInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
}

interface Github_ListCommitsInput {
  owner: string;
  repo: string;
  sha?: string;
  page?: number;
  perPage?: number;
}

interface Github_ListIssuesInput {
  owner: string;
  repo: string;
  direction?: "asc" | "desc";
  labels?: string[];
  page?: number;
  per_page?: number;
  since?: string;
  sort?: "created" | "updated" | "comments";
  state?: "open" | "closed" | "all";
}

interface Github_ListPullRequestsInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** State of the pull requests to return */
  state?: "open" | "closed" | "all";
  /** Filter by head user or head organization and branch name */
  head?: string;
  /** Filter by base branch name */
  base?: string;
  /** What to sort results by */
  sort?: "created" | "updated" | "popularity" | "long-running";
  /** The direction of the sort */
  direction?: "asc" | "desc";
  /** Results per page (max 100) */
  per_page?: number;
  /** Page number of the results */
  page?: number;
}

interface Github_MergePullRequestInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
  /** Title for the automatic commit message */
  commit_title?: string;
  /** Extra detail to append to automatic commit message */
  commit_message?: string;
  /** Merge method to use */
  merge_method?: "merge" | "squash" | "rebase";
}

interface Github_PushFilesInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Branch to push to (e.g., 'main' or 'master') */
  branch: string;
  /** Array of files to push */
  files: { path: string; content: string }[];
  /** Commit message */
  message: string;
}

interface Github_SearchCodeInput {
  q: string;
  order?: "asc" | "desc";
  /** @minimum 1 */
  page?: number;
  /**
   * @minimum 1
   * @maximum 100
   */
  per_page?: number;
}

interface Github_SearchIssuesInput {
  q: string;
  order?: "asc" | "desc";
  /** @minimum 1 */
  page?: number;
  /**
   * @minimum 1
   * @maximum 100
   */
  per_page?: number;
  sort?: "comments" | "reactions" | "reactions-+1" | "reactions--1" | "reactions-smile" | "reactions-thinking_face" | "reactions-heart" | "reactions-tada" | "interactions" | "created" | "updated";
}

interface Github_SearchRepositoriesInput {
  /** Search query (see GitHub search syntax) */
  query: string;
  /** Page number for pagination (default: 1) */
  page?: number;
  /** Number of results per page (default: 30, max: 100) */
  perPage?: number;
}

interface Github_SearchUsersInput {
  q: string;
  order?: "asc" | "desc";
  /** @minimum 1 */
  page?: number;
  /**
   * @minimum 1
   * @maximum 100
   */
  per_page?: number;
  sort?: "followers" | "repositories" | "joined";
}

interface Github_UpdateIssueInput {
  owner: string;
  repo: string;
  issue_number: number;
  title?: string;
  body?: string;
  assignees?: string[];
  milestone?: number;
  labels?: string[];
  state?: "open" | "closed";
}

interface Github_UpdatePullRequestBranchInput {
  /** Repository owner (username or organization) */
  owner: string;
  /** Repository name */
  repo: string;
  /** Pull request number */
  pull_number: number;
  /** The expected SHA of the pull request's HEAD ref */
  expected_head_sha?: string;
}

declare const tools: {
  github: {
    /** Add a comment to an existing issue */
    add_issue_comment(args: Github_AddIssueCommentInput): Promise<unknown>;
    /** Create a new branch in a GitHub repository */
    create_branch(args: Github_CreateBranchInput): Promise<unknown>;
    /** Create a new issue in a GitHub repository */
    create_issue(args: Github_CreateIssueInput): Promise<unknown>;
    /** Create or update a single file in a GitHub repository */
    create_or_update_file(args: Github_CreateOrUpdateFileInput): Promise<unknown>;
    /** Create a new pull request in a GitHub repository */
    create_pull_request(args: Github_CreatePullRequestInput): Promise<unknown>;
    /** Create a review on a pull request */
    create_pull_request_review(args: Github_CreatePullRequestReviewInput): Promise<unknown>;
    /** Create a new GitHub repository in your account */
    create_repository(args: Github_CreateRepositoryInput): Promise<unknown>;
    /** Fork a GitHub repository to your account or specified organization */
    fork_repository(args: Github_ForkRepositoryInput): Promise<unknown>;
    /** Get the contents of a file or directory from a GitHub repository */
    get_file_contents(args: Github_GetFileContentsInput): Promise<unknown>;
    /** Get details of a specific issue in a GitHub repository. */
    get_issue(args: Github_GetIssueInput): Promise<unknown>;
    /** Get details of a specific pull request */
    get_pull_request(args: Github_GetPullRequestInput): Promise<unknown>;
    /** Get the review comments on a pull request */
    get_pull_request_comments(args: Github_GetPullRequestCommentsInput): Promise<unknown>;
    /** Get the list of files changed in a pull request */
    get_pull_request_files(args: Github_GetPullRequestFilesInput): Promise<unknown>;
    /** Get the reviews on a pull request */
    get_pull_request_reviews(args: Github_GetPullRequestReviewsInput): Promise<unknown>;
    /** Get the combined status of all status checks for a pull request */
    get_pull_request_status(args: Github_GetPullRequestStatusInput): Promise<unknown>;
    /** Get list of commits of a branch in a GitHub repository */
    list_commits(args: Github_ListCommitsInput): Promise<unknown>;
    /** List issues in a GitHub repository with filtering options */
    list_issues(args: Github_ListIssuesInput): Promise<unknown>;
    /** List and filter repository pull requests */
    list_pull_requests(args: Github_ListPullRequestsInput): Promise<unknown>;
    /** Merge a pull request */
    merge_pull_request(args: Github_MergePullRequestInput): Promise<unknown>;
    /** Push multiple files to a GitHub repository in a single commit */
    push_files(args: Github_PushFilesInput): Promise<unknown>;
    /** Search for code across GitHub repositories */
    search_code(args: Github_SearchCodeInput): Promise<unknown>;
    /** Search for issues and pull requests across GitHub repositories */
    search_issues(args: Github_SearchIssuesInput): Promise<unknown>;
    /** Search for GitHub repositories */
    search_repositories(args: Github_SearchRepositoriesInput): Promise<unknown>;
    /** Search for users on GitHub */
    search_users(args: Github_SearchUsersInput): Promise<unknown>;
    /** Update an existing issue in a GitHub repository */
    update_issue(args: Github_UpdateIssueInput): Promise<unknown>;
    /** Update a pull request branch with the latest changes from the base branch */
    update_pull_request_branch(args: Github_UpdatePullRequestBranchInput): Promise<unknown>;
  };
};
declare const github: typeof tools.github;

// Signatures:
// tools.github.create_or_update_file({owner: string, repo: string, path: string, content: string, message: string, branch: string, sha?: string}): Promise<unknown>
// tools.github.search_repositories({query: string, page?: number, perPage?: number}): Promise<unknown>
// tools.github.create_repository({name: string, description?: string, private?: boolean, autoInit?: boolean}): Promise<unknown>
// tools.github.get_file_contents({owner: string, repo: string, path: string, branch?: string}): Promise<unknown>
// tools.github.push_files({owner: string, repo: string, branch: string, files: {…}[], message: string}): Promise<unknown>
// tools.github.create_issue({owner: string, repo: string, title: string, body?: string, assignees?: string[], milestone?: number, labels?: string[]}): Promise<unknown>
// tools.github.create_pull_request({owner: string, repo: string, title: string, body?: string, head: string, base: string, draft?: boolean, maintainer_can_modify?: boolean}): Promise<unknown>
// tools.github.fork_repository({owner: string, repo: string, organization?: string}): Promise<unknown>
// tools.github.create_branch({owner: string, repo: string, branch: string, from_branch?: string}): Promise<unknown>
// tools.github.list_commits({owner: string, repo: string, sha?: string, page?: number, perPage?: number}): Promise<unknown>
// tools.github.list_issues({owner: string, repo: string, direction?: "asc" | "desc", labels?: string[], page?: number, per_page?: number, since?: string, …}): Promise<unknown>
// tools.github.update_issue({owner: string, repo: string, issue_number: number, title?: string, body?: string, assignees?: string[], milestone?: number, labels?: string[], …}): Promise<unknown>
// tools.github.add_issue_comment({owner: string, repo: string, issue_number: number, body: string}): Promise<unknown>
// tools.github.search_code({q: string, order?: "asc" | "desc", page?: number, per_page?: number}): Promise<unknown>
// tools.github.search_issues({q: string, order?: "asc" | "desc", page?: number, per_page?: number, sort?: "comments" | "reactions" | "reactions-+1" | …}): Promise<unknown>
// tools.github.search_users({q: string, order?: "asc" | "desc", page?: number, per_page?: number, sort?: "followers" | "repositories" | "joined"}): Promise<unknown>
// tools.github.get_issue({owner: string, repo: string, issue_number: number}): Promise<unknown>
// tools.github.get_pull_request({owner: string, repo: string, pull_number: number}): Promise<unknown>
// tools.github.list_pull_requests({owner: string, repo: string, state?: "open" | "closed" | "all", head?: string, base?: string, …}): Promise<unknown>
// tools.github.create_pull_request_review({owner: string, repo: string, pull_number: number, body: string, event: "APPROVE" | "REQUEST_CHANGES" | "COMMENT", commit_id?: string, …}): Promise<unknown>
// tools.github.merge_pull_request({owner: string, repo: string, pull_number: number, commit_title?: string, commit_message?: string, merge_method?: "merge" | "squash" | "rebase"}): Promise<unknown>
// tools.github.get_pull_request_files({owner: string, repo: string, pull_number: number}): Promise<unknown>
// tools.github.get_pull_request_status({owner: string, repo: string, pull_number: number}): Promise<unknown>
// tools.github.update_pull_request_branch({owner: string, repo: string, pull_number: number, expected_head_sha?: string}): Promise<unknown>
// tools.github.get_pull_request_comments({owner: string, repo: string, pull_number: number}): Promise<unknown>
// tools.github.get_pull_request_reviews({owner: string, repo: string, pull_number: number}): Promise<unknown>
