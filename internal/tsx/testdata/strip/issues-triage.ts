// Triage open issues: group by label, find stale ones.
interface Issue {
  id: number;
  title: string;
  labels: string[];
  updatedAt: string;
  assignee?: { login: string } | null;
}

type Bucket = { label: string; count: number; stale: number[] };

const DAY_MS = 24 * 60 * 60 * 1000;
const now: number = Date.now();

const issues = (await tools.github.list_issues({ owner: "acme", repo: "api", state: "open" })) as Issue[];

const buckets = new Map<string, Bucket>();
for (const issue of issues) {
  const age = (now - new Date(issue.updatedAt).getTime()) / DAY_MS;
  for (const label of issue.labels.length ? issue.labels : ["(none)"]) {
    if (!buckets.has(label)) buckets.set(label, { label, count: 0, stale: [] });
    const b = buckets.get(label)!;
    b.count++;
    if (age > 30) b.stale.push(issue.id);
  }
}

const unassigned = issues.filter((i): boolean => !i.assignee).map((i) => i.id);
const sorted: Bucket[] = [...buckets.values()].sort((a, b) => b.count - a.count);
return { buckets: sorted, unassigned, total: issues.length };
