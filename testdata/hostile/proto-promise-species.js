// expect: ok 3
// A throwing Promise[Symbol.species]: the bridge awaits the program's promise instead of calling then on it, so species is never consulted.
Object.defineProperty(Promise, Symbol.species, { get() { throw new Error("species") }, configurable: true });
return await tools.add({ a: 1, b: 2 });
