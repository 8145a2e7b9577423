/**
 * RFC 3339 time in UTC
 * @format date-time
 */
type NowOutput = string;

interface Github_CreateIssueInput {
  /** Account that owns the repository */
  owner: string;
  /** Repository name without the owner */
  repo: string;
  /**
   * @minLength 1
   * @maxLength 256
   */
  title: string;
  /** Markdown text of the issue */
  body?: string;
  /** @uniqueItems */
  labels?: string[];
  /** @maxItems 10 */
  assignees?: string[];
  /** Milestone number, or null for none */
  milestone?: number | null;
}

interface Github_CreateIssueOutput {
  number: number;
  /** @format uri */
  url: string;
  state: "open" | "closed";
  /** @format date-time */
  created_at?: string;
}

interface Github_ListIssuesInput {
  owner: string;
  repo: string;
  /** @default "open" */
  state?: "open" | "closed" | "all";
  sort?: "created" | "updated" | "comments";
  direction?: "asc" | "desc";
  /**
   * Only issues updated at or after this time
   * @format date-time
   */
  since?: string;
  /**
   * @default 30
   * @minimum 1
   * @maximum 100
   */
  per_page?: number;
  /** @exclusiveMinimum 0 */
  page?: number;
}

type Github_ListIssuesOutput = {
  number: number;
  title: string;
  labels?: {
    name: string;
    /** @pattern ^[0-9a-f]{6}$ */
    color?: string;
  }[];
}[];

interface Notes_DeleteInput {
  /** @format uuid */
  id: string;
}

declare const tools: {
  /** Return the arguments unchanged. */
  echo(args?: Record<string, unknown>): Promise<unknown>;
  github: {
    /**
     * Open a new issue in a repository.
     * Original name: "create-issue".
     * @remarks Needs approval before it runs.
     */
    create_issue(args: Github_CreateIssueInput): Promise<Github_CreateIssueOutput>;
    /** List issues of a repository, newest first. */
    list_issues(args: Github_ListIssuesInput): Promise<Github_ListIssuesOutput>;
  };
  notes: {
    /**
     * Delete a note.
     *
     * The note is gone for good; there is no undo.
     */
    delete(args: Notes_DeleteInput): Promise<boolean>;
  };
  /** The current time. */
  now(): Promise<NowOutput>;
};
declare const github: typeof tools.github;
declare const notes: typeof tools.notes;

// Signatures:
// tools.github.create_issue({owner: string, repo: string, title: string, body?: string, labels?: string[], assignees?: string[], milestone?: number | null}): Promise<{…}>
// tools.github.list_issues({owner: string, repo: string, state?: "open" | "closed" | "all", sort?: "created" | "updated" | "comments", direction?: "asc" | "desc", since?: string, …}): Promise<{…}>
// tools.notes.delete({id: string}): Promise<boolean>
// tools.echo(args?: Record<string, unknown>): Promise<unknown>
// tools.now(): Promise<string>
