// A class with a private field and parameter properties: esbuild's.
class TTLCache<V> {
  #store = new Map<string, { v: V; exp: number }>();
  constructor(private readonly ttlMs: number) {}
  set(k: string, v: V): void { this.#store.set(k, { v, exp: Date.now() + this.ttlMs }); }
  get(k: string): V | undefined {
    const e = this.#store.get(k);
    return e && e.exp > Date.now() ? e.v : undefined;
  }
}
const c = new TTLCache<number>(1000);
c.set("a", 1);
return c.get("a");
