interface Fs_DirectoryTreeInput {
  path: string;
  /**
   * @default 3
   * @minimum 1
   */
  depth?: number;
}

/** A file or a directory. */
interface Fs_DirectoryTree_Entry {
  name: string;
  kind: "file" | "dir";
  size?: number;
  children?: Fs_DirectoryTree_Entry[];
  owner?: Fs_DirectoryTree_Owner;
}

interface Fs_DirectoryTree_Owner {
  uid?: number;
  name?: string;
}

interface Fs_EvalExprInput {
  op: "add" | "mul" | "neg";
  args: (number | Fs_EvalExprInput)[];
}

interface Fs_OrgChartInput {
  root: Fs_OrgChart_Team;
}

interface Fs_OrgChart_Team {
  lead: Fs_OrgChart_Person;
  members?: Fs_OrgChart_Person[];
}

interface Fs_OrgChart_Person {
  name: string;
  /** The team this person leads, if any */
  reports?: Fs_OrgChart_Team;
}

/** Names, depth first. */
type Fs_OrgChart_Team2 = string[];

interface Fs_StatInput {
  target: Fs_Stat_Target;
  anchored?: unknown;
}

interface Fs_Stat_Target {
  path: string;
  /** @default true */
  follow_links?: boolean;
}

interface Fs_StatOutput {
  size: number;
  /** @pattern ^[0-7]{4}$ */
  mode: string;
  /** @format date-time */
  mtime: string;
}

declare const tools: {
  fs: {
    /** The directory tree under a path. */
    directory_tree(args: Fs_DirectoryTreeInput): Promise<Fs_DirectoryTree_Entry>;
    /** Evaluate an arithmetic expression tree. */
    eval_expr(args: Fs_EvalExprInput): Promise<number>;
    /** Mutually recursive definitions. */
    org_chart(args: Fs_OrgChartInput): Promise<Fs_OrgChart_Team2>;
    /** References through the document's own $id; an anchor reference degrades. */
    stat(args: Fs_StatInput): Promise<Fs_StatOutput>;
  };
};

// Signatures:
// tools.fs.directory_tree({path: string, depth?: number}): Promise<{name: string, kind: "file" | "dir", size?: number, children?: Entry[], owner?: Owner}>
// tools.fs.eval_expr({op: "add" | "mul" | "neg", args: (number | {…})[]}): Promise<number>
// tools.fs.org_chart({root: Team}): Promise<string[]>
// tools.fs.stat({target: Target, anchored?: unknown}): Promise<{size: number, mode: string, mtime: string}>
