interface Docs_SearchInput {
  /**
   * Words to look for; quote a phrase with "double quotes"
   * @example "retry policy"
   * @example "\"exact phrase\""
   */
  query: string;
  /** Which part of each page to search */
  scope?: "title" | "body" | "code" | "changelog" | "api" | "faq" | "blog";
  /** @default 10 */
  limit?: 10 | 25 | 50 | 100;
  mode?: "fuzzy";
  /**
   * @default "en"
   * @pattern ^[a-z]{2}(-[A-Z]{2})?$
   */
  lang?: string;
  /**
   * @minimum -2
   * @maximum 2.5
   * @multipleOf 0.5
   */
  boost?: number;
  /**
   * Search the old index *\/ not recommended
   * @deprecated
   */
  legacy_index?: boolean;
  "x-trace-id"?: string;
  "2nd_pass"?: boolean;
  "with space"?: string;
  $meta?: Record<string, unknown>;
  /** Search filters */
  filters?: {
    tags?: ("guide" | "reference" | "tutorial")[];
    updated?: {
      /** @format date */
      after?: string;
      /** @format date */
      before?: string;
    };
  };
}

/** One page of hits. */
interface Docs_SearchOutput {
  /** @minimum 0 */
  total: number;
  hits: {
    path: string;
    score: number;
    /** Matched text with <mark> around hits */
    snippet?: string;
  }[];
  next_cursor: string | null;
}

interface Docs_SetFlagsInput {
  level?: 1 | 2.5 | -3 | "max" | true | null;
  preset?: { a: 1; "b-c": [true, null] } | [1, "two"];
  unicode?: "naïve ☃ <tag> & \u2028";
}

declare const tools: {
  docs: {
    /** Full-text search over the documentation. Use /* wildcards *\/ carefully. */
    search(args: Docs_SearchInput): Promise<Docs_SearchOutput>;
    /** Literal values of every JSON kind. */
    set_flags(args?: Docs_SetFlagsInput): Promise<unknown>;
  };
};

// Signatures:
// tools.docs.search({query: string, scope?: "title" | "body" | "code" | …, limit?: 10 | 25 | 50 | 100, mode?: "fuzzy", lang?: string, boost?: number, legacy_index?: boolean, …}): Promise<{…}>
// tools.docs.set_flags(args?: {level?: 1 | 2.5 | -3 | …, preset?: { a: 1; "b-c": [true, null] } | [1, "two"], unicode?: "naïve ☃ <tag> & \u2028"}): Promise<unknown>
