interface Settings {
  readonly name: string;
  retries?: number;
  tags: string[];
  nested: { depth: number; flags?: Record<string, boolean> };
}

type Partialish<T> = { [K in keyof T]?: T[K] extends object ? Partialish<T[K]> : T[K] };

const defaults = {
  name: "svc",
  retries: 3,
  tags: [],
  nested: { depth: 1 },
} satisfies Settings;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function merge<T extends object>(base: T, patch: Partialish<T>): T {
  const out: any = { ...base };
  for (const [k, v] of Object.entries(patch) as [string, unknown][]) {
    out[k] = isObject(v) && isObject(out[k]) ? merge(out[k], v as any) : v;
  }
  return out as T;
}

const patch: Partialish<Settings> = { retries: 5, nested: { flags: { beta: true } } };
const merged = merge<Settings>(defaults, patch);
return merged;
