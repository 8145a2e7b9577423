// expect: ok 3
// The tools object and a tool function wrapped in Proxies that lie about
// everything: the call still goes through the real function once.
const p = new Proxy(tools, { get(t, k) { return k === "add" ? new Proxy(t.add, { apply(f, self, args) { return f(...args) } }) : undefined } });
return await p.add({ a: 1, b: 2 });
