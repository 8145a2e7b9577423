async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}

const ids: number[] = Array.from({ length: 12 }, (_, i) => i + 1);
const users = await mapLimit(ids, 4, async (id) => {
  const u = await tools.users.get({ id }) as { id: number; name: string } | null;
  return u?.name ?? `#${id}`;
});
return users;
