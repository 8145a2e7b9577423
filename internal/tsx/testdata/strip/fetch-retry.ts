// Fetch a few URLs with retries and a timeout each.
type FetchResult =
  | { ok: true; url: string; status: number; bytes: number }
  | { ok: false; url: string; error: string };

const urls: string[] = [
  "https://example.com/a.json",
  "https://example.com/b.json",
];

async function withRetry<T>(fn: () => Promise<T>, attempts = 3, delayMs: number = 100): Promise<T> {
  let lastErr: unknown;
  for (let i: number = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (e: unknown) {
      lastErr = e;
      await new Promise<void>((r) => setTimeout(r, delayMs * 2 ** i));
    }
  }
  throw lastErr instanceof Error ? lastErr : new Error(String(lastErr));
}

const results: FetchResult[] = await Promise.all(
  urls.map(async (url): Promise<FetchResult> => {
    try {
      const res = await withRetry(() => fetch(url));
      const text = await res.text();
      return { ok: true, url, status: res.status, bytes: text.length };
    } catch (err) {
      return { ok: false, url, error: (err as Error).message };
    }
  }),
);
return results;
