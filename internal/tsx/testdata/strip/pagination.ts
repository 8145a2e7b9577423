interface Page<T> { items: T[]; next?: string }
interface Repo { name: string; stars: number; archived: boolean }

async function* pages<T>(fetchPage: (cursor?: string) => Promise<Page<T>>): AsyncGenerator<T[], void, unknown> {
  let cursor: string | undefined = undefined;
  do {
    const page: Page<T> = await fetchPage(cursor);
    yield page.items;
    cursor = page.next;
  } while (cursor);
}

const all: Repo[] = [];
for await (const batch of pages<Repo>((cursor) => tools.github.search_repositories({ query: "org:acme", cursor }))) {
  all.push(...batch.filter((r) => !r.archived));
  if (all.length >= 200) break;
}
const top = all.sort((a, b) => b.stars - a.stars).slice(0, 5).map(({ name, stars }) => `${name} (${stars}★)`);
return top;
